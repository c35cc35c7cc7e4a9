# Altimetry: `make demo` and `make test` are the quick start. Both install what is missing first.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := liblapack-dev libblas-dev

.PHONY: demo test build release deps bench validate validate-devices format lint docs sync-docs static spark-check clean fuzz fuzz-build sanitize

# Installs the system LAPACK and BLAS when they are missing; refreshes stale package lists first.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "error: no swift toolchain on PATH (Swift 6 is needed)"; exit 1; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The main job on built-in data.
demo: release
	$(SWIFT) run -c release altimetry demo

# Every test.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

# The test suite under AddressSanitizer, then ThreadSanitizer (each in a build folder of its own). The Swift
# backtracer is off: after a trap it reads other threads' stacks, which AddressSanitizer reports as an overflow.
# LeakSanitizer skips the leaks that Tests/Sanitizers/leaks.supp names, all in the toolchain's Foundation and XCTest.
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --build-path .build/asan
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/leaks.supp \
	  $(SWIFT) test --skip-build --parallel --sanitize=address --build-path .build/asan
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build/tsan
	SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $(SWIFT) test --skip-build --parallel --sanitize=thread --build-path .build/tsan

# Fuzzing (see Docs/reliability.md): each target for FUZZ_SECONDS from its seed corpus under Tests/FuzzCorpus/;
# new inputs collect in .build/fuzz/TARGET/, and a finding stops with its input saved as .build/fuzz/TARGET-crash-*.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= csv ndjson gpx tcx fit igc time fusion state
FUZZ_FLAGS ?=
FUZZ_DRIVER := Fuzz/.build/release/altimetry-fuzz

# Every module with AddressSanitizer and libFuzzer's coverage; the driver has its own main (SwiftPM names an
# executable's entry point, so libFuzzer's main cannot be linked) and links libFuzzer without one.
FUZZ_RUNTIME = $(shell clang -print-file-name=libclang_rt.fuzzer_no_main-x86_64.a)

fuzz-build: deps
	$(SWIFT) build --package-path Fuzz -c release -Xswiftc -sanitize=address \
	  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
	  -Xlinker --whole-archive -Xlinker $(FUZZ_RUNTIME) -Xlinker --no-whole-archive -Xlinker -lstdc++

# The longest input per target: a time is a few dozen bytes; a few hundred readings reach every state of the filter;
# a saved state with the receiver learner is about 28 KB.
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p .build/fuzz/$$t; \
	  case $$t in time) len=64;; fusion) len=1024;; state) len=32768;; *) len=4096;; esac; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  SWIFT_BACKTRACE=enable=no ALTIMETRY_FUZZ_TARGET=$$t $(FUZZ_DRIVER) .build/fuzz/$$t Tests/FuzzCorpus/$$t -dict=Fuzz/Dictionaries/$$t.dict \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=$$len -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/$$t- $(FUZZ_FLAGS) || exit 1; \
	done

# Docs/validation.md from the code's own output: evaluate (default, fixed, a grid of fixed receivers) over every
# real recording in ../shared/data/real, read in place, and bench over the simulated catalogue; one SVG per
# recording in out/validation; the README's headline rows pasted from the page. Not part of `make test`.
validate: release
	@command -v jq >/dev/null || { echo "Installing: jq"; $(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y jq; }
	Scripts/validate.sh .build/release/altimetry ../shared/data/real out/validation Docs/validation.md

# Every command over every committed real device file (FIT, IGC), one table of exit codes; a crash fails.
validate-devices: build
	Scripts/validate-devices.sh .build/debug/altimetry

bench: release
	$(SWIFT) run -c release altimetry-bench

# Style: swift-format with the committed .swift-format (4-space indents, 120 columns).
SWIFT_FORMAT_PATHS := Package.swift Sources Tests Benchmarks

# Formats in place, then rewrites every page's sample blocks from their (now formatted) files.
format:
	swift-format format --in-place --recursive --parallel $(SWIFT_FORMAT_PATHS)
	Scripts/sync-samples.py

lint:
	swift-format lint --strict --recursive --parallel $(SWIFT_FORMAT_PATHS)

# Rewrites every generated block of README.md and Docs/: the sample files, the command blocks' outputs (run in
# debug, as DocCommandTests reruns them) and the demo's output. `make validate` writes Docs/validation.md.
sync-docs: build
	Scripts/sync-samples.py
	Scripts/sync-commands.py
	Scripts/sync-demo.py

# A DocC archive per library module under .build-docs/archives, from symbol graphs (no plugin).
docs:
	Scripts/docs.sh

# A release binary with the Swift runtime and Foundation linked in, checked to run without the toolchain.
static: deps
	Scripts/static-check.sh

# altimetry fuse as the per-partition step of Spark's local mode, checked against one process (installs pyspark).
spark-check: deps
	Benchmarks/spark/spark-check.sh

clean:
	rm -rf .build .build-static .build-docs .build-spark
