# Altimetry: `make demo` and `make test` are the quick start. Both install what is missing first.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := liblapack-dev libblas-dev

.PHONY: demo test build release deps bench validate format clean

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

format:
	swift-format format --in-place --recursive Sources Tests Benchmarks

clean:
	rm -rf .build
