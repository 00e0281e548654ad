# springtune: `make demo` sets up and runs the main job on the bundled defaults;
# `make test` sets up and runs the whole suite. Both install what is missing first.
SWIFT ?= swift
BIN := .build/release/springtune
APT_PACKAGES := libcsv-dev gnuplot-nox
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_OUT ?= out/demo

.PHONY: setup build demo test bench clean

## Install the system packages springtune needs (Debian/Ubuntu), only when missing.
setup:
	@dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || { \
	  echo "installing $(APT_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES); }

build: setup
	$(SWIFT) build -c release

demo: build
	$(BIN) sweep --preset evernote --out $(DEMO_OUT)

## Times the fixed workloads (default evernote sweep with charts; a 10,000-set sweep).
bench: build
	$(BIN) bench

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build out
