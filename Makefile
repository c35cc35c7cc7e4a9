# Altimetry: `make demo` and `make test` are the quick start. Both install what is missing first.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := liblapack-dev libblas-dev

.PHONY: demo test build release deps bench validate format lint docs static spark-check clean

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

# evaluate and plot (and identify, where the build has it) over every real recording in ../shared/data/real,
# read in place; one table (summary.md) and one SVG per recording in out/validation. Not part of `make test`.
validate: release
	@command -v jq >/dev/null || { echo "Installing: jq"; $(SUDO) apt-get update && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y jq; }
	Scripts/validate.sh .build/release/altimetry ../shared/data/real out/validation

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
