# Two entry points for a fresh machine (README.md): `make suite` and `make test`.
# Each installs the system libraries first when they are missing.

.PHONY: setup-check example docc format format-check layers routes-check links provenance tracking-wildcards mutants differential-mutants mutant-findings setup build suite suite-live suite-live-server suite-shim suite-shim-live suite-v2 port-python port-python-v2 clients v2-reference-client rest-v2-contract rest-v2-schemathesis rest-v2-docs rest-v2-hostile lint-cards test release docs docs-check bench fuzz-smoke clean

# On Linux the missing apt packages; on macOS a check of Xcode's toolchain, naming what to install
# (scripts/setup.sh). Xcode's SDK has libxml2 with no pkg-config file: setup writes one, put here on
# PKG_CONFIG_PATH for SwiftPM.
ifeq ($(shell uname -s),Darwin)
export PKG_CONFIG_PATH := $(CURDIR)/.build-setup/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
endif

setup:
	@scripts/setup.sh

# setup.sh's own tests: both systems' branches, on stubs (any system).
setup-check:
	python3 -m unittest discover -s scripts -p 'test_setup.py'

build: setup
	swift build

# Where the targets find passim and the fuzz replayers. CI's later lanes give a copy of them
# (`make -o build TARGET BIN=…`, .ci/run): the mutation lane rebuilds .build meanwhile.
BIN ?= .build/debug
PASSIM ?= $(BIN)/passim
# The suite on each runtime, wire and port is one row of scripts/suite-matrix.sh's table (`--list`);
# each target below runs its rows.
MATRIX = scripts/suite-matrix.sh --passim $(PASSIM)

# The conformance suite with a summary; --repeat 2 proves every transcript identical across runs.
suite: build
	$(MATRIX) suite

# The same suite over real HTTP: each scenario gets its own mock server on loopback (docs/RUNNING.md, "Live mode").
suite-live: build
	$(MATRIX) suite-live

# The same over a running `passim serve`, each scenario's world loaded through its admin endpoint
# (four servers, each running a shard of the suite).
suite-live-server: build
	$(MATRIX) suite-live-server

# The same suite with the engine over REST API v2 (docs/MIGRATION.md): every difference from the SDK's
# wire is a line of Scenarios/wire-v2.expect with its reason; any other fails. Simulated, through the
# port protocol (`passim shim`), and over live HTTP.
suite-v2: build
	$(MATRIX) suite-v2

# The same suite through the port driver protocol (docs/PORTING.md), with passim's engine as the port.
suite-shim: build
	$(MATRIX) suite-shim

# The same through the protocol's live network: the shim sends its own requests (libcurl) to a mock
# server per scenario, then to running `passim serve`s.
suite-shim-live: build
	$(MATRIX) suite-shim-live

# The small independent Python port (Fixtures/ports/python): its own tests, then the suite against
# it with its expectations file (what it does not implement is listed there, with reasons).
port-python: build
	python3 -m unittest discover -s Fixtures/ports/python
	$(MATRIX) port-python
	$(MAKE) port-python-v2

# The Python port on REST API v2: the v2 suite with the reference's own expectations file, so the
# port differs from the SDK wire exactly where passim's engine does; on both networks.
port-python-v2: build
	$(MATRIX) port-python-v2

# Real clients (yt-dlp's Adobe Pass flow, pinned releases from PyPI) against `passim serve`
# (docs/CLIENTS.md); needs python3 with venv and pip, and PyPI on first use.
clients: build
	python3 -m unittest discover -s Fixtures/clients -p 'test_*.py'
	scripts/clients.sh $(PASSIM)
	scripts/saml-clients.sh $(PASSIM)

# The reference REST API v2 client (Examples/restv2-client, docs/V2-CLIENTS.md) through the proxy against
# `passim serve --lint`, once per MVPD (SAML, OAuth2 with PKCE), the second screen logged in by `passim
# login`: its own tests, then each journal must break no lint rule. Installs requests (pinned) in
# .venv-v2client on first use.
v2-reference-client: build
	scripts/v2-reference-client.sh $(PASSIM)

# REST API v2 and DCR validated against Adobe's OpenAPI contract by openapi-core (pinned in
# Fixtures/clients/restv2/requirements.txt). Adobe's files stay outside the repository:
# ../shared/reference/adobe-rest-v2/ or $$PASSIM_ADOBE_OPENAPI_DIR; without them it fails, saying so.
rest-v2-contract: build
	scripts/restv2-contract.sh $(PASSIM)

# Schemathesis (pinned) generates requests from Adobe's two contracts against passim serve: no 5xx,
# every status, content type and body as the (relaxed, docs/WIRE.md) contract declares.
rest-v2-schemathesis: build
	scripts/restv2-schemathesis.sh $(PASSIM)

# Adobe's own REST API v2 and DCR samples (every request/response pair of the API pages of AdobeDocs/pass.en)
# replayed against passim serve, each answer compared with its documented response; differences are excused
# only by the rows of docs/WIRE.md, "Where Adobe's pages disagree with themselves" (docs/REST-V2-DOCS.md, which
# `scripts/restv2-docs.sh PASSIM --write` regenerates). The tool's own tests first. Adobe's pages stay outside
# the repository: $$PASSIM_ADOBE_DOCS_DIR, else shared/reference/adobe-pass-en beside the clone; without them NOT RUN.
rest-v2-docs: build
	python3 -m unittest discover -s scripts -p 'test_restv2_docs.py'
	scripts/restv2-docs.sh $(PASSIM)

# The same samples made hostile (docs/REST-V2-DOCS.md, "Bad input"): every documented success replayed with
# one header the API reads or one body or query field made wrong at a time; each answer must be a refusal
# with an enhanced error code and its WIRE.md status (or a success the tool's allow-list explains), the
# server must keep serving and a refusal must store nothing. The tool's own tests first; NOT RUN without the pages.
rest-v2-hostile: build
	python3 -m unittest discover -s scripts -p 'test_restv2_docs.py'
	scripts/restv2-docs.sh $(PASSIM) --hostile

# Report cards of the real clients (docs/LINT.md): each client against `passim serve --lint`;
# fails when a committed card in docs/clients/ is stale (`scripts/lint-cards.sh PASSIM` rewrites them).
lint-cards: build
	scripts/lint-cards.sh $(PASSIM) --check

# swift test, quiet: failures and summaries, no line per passing test (scripts/test.sh).
# TEST_BUNDLE=FILE runs that built copy of the test bundle instead, without SwiftPM (CI, .ci/run).
test: setup
	scripts/test.sh $(if $(TEST_BUNDLE),--bundle $(TEST_BUNDLE))

# The mutation check: every patch of Tests/Mutants/ (a realistic engine, mock or lint bug) must fail the suite on one wire or the other.
mutants: build
	scripts/mutants.sh .build

# The differential fuzzer against ten injected bugs: each must be found within 60 s and shrunk to a
# scenario of at most 15 steps that passes on the reference and fails on the bugged build.
differential-mutants: build
	scripts/differential-mutants.sh .build

# How long the differential fuzzer takes to find each mutation patch (the engine's through
# --against, the mock's through --compare mock), 30 s each at most: BENCHMARKS.md's table. CPU heavy
# (a build per patch, in .build-mutant, under nice); six workers, as the table was measured (a mock
# comparison mostly waits on latencies).
mutant-findings:
	scripts/mutant-findings.sh -j 6 .build-mutant

# The code's layout is swift format's (the toolchain's own), with the committed .swift-format:
# `make format` rewrites the tree, `make format-check` (CI) fails on any file it would change.
# Examples/ is left as written: its code is DocC's, word for word (scripts/check-doc-snippets.py).
format:
	swift format format --in-place --recursive --parallel Sources Tests Package.swift

format-check:
	swift format lint --strict --recursive --parallel Sources Tests Package.swift

# ARCHITECTURE.md's import rules, read off every module's import lines (and the check's own tests).
layers:
	python3 -m unittest discover -s scripts -p 'test_check_layers.py'
	python3 scripts/check-layers.py

# Every wire path is spelled once, in PassModel's route files (Route, V2Route, ServiceRoute, AdminRoute);
# a path literal anywhere else in Sources fails (scripts/check-routes.py, and the check's own tests).
routes-check:
	python3 -m unittest discover -s scripts -p 'test_check_routes.py'
	python3 scripts/check-routes.py

# The repository stands on its own: every relative link of its documents resolves inside it, and
# nothing points outside it (scripts/check-links.py, and the check's own tests).
links:
	python3 -m unittest discover -s scripts -p 'test_check_links.py'
	python3 scripts/check-links.py

# Every scenario's first comment cites its clause of docs/spec/BEHAVIOR.md, every choice of
# docs/CONFORMANCE.md its passage of Adobe's pages or "seeds silent" (and the check's own tests).
provenance:
	python3 -m unittest discover -s scripts -p 'test_check_provenance.py'
	python3 scripts/check-provenance.py

# Every `_` in a scenario's tracking array says why in a comment, and every
# `md5("SESSION") = HEX` a scenario writes is recomputed (and the check's own tests).
tracking-wildcards:
	python3 -m unittest discover -s scripts -p 'test_check_tracking_wildcards.py'
	python3 scripts/check-tracking-wildcards.py

release: setup
	swift build -c release

# The callback-order pages (docs/callbacks/) and the migration pages (docs/migration/: each SDK call and
# cookbook flow on the SDK's wire and on REST API v2's), generated from the scenarios, their sequence
# diagrams as SVG files beside them (diagrams/); commit the result.
docs: build
	$(PASSIM) doc Scenarios --out docs/callbacks --migration-out docs/migration --expect Scenarios/wire-v2.expect

# CI: the committed pages must be exactly what the scenarios generate now.
docs-check: build
	@tmp=$$(mktemp -d); \
	if ! $(PASSIM) doc Scenarios --out "$$tmp/callbacks" --migration-out "$$tmp/migration" \
	  --expect Scenarios/wire-v2.expect >/dev/null; then rm -rf "$$tmp"; exit 1; fi; \
	for d in callbacks migration; do \
	  if ! diff -r docs/$$d "$$tmp/$$d"; then \
	    echo "docs/$$d is stale: run 'make docs' and commit the result"; rm -rf "$$tmp"; exit 1; fi; done; \
	rm -rf "$$tmp"; echo "docs/callbacks and docs/migration are up to date"
	@if grep -q '\*\*none\*\*' docs/callbacks/seed-elements.md; then \
	  grep '\*\*none\*\*' docs/callbacks/seed-elements.md; \
	  echo "seed elements above have no scenario (docs/callbacks/seed-elements.md)"; exit 1; fi; \
	echo "every seed element has a scenario"

# Chromium from the distribution's packages, for report-check (Linux; elsewhere it says so and skips).
.PHONY: browser-setup report-check
browser-setup:
	@scripts/setup.sh --browser

# The pages people look at, in headless Chromium: a run's HTML report with a failure, the SVG sequence
# diagrams of `passim doc` and a lint report card load with no console error and no request leaving the
# page, and show their elements (scripts/report-check.sh; Playwright pinned in Fixtures/reports/,
# installed in .venv-browser on first use). Linux only, as browser-setup.
report-check: build browser-setup
	@if [ "$$(uname -s)" != Linux ]; then echo "report-check: Linux only (needs browser-setup's Chromium); skipped"; exit 0; fi; \
	scripts/report-check.sh $(PASSIM)

# The fuzzing checks CI runs: the libFuzzer targets' seed corpora replayed through their entry
# points, and a short state-machine fuzz (docs/FUZZING.md).
fuzz-smoke: build
	$(BIN)/FuzzScenarioParser Scenarios
	$(BIN)/FuzzPassXML Fixtures/xml Fixtures/hostile/xml/saml
	$(BIN)/FuzzMockRequest Fixtures/requests
	$(PASSIM) fuzz --runs 300 --jobs 2 --seed 2026 --out .build/fuzz-failures

# The example port package (Examples/SwiftPortTests): the suite in process, from `swift test`, as a
# port team runs it with one dependency line. It builds in the repository's .build: passim and the
# packages under it are compiled there already, with the same flags, so only the example's own targets
# are (some 30 CPU-seconds, where a .build of its own compiles everything again: some 500); the next
# `swift build` of passim relinks. EXAMPLE_SCRATCH=Examples/SwiftPortTests/.build builds it apart.
EXAMPLE_SCRATCH ?= .build
example: setup
	python3 scripts/check-doc-snippets.py
	cd Examples/SwiftPortTests && swift test --scratch-path $(abspath $(EXAMPLE_SCRATCH))

# The documentation of the three library products, warnings as errors (swift-docc-plugin): Passim
# with its catalog (Sources/Passim/Passim.docc: the guides), PassimConformance and PassimMock from
# their symbols' comments. Archives in .build/plugins/Swift-DocC/outputs/.
docc: setup
	swift package generate-documentation --target Passim --target PassimConformance --target PassimMock --warnings-as-errors

# Suite throughput in a release build (BENCHMARKS.md).
bench: setup
	scripts/bench-suite.sh

clean:
	rm -rf .build
