# springtune: `make demo` sets up and runs the main job on the bundled defaults;
# `make test` sets up and runs the whole suite. Both install what is missing first.
# `make install PREFIX=DIR` installs the binary and its data; `make uninstall PREFIX=DIR` removes them.
SWIFT ?= swift
PYTHON ?= python3
BIN := .build/release/springtune
## The studio's server, a second executable that `springtune studio` starts (built by `build`, not by `demo`).
STUDIO_BIN := .build/release/springtune-studio
## What `make demo` (and build, install) needs: libcsv-dev and libsqlite3-dev to build (the trace reader links
## libcsv; the studio's sessions are SQLite through GRDB),
## gnuplot-nox to draw the charts.
DEMO_PACKAGES := libcsv-dev gnuplot-nox libsqlite3-dev
## What `make test` adds: chromium renders the sweep page (Tests/cli/run.sh) and, with chromium-driver, drives
## the studio's page (Tests/studio/browser.py); slurm-wlm and munge
## run the private Slurm cluster of Tests/slurm/run.sh (scripts/slurm-local.sh); qemu-user runs
## the binary on an emulated CPU without AVX2 (see CPU_FLAGS); valgrind counts instructions
## (bench); man-db renders the installed man page (Tests/cli/install.sh); python3-venv makes the
## notebooks' environment; zbar-tools decodes the studio's QR codes (Tests/studio/qr_check.py);
## nodejs (18 or later, node's built-in test runner, no npm package) runs the studio page's unit tests
## (Tests/page/) and the QR encoder for qr_check.py.
TEST_PACKAGES := $(DEMO_PACKAGES) chromium chromium-driver slurm-wlm munge qemu-user valgrind man-db python3-venv zbar-tools nodejs
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_OUT ?= out/demo
VENV := .venv
## The studio tests' Python environment (`make studio-venv`).
STUDIO_VENV := out/test/studio-venv
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
## -DSPRINGTUNE_BUILD_VERSION: compile the version `make version` wrote (see VERSION below).
SWIFT_FLAGS = -Xcc -gdwarf-4 $(CPU_FLAGS) -Xswiftc -DSPRINGTUNE_BUILD_VERSION

.PHONY: setup setup-test version build build-tool demo test test-lanes test-build-cli test-build-studio test-build test-beside test-page studio-venv test-units test-cli test-checks test-served test-browser install install-built uninstall notebooks strip-notebooks bench footprint fuzz wasm docs clean

## Install system packages (Debian/Ubuntu), only when missing: $(call apt,PACKAGES).
apt = @dpkg -s $(1) >/dev/null 2>&1 || { \
	  echo "installing $(1)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1); }
setup:
	$(call apt,$(DEMO_PACKAGES))
setup-test:
	$(call apt,$(TEST_PACKAGES))

## `springtune --version`, the version in every report.meta.json: `git describe --tags --dirty`,
## or the last release plus the commit when no tag is reachable, baked into the binary through
## a generated file (gitignored; rewritten only when it changes). A plain `swift build` compiles
## without it and says Version.swift's fallback.
VERSION := $(shell git describe --tags --dirty 2>/dev/null || { c=$$(git describe --always --dirty 2>/dev/null) && echo "0.1.0+g$$c"; } || echo 0.1.0+unknown)
VERSION_SWIFT := Sources/SpringTune/Runtime/BuildVersion.swift
version:
	@v='$(subst ','',$(VERSION))'; v=$$(printf %s "$$v" | tr -cd 'A-Za-z0-9.+_-'); \
	text=$$(printf '%s\n' '// Written by `make version` from git; not committed (Version.swift has the fallback).' \
	  '#if SPRINGTUNE_BUILD_VERSION' 'extension SpringTuneVersion {' "    static let described = \"$$v\"" '}' '#endif'); \
	[ "$$(cat $(VERSION_SWIFT) 2>/dev/null)" = "$$text" ] || { printf '%s\n' "$$text" > $(VERSION_SWIFT); echo "version $$v"; }

## Both executables: the command line and the studio's server.
build: setup version
	$(SWIFT) build -c release $(SWIFT_FLAGS)

## The command line alone: what the demo runs, without the studio's server stack (SwiftNIO,
## Hummingbird, GRDB and their dependencies, most of a first build's time).
build-tool: setup version
	$(SWIFT) build -c release $(SWIFT_FLAGS) --product springtune

demo: build-tool
	$(BIN) sweep --preset evernote --out $(DEMO_OUT)

## Swift suites (incl. every fuzz harness fed its seed corpus), command-line checks (incl. a
## separate package decoding an export), a sharded sweep on a private single-node Slurm cluster
## (started and stopped by Tests/slurm/run.sh), notebooks, the footprint and the API docs.
## Each step prints `time: STEP N s` (Tests/cli/timed.sh): `grep ^time: LOG` shows where the time goes.
TIMED := Tests/cli/timed.sh
## The suites run on an optimised build with testing enabled (-enable-testing for @testable):
## the sweeps they check take seconds there instead of minutes in a debug build. The build is a
## chain of three steps (one .build, one lock), and each lane of checks starts as soon as what it
## runs is built, so the checks fill the core the build leaves idle (the build alone keeps 1.2 of
## the 2 cores busy on average: its long modules compile one after another):
##   1. test-build-cli: the command line and the man page's generator -> test-cli, test-checks;
##   2. test-build-studio: the studio's server -> test-served, test-browser;
##   3. test-build: the rest, with the test bundles -> test-units.
## test-beside (DocC, the footprint) and test-page (the WebAssembly engine, the page's node
## tests) build in folders of their own or nothing, from the start. `-k`: a failing lane stops
## no other (each failure is printed; make test still fails). Each step prints
## `time: STEP N s (cpu M s)`; docs/Development.md has the table of where the time goes.
## The test build carries no Swift debug information (-gnone; the code is the same, only DWARF
## is left out): 15 % less compile CPU (springtune's product from a clean scratch folder: 247 →
## 209 CPU-s). `make build`, `make install` and `make demo` keep it.
TEST_FLAGS = -Xswiftc -enable-testing -Xswiftc -gnone $(SWIFT_FLAGS)
TEST_BIN = SPRINGTUNE=$(CURDIR)/$(BIN)
test: setup-test version
	$(MAKE) -k -j5 --output-sync=target test-lanes GENERATE_MANUAL=$(CURDIR)/.build/release/generate-manual
test-lanes: test-units test-cli test-checks test-served test-browser test-beside test-page
test-build-cli:
	$(TIMED) $(SWIFT) build -c release --product springtune $(TEST_FLAGS)
	$(TIMED) $(SWIFT) build -c release --product generate-manual $(TEST_FLAGS)
test-build-studio: test-build-cli
	$(TIMED) $(SWIFT) build -c release --product springtune-studio $(TEST_FLAGS)
test-build: test-build-studio
	$(TIMED) $(SWIFT) build -c release --build-tests $(TEST_FLAGS)
## DocC (its own scratch folder, .build/docs) with the doc-comment count on its symbol graphs,
## and the footprint (the example app in a scratch folder; its last check, `swift package
## describe`, waits for the build's lock, so it comes last).
test-beside:
	$(TIMED) $(MAKE) docs
	$(TEST_BIN) $(TIMED) Tests/cli/doccomments.sh
	$(TEST_BIN) $(TIMED) Tests/cli/footprint.sh
## The WebAssembly engine (checked to be the copy the studio serves) and the page's node tests.
test-page:
	$(TIMED) $(MAKE) wasm WASM_CHECK=1
	$(TIMED) node --test Tests/page/
	$(TIMED) node Tests/page/shared_names.mjs
## The Swift suites.
test-units: test-build
	$(TIMED) $(SWIFT) test -c release --skip-build $(TEST_FLAGS)
## The command-line checks: the built binary only.
test-cli: test-build-cli test-page
	$(TEST_BIN) SPRINGTUNE_CPU_LEVEL=$(if $(strip $(CPU_FLAGS)),3,1) $(TIMED) Tests/cli/run.sh
	$(TEST_BIN) $(TIMED) Tests/cli/readme.sh
	$(TEST_BIN) $(TIMED) Tests/cli/numbers.sh
	$(TEST_BIN) $(TIMED) Tests/cli/charts.sh
	$(TEST_BIN) $(TIMED) Tests/cli/traces.sh
	$(TEST_BIN) $(TIMED) Tests/cli/importance.sh
	$(TEST_BIN) $(TIMED) Tests/cli/hardening.sh
	$(TEST_BIN) $(TIMED) Tests/cli/finite.sh
	$(TEST_BIN) $(TIMED) Tests/cli/wasm.sh
## The command-line checks that sweep and search the most, the cluster and the notebooks.
test-checks: test-build-cli $(VENV)/.installed
	$(TEST_BIN) $(TIMED) Tests/cli/sure.sh
	$(TEST_BIN) $(TIMED) Tests/cli/platform.sh
	$(TEST_BIN) $(TIMED) Tests/cli/search.sh
	$(TEST_BIN) $(TIMED) Tests/cli/gate.sh
	$(TEST_BIN) $(TIMED) Tests/cli/objectives.sh
	$(TEST_BIN) $(TIMED) Tests/cli/learn.sh
	$(TEST_BIN) $(TIMED) Tests/slurm/run.sh
	$(TIMED) $(MAKE) notebooks SPRINGTUNE_BIN=$(CURDIR)/$(BIN)
## The studio's server: its command line, `make install` of both programs, the signposts (they
## read the studio's routes off a running studio), the API against its OpenAPI document, the QR codes.
test-served: test-build-studio $(STUDIO_VENV)/.installed
	$(TEST_BIN) $(TIMED) Tests/cli/studio.sh
	$(TEST_BIN) $(TIMED) $(PYTHON) Tests/cli/signposts.py --self-test
	$(TEST_BIN) INSTALL_TARGET=install-built $(TIMED) Tests/cli/install.sh
	$(TEST_BIN) $(TIMED) Tests/studio/schemathesis.sh
	$(TIMED) $(PYTHON) Tests/studio/qr_check.py
## The studio's page in headless Chromium.
test-browser: test-build-studio $(STUDIO_VENV)/.installed
	$(TEST_BIN) $(TIMED) $(STUDIO_VENV)/bin/python Tests/studio/browser.py

## The studio tests' Python environment (schemathesis, selenium, websockets from PyPI).
studio-venv: $(STUDIO_VENV)/.installed
$(STUDIO_VENV)/.installed:
	$(PYTHON) -m venv $(STUDIO_VENV)
	$(STUDIO_VENV)/bin/pip install -q --disable-pip-version-check 'schemathesis>=4.32,<5' 'selenium>=4.20,<5' 'websockets>=13,<16'
	touch $@

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

## Rewrites the footprint table of docs/SpringLayout.md from a release build of the example
## consumer (what Tests/cli/footprint.sh checks on every `make test`).
footprint:
	SPRINGTUNE=$(CURDIR)/$(BIN) FOOTPRINT_WRITE=1 Tests/cli/footprint.sh

## Times the fixed workloads (evernote's pinned 384-set bench grid with charts; a 10,000-set sweep).
bench: build
	$(BIN) bench

## Fuzzes with libFuzzer for FUZZ_SECONDS each: the trace reader, the reader through one sweep
## run of every model, the preset decoder through grid construction, the importers, report
## reading in compare/pick/merge, a preset through its engine, a shard through merge, the
## studio's live samples (LiveReplay) and search's --free values and box. Any input: results or
## one ToolError, never a crash. The
## corpora grow in FUZZ_DIR/<name>; one summary line per harness (executions, crashes).
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= out/fuzz
FUZZ_CONFIG ?= release
FUZZERS := traces sweep preset import report spring merge engine live search
fuzz: setup
	$(SWIFT) build --package-path Fuzz -c $(FUZZ_CONFIG) --sanitize=fuzzer
	Fuzz/run.sh Fuzz/.build/$(FUZZ_CONFIG) $(FUZZ_SECONDS) $(FUZZ_DIR) $(FUZZERS)

## Installs into PREFIX (default /usr/local; DESTDIR is put in front of every path for staging):
##   bin/springtune                                  the release build
##   bin/springtune-studio                           the studio's server, which `springtune studio` starts
##   share/springtune/presets/*.json                 the bundled presets (Presets/)
##   share/springtune/traces/                        the bundled trace sets (Sources/SpringTune/Resources/Traces/)
##   share/springtune/install-manifest               every file and folder this install created
##   share/man/man1/springtune.1                     from the argument parser (swift-argument-parser's generate-manual)
##   share/bash-completion/completions/springtune, share/zsh/site-functions/_springtune,
##   share/fish/vendor_completions.d/springtune.fish (`springtune --generate-completion-script`)
##   share/doc/springtune/NOTICE                     sources and licences of the bundled traces
## The binary finds share/springtune from its own location, so the tree can be moved whole.
## An earlier install in PREFIX is uninstalled first. `install-built` installs the binary as it
## is, without building (make test installs the build it has just tested).
PREFIX ?= /usr/local
DESTDIR ?=
TOOLS_BUILD := .build/tools
MANIFEST := share/springtune/install-manifest
install: build
	@$(MAKE) --no-print-directory install-built
## The man page's generator (swift-argument-parser's generate-manual): built for debug in
## .build/tools, unless GENERATE_MANUAL names one already built (make test builds it with the package).
GENERATE_MANUAL ?=
install-built: SHELL := /bin/bash
install-built:
	@for b in $(BIN) $(STUDIO_BIN); do test -x $$b || { echo "make install: no $$b; run make build first" >&2; exit 66; }; done
	$(if $(GENERATE_MANUAL),,$(SWIFT) build -c debug --scratch-path $(TOOLS_BUILD) --product generate-manual)
	@set -euo pipefail; root='$(DESTDIR)$(PREFIX)'; gen=$$(mktemp -d); trap 'rm -rf "$$gen"' EXIT; \
	date=$$(git log -1 --format=%cs 2>/dev/null || date -u +%F); \
	$(or $(GENERATE_MANUAL),$(TOOLS_BUILD)/debug/generate-manual) $(BIN) --date "$$date" -o "$$gen"; \
	for sh in bash zsh fish; do $(BIN) --generate-completion-script $$sh > "$$gen/completion.$$sh"; done; \
	if [ -f "$$root/$(MANIFEST)" ]; then echo "replacing the install in $$root"; $(MAKE) --no-print-directory uninstall; fi; \
	mkdir -p "$$root"; list="$$gen/manifest"; : > "$$list"; \
	folder() { local p="" part; IFS=/ read -ra parts <<< "$$1"; for part in "$${parts[@]}"; do p=$${p:+$$p/}$$part; \
	  [ -d "$$root/$$p" ] || { mkdir "$$root/$$p"; echo "$$p/" >> "$$list"; }; done; }; \
	put() { folder "$$(dirname "$$3")"; install -m "$$1" "$$2" "$$root/$$3"; echo "$$3" >> "$$list"; }; \
	put 755 $(BIN) bin/springtune; put 755 $(STUDIO_BIN) bin/springtune-studio; \
	for f in Presets/*.json; do put 644 "$$f" "share/springtune/presets/$${f#Presets/}"; done; \
	(cd Sources/SpringTune/Resources/Traces && find . -type f | LC_ALL=C sort) | while read -r f; do \
	  put 644 "Sources/SpringTune/Resources/Traces/$${f#./}" "share/springtune/traces/$${f#./}"; done; \
	put 644 "$$gen/springtune.1" share/man/man1/springtune.1; \
	put 644 "$$gen/completion.bash" share/bash-completion/completions/springtune; \
	put 644 "$$gen/completion.zsh" share/zsh/site-functions/_springtune; \
	put 644 "$$gen/completion.fish" share/fish/vendor_completions.d/springtune.fish; \
	put 644 NOTICE share/doc/springtune/NOTICE; \
	echo "$(MANIFEST)" >> "$$list"; install -m 644 "$$list" "$$root/$(MANIFEST)"; \
	echo "installed $$(grep -vc '/$$' "$$list") files in $$root (list: $$root/$(MANIFEST))"

## Removes exactly what the manifest lists: its files, then the folders the install created,
## deepest first, when they are empty (a folder holding something else is kept and named).
uninstall: SHELL := /bin/bash
uninstall:
	@set -euo pipefail; root='$(DESTDIR)$(PREFIX)'; \
	[ -f "$$root/$(MANIFEST)" ] || { echo "make uninstall: no springtune install in $$root (no $(MANIFEST))" >&2; exit 66; }; \
	mapfile -t entries < "$$root/$(MANIFEST)"; \
	for e in "$${entries[@]}"; do case $$e in */|'') ;; *) rm -f "$$root/$$e";; esac; done; \
	for ((i = $${#entries[@]} - 1; i >= 0; i--)); do e=$${entries[i]}; case $$e in */) \
	  rmdir "$$root/$$e" 2>/dev/null || echo "kept $$root/$$e (not empty)";; esac; done; \
	echo "removed springtune from $$root"

## The engine as a WebAssembly module (Reference §15), from the same source files as the
## native build: Embedded Swift for wasm32-unknown-none-wasm, then the toolchain's wasm-ld (no
## SDK, no libc: the spring's libm functions are imported from the page, module "math"):
## SpringCore's exact spring step (springStepX, springStepV) and every model's engine (startEngine,
## engineAdd, engineFrame, engineDecision, engineGrab; runtime.c is its heap); Tests/page/wasm.test.mjs
## runs it under node against the closed forms, Tests/cli/wasm.sh against `springtune replay`. Prints the size.
WASM_OUT := out/wasm
WASM_CORE := $(addprefix Sources/SpringCore/,SpringParameters.swift SpringStep.swift SpringMotion.swift Simulation.swift \
  Trace.swift VelocityEstimator.swift IntClamping.swift Wasm/WasmMath.swift Wasm/WasmExports.swift)
WASM_LAYOUT := $(addprefix Sources/SpringLayout/,$(addprefix Engine/,TouchEngine.swift Scene.swift FrameRates.swift EngineNumbers.swift \
  Rect.swift RowFrame.swift GrabFade.swift) ScrollView/ScrollView.swift ScrollView/ScrollDriver.swift \
  $(addprefix Models/,FlowLayout.swift FlickDismiss.swift CardDismiss.swift PullToCreate.swift PinchFold.swift PercentTransition.swift BottomSheet.swift) \
  Wasm/WasmEngine.swift)
WASM_RUNTIME := Sources/SpringCore/Wasm/runtime.c
WASM_EXPORTS := springStepX springStepV exchangeArea startEngine engineAdd engineFrame engineDecision engineGrab
WASM_LD = $(dir $(realpath $(shell command -v swiftc)))wasm-ld
WASM_CC = $(dir $(realpath $(shell command -v swiftc)))clang
WASM_SWIFT = swiftc -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -enable-experimental-feature Extern \
  -wmo -Osize -parse-as-library -Xfrontend -disable-stack-protector
## The studio serves the module from its page's assets, compiled into its binary: a copy kept in
## git (the build is byte-for-byte repeatable), which `make wasm` updates when the source changed
## and `make test` (WASM_CHECK=1) checks is current instead of writing it during the build.
WASM_ASSET := Sources/SpringStudio/Page/Assets/engine.wasm
wasm: $(WASM_OUT)/engine.wasm
	@if cmp -s $< $(WASM_ASSET); then :; \
	elif [ -n "$(WASM_CHECK)" ]; then echo "$(WASM_ASSET) is not this source's module: run make wasm and commit it" >&2; exit 1; \
	else install -m 644 $< $(WASM_ASSET) && echo "updated $(WASM_ASSET) (the module the studio serves): commit it"; fi
$(WASM_OUT)/engine.wasm: $(WASM_CORE) $(WASM_LAYOUT) $(WASM_RUNTIME)
	@mkdir -p $(WASM_OUT)
	$(WASM_SWIFT) -module-name SpringCore $(WASM_CORE) -emit-module -emit-module-path $(WASM_OUT)/SpringCore.swiftmodule -c -o $(WASM_OUT)/core.o
	$(WASM_SWIFT) -module-name SpringLayout -I $(WASM_OUT) $(WASM_LAYOUT) -c -o $(WASM_OUT)/layout.o
	$(WASM_CC) --target=wasm32-unknown-unknown -O2 -mbulk-memory -nostdlib -ffreestanding -c $(WASM_RUNTIME) -o $(WASM_OUT)/runtime.o
	$(WASM_LD) --no-entry --allow-undefined --strip-all $(addprefix --export=,$(WASM_EXPORTS)) $(WASM_OUT)/core.o $(WASM_OUT)/layout.o $(WASM_OUT)/runtime.o -o $@.tmp
	mv $@.tmp $@
	@echo "$@: $$(wc -c < $@) bytes"

## The API documentation: one static DocC site of the app-facing modules, SpringLayout and
## SpringCore (the plugin's combined documentation: links between them are written
## ``/SpringCore/Symbol``), in docs/api/, from the doc comments and the catalog
## Sources/SpringLayout/SpringLayout.docc. Generated, so not committed (.gitignore). Any DocC
## warning (a broken ``link``, an unknown parameter) fails it. The `Tool` trait is off: only the
## two modules are built. View: python3 -m http.server -d docs/api, then
## http://localhost:8000/documentation/springlayout/.
DOCS_OUT := docs/api
## DocC's own build folder, so that it can run beside the package's build (make test).
DOCS_BUILD := .build/docs
docs: SHELL := /bin/bash
docs:
	@set -o pipefail; rm -rf $(DOCS_OUT); log=$$(mktemp); \
	$(SWIFT) package --scratch-path $(DOCS_BUILD) --disable-default-traits --allow-writing-to-directory $(DOCS_OUT) generate-documentation \
	  --target SpringCore --target SpringLayout --enable-experimental-combined-documentation \
	  --transform-for-static-hosting --output-path $(DOCS_OUT) --warnings-as-errors 2>&1 | tee $$log; \
	rc=$$?; if [ $$rc != 0 ] || grep -q 'warning:' $$log; then rm -f $$log; echo "make docs: DocC failed or warned" >&2; exit 1; fi; \
	rm -f $$log; echo "API documentation in $(DOCS_OUT)/documentation/ (springlayout/, springcore/)"

clean:
	rm -rf .build out $(VENV) Examples/PresetConsumer/.build Fuzz/.build
