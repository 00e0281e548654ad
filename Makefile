# springtune: `make demo` sets up and runs the main job on the bundled defaults;
# `make test` sets up and runs the whole suite. Both install what is missing first.
SWIFT ?= swift
PYTHON ?= python3
BIN := .build/release/springtune
# slurm-wlm and munge: the private Slurm cluster of Tests/slurm/run.sh (scripts/slurm-local.sh);
# qemu-user: Tests/cli/run.sh runs the binary on an emulated CPU without AVX2 (see CPU_FLAGS).
APT_PACKAGES := libcsv-dev gnuplot-nox chromium slurm-wlm munge qemu-user
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_OUT ?= out/demo
VENV := .venv
## On an x86-64 CPU with AVX2 and its companions (x86-64-v3: Intel Haswell, AMD Zen and later),
## the build targets it (`-target-cpu haswell`): the sweep's 4-lane kernel (SIMD4<Double>) then
## takes one 256-bit instruction where SSE2 takes two, about 40 % fewer instructions in a sweep.
## Swift emits no fused multiply-add unless asked, so the numbers are the same bytes (the golden
## report tests check it); elsewhere the build keeps the baseline. `make CPU_FLAGS=` turns it off.
## Such a binary checks the CPU before main (Sources/CPUCheck) and refuses, exit 69, on a CPU
## without AVX2 (a cluster node older than the machine that built it).
CPU_FLAGS ?= $(shell f=$$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null); \
  for x in avx2 fma bmi1 bmi2 movbe f16c abm popcnt; do echo " $$f " | grep -qw $$x || exit 0; done; \
  echo -Xswiftc -target-cpu -Xswiftc haswell -Xcc -DSPRINGTUNE_X86_64_V3)
## The C target (Sources/CPUCheck) with DWARF 4 debug information: clang's default, DWARF 5,
## stops valgrind 3.19 ("possibly corrupted debuginfo file"), which `springtune bench` counts with.
SWIFT_FLAGS = -Xcc -gdwarf-4 $(CPU_FLAGS)

.PHONY: setup build demo test notebooks strip-notebooks bench fuzz clean

## Install the system packages springtune needs (Debian/Ubuntu), only when missing.
setup:
	@dpkg -s $(APT_PACKAGES) >/dev/null 2>&1 || { \
	  echo "installing $(APT_PACKAGES)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_PACKAGES); }

build: setup
	$(SWIFT) build -c release $(SWIFT_FLAGS)

demo: build
	$(BIN) sweep --preset evernote --out $(DEMO_OUT)

## Swift suites, command-line checks (incl. a separate package decoding an export), a sharded
## sweep on a private single-node Slurm cluster (started and stopped by Tests/slurm/run.sh),
## notebooks, and a short run of every fuzzer from the seed corpus (fresh each time).
## The suites run on an optimised build with testing enabled (-enable-testing for @testable):
## the sweeps they check take seconds there instead of minutes in a debug build.
test: setup
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing $(SWIFT_FLAGS)
	$(SWIFT) test -c release --skip-build -Xswiftc -enable-testing $(SWIFT_FLAGS)
	SPRINGTUNE=$(CURDIR)/$(BIN) SPRINGTUNE_CPU_LEVEL=$(if $(strip $(CPU_FLAGS)),3,1) Tests/cli/run.sh
	SPRINGTUNE=$(CURDIR)/$(BIN) Tests/slurm/run.sh
	$(MAKE) notebooks SPRINGTUNE_BIN=$(CURDIR)/$(BIN)
	rm -rf out/fuzz-smoke
	$(MAKE) fuzz FUZZ_SECONDS=6 FUZZ_DIR=out/fuzz-smoke

## The notebooks' project-local Python environment (nbclient, pandas, matplotlib from PyPI).
$(VENV)/.installed: Notebooks/requirements.txt
	$(PYTHON) -m venv $(VENV) || { $(SUDO) apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Notebooks/requirements.txt
	touch $@

## Executes every notebook (they must be stripped of outputs and draw at least one chart).
SPRINGTUNE_BIN ?= $(CURDIR)/$(BIN)
notebooks: $(VENV)/.installed
	@test -x $(SPRINGTUNE_BIN) || $(MAKE) build
	SPRINGTUNE=$(SPRINGTUNE_BIN) $(VENV)/bin/python Notebooks/run.py

strip-notebooks: $(VENV)/.installed
	$(VENV)/bin/python Notebooks/strip.py

## Times the fixed workloads (default evernote sweep with charts; a 10,000-set sweep).
bench: build
	$(BIN) bench

## Fuzzes with libFuzzer for FUZZ_SECONDS each: the trace reader, the reader through one sweep
## run of every model, the preset decoder through grid construction, the importers, report
## reading in compare/pick/merge. Any input: results or one ToolError, never a crash. The
## corpora grow in FUZZ_DIR/<name>; one summary line per harness (executions, crashes).
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= out/fuzz
FUZZ_CONFIG ?= release
FUZZERS := traces sweep preset import report
fuzz: setup
	$(SWIFT) build --package-path Fuzz -c $(FUZZ_CONFIG) --sanitize=fuzzer
	Fuzz/run.sh Fuzz/.build/$(FUZZ_CONFIG) $(FUZZ_SECONDS) $(FUZZ_DIR) $(FUZZERS)

clean:
	rm -rf .build out $(VENV) Examples/PresetConsumer/.build Fuzz/.build
