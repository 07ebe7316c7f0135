# leaselab — entry points. Each one installs what it needs first (tools/setup.sh), so they work on a
# fresh machine. The README's two commands are `make run` and `make test`.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
PORT ?= 8000
FUZZ_SECONDS ?= 15
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: run test dist package bench fuzz test-rust test-wasm test-unit test-e2e test-engines size size-services service-names conformance test-recipes

## make run — build the lab and serve it on http://127.0.0.1:$(PORT)/ (loopback only)
run: dist
	node tools/serve.mjs --dir dist --port $(PORT)

## make dist — build the static site into dist/ (index.html at its root)
dist:
	bash tools/setup.sh web
	bash tools/build-web.sh

## make package — leaselab-VERSION.tgz: the static build as an npm package (tools/package.mjs), to
## `npm install ./leaselab-VERSION.tgz` and serve from node_modules/leaselab/ or any path.
package: dist
	node tools/package.mjs

## make test — every test: Rust (unit, scenario, property, golden, CLI, allocation), wasm in headless
## Chromium, the page's modules under plain Node, browser end-to-end, size budgets, and the smoke suite in
## Chromium, Firefox ESR and WebKitGTK (test-engines). Non-zero on any failure.
test:
	bash tools/setup.sh test
	$(MAKE) --no-print-directory test-rust
	bash tools/build-web.sh
	$(MAKE) --no-print-directory size test-unit test-wasm test-e2e test-engines

test-rust:
	cargo test --release --workspace
	# Every test once more with debug assertions and overflow checks on (the `checked` profile in
	# Cargo.toml: optimised, no LTO), so the engine's own checks (the event table's carriage, the
	# queue's order, time never going back) run over the whole catalogue, the goldens and the property
	# tests, not only the unit tests: a release build leaves them out.
	cargo test --profile checked --workspace
	# The plain engine exists only in the build for speed (explore's; crate/macros): against the other.
	cargo test --release -p leaselab --features speed --test plain_engine --test sweep_exact
	# Lints, and the 80-line limit on functions (clippy.toml), over the library and the CLI.
	cargo clippy --release -p leaselab -p leaselab-model -p leaselab-macros --lib --bins -- -D warnings
	# And the build for speed, where the engine is generic over its mode (crate/macros).
	cargo clippy --release -p leaselab --all-targets --features speed,estimate -- -D warnings
	# The same over the tests, examples and benches: test code is read as often, and keeps the same rules.
	cargo clippy --release -p leaselab -p leaselab-model -p leaselab-macros --all-targets -- -D warnings
	# The page's core engine (no Redlock, etcd or ZooKeeper: crate/src/services/mod.rs) builds clean too.
	cargo clippy --release -p leaselab --lib --no-default-features -- -D warnings
	# And the conformance suite, under the same 80-line rule.
	cargo clippy --release -p leaselab-conformance --bins -- -D warnings
	$(MAKE) --no-print-directory fuzz

## make fuzz — mutated and random scenario files through the parser, checker, engine and sweep for a
## bounded time (FUZZ_SECONDS, default 15); a panic or a slow case prints its seed and exits 1. Built with
## the `checked` profile: an arithmetic overflow or a broken debug assertion is a panic too (about 10 %
## fewer cases in the time than a release build).
fuzz:
	cargo run --profile checked --example fuzz_scenarios -- --seconds $(FUZZ_SECONDS)

test-wasm:
	wasm-pack test --headless --chrome crate --release --test web --features estimate,user-scenario,speed

# The page's pure modules (the diagram's layout, …) under plain Node: no browser. Needs www/pkg (build-web).
test-unit:
	node --test www/tests/unit/

# The browser tests: the files directly in www/tests/ (www/tests/unit/ is test-unit's).
test-e2e:
	node --test --test-concurrency=1 www/tests/*.test.mjs

## make test-engines — the smoke suite in Chromium, Firefox ESR and WebKitGTK (www/tests/engines/): the
## seed's verdicts, the docs example, explore, a lesson and a host page on another origin (its search in
## workers, a scenario of its own) in each, the same numbers in all three. Needs dist/.
test-engines:
	bash tools/setup.sh test
	node --test --test-concurrency=1 www/tests/engines/

size:
	bash tools/size-check.sh

## make size-services — what each lock service costs the full wasm, gzipped (a build per service)
size-services:
	bash tools/setup.sh web
	bash tools/service-sizes.sh

## make service-names — issue 37's measure: lines naming each lock service outside its own files (want at most 6)
service-names:
	python3 tools/service-names.py

## make bench — benchmarks that print figures (not pass/fail): native core, sweep, search, the safety table, page; then the page as
## a reader's browser loads it (page_kib, phone_verdict_ms, phone_docs_verdict_ms, phone_fences_verdict_ms: www/tests/phone-bench.mjs)
bench:
	bash tools/setup.sh bench
	cargo run --release --quiet --example sweep_timing
	bash tools/instructions.sh
	cargo run --release --quiet --example search_timing
	cargo run --release --quiet --example matrix_timing
	cargo bench --bench run -- --warm-up-time 1 --measurement-time 3
	bash tools/build-web.sh
	bash tools/size-check.sh
	node www/tests/bench.mjs
	node www/tests/phone-bench.mjs

## make test-recipes — each docs/recipes/TOOL.md proven in its real tool: the tool installed from its
## registry at a pinned version, a site built from the page's own code blocks with the package tarball,
## served on loopback and checked in Chromium (verdicts, the tool's navigation, its dark switch;
## screenshots in test-results/recipes/; a ```leaselab fence's lab against `leaselab run`). Two at a time; one line per recipe (tools/recipes/run.mjs, which
## packs dist/ as `make package` does). RECIPES="hugo mdbook" runs only those.
test-recipes:
	bash tools/setup.sh test
	# .ci/run has just built dist/ in make test: DIST_BUILT=1 skips building it again there.
	[ -n "$(DIST_BUILT)" ] || bash tools/build-web.sh
	# A fence's lab must show what the native CLI says for the fence's text (tools/recipes/cli-verdict.mjs).
	cargo build --release -p leaselab --quiet
	node tools/recipes/run.mjs $(RECIPES)

## make conformance — the simulator against the real thing: the seed's steps and the core scenarios run on
## a throwaway PostgreSQL cluster and redis-servers (installed if missing, started and removed by the
## suite), compared row by row with leaselab's predictions. Non-zero on any disagreement.
conformance:
	bash conformance/setup.sh
	cargo build --release --quiet -p leaselab-conformance
	bash conformance/run.sh "$${CARGO_TARGET_DIR:-target}/release/leaselab-conformance"
