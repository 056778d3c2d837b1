# Enrollflow: the README's two commands are `make demo` and `make test`.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
DEMO_LISTEN ?= 127.0.0.1:8080
DEMO_SECOND_LISTEN ?= 127.0.0.1:8081
# The demo shows plan years 2024 and 2025: pretend today is in the 2025 open enrollment.
DEMO_TODAY ?= 2024-11-20
# Demo quotes and submissions shared by the demo agents (loaded once: later runs add none).
DEMO_APPLICATIONS ?= 4000

.PHONY: demo demo-instance mail code api-types test check lint fmt web-deps web-build test-rust test-rules test-web test-e2e test-with-db chromium clean-test-dbs bench bench-instructions bench-http bench-steps bench-drafts bench-dashboard bench-typeahead bench-feel

## make demo: install, build, get a database, migrate, load demo data, serve on :8080. The demo
## serves the build the tests use (the dev profile, its rule-engine dependencies optimized): a
## release build took 18 of the demo's 19 minutes, and `make test` after it built the server again.
demo: web-build .demo/env
	cargo build --bin enrollflow
	set -a && . .demo/env && set +a && ENROLLFLOW_TODAY=$${ENROLLFLOW_TODAY:-$(DEMO_TODAY)} \
	scripts/with-db.sh bash -c '$(TARGET_DIR)/debug/enrollflow seed --demo --file demo/agents.json && \
	  $(TARGET_DIR)/debug/enrollflow seed-demo-data --applications $(DEMO_APPLICATIONS) && \
	  python3 tools/coverage-demo/generate.py $(TARGET_DIR)/coverage-demo && \
	  $(TARGET_DIR)/debug/enrollflow import-coverage $(TARGET_DIR)/coverage-demo && \
	  echo "Enrollflow: http://acme.localhost:8080/ (also lakeshore, northstar, demo); today is $$ENROLLFLOW_TODAY" && \
	  exec $(TARGET_DIR)/debug/enrollflow serve --listen $(DEMO_LISTEN) --rules-from-database'

## make demo-instance: a second instance on :8081 beside a running `make demo` (same database and
## rules): a set published or rolled back in the workbench serves on both
demo-instance: .demo/env
	set -a && . .demo/env && set +a && ENROLLFLOW_TODAY=$${ENROLLFLOW_TODAY:-$(DEMO_TODAY)} \
	scripts/with-db.sh $(TARGET_DIR)/debug/enrollflow serve --listen $(DEMO_SECOND_LISTEN) --rules-from-database

## make mail: the demo's outbox, whole (links included), as its operator reads it
mail: .demo/env
	set -a && . .demo/env && set +a && scripts/with-db.sh $(TARGET_DIR)/debug/enrollflow mail --last 5

## make code: the demo admins' current two-step verification code (their published secret)
code:
	$(TARGET_DIR)/debug/enrollflow demo-code

# Secrets of the local demo (git-ignored): the key encrypting SSNs and the operators' token.
.demo/env:
	mkdir -p .demo
	printf 'ENROLLFLOW_DATA_KEY=%s\nENROLLFLOW_ADMIN_TOKEN=%s\n' "$$(head -c32 /dev/urandom | base64)" "$$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')" > $@
	chmod 600 $@

## make test: every test (formatting and lints, Rust, web units, browser tests with the PII scan,
## the short fault suite)
test: check web-deps chromium
	scripts/with-db.sh $(MAKE) --no-print-directory test-with-db
	$(MAKE) --no-print-directory test-faults

# The databases the last run's server tests left are dropped while the tests build: each drop
# forces a checkpoint, quick while nothing else writes, and 200 of them took 40 to 90 s on their own.
test-with-db:
	@$(MAKE) --no-print-directory clean-test-dbs & cleaning=$$!; \
	  cargo test --workspace --no-run; built=$$?; \
	  wait $$cleaning; cleaned=$$?; \
	  [ $$built -eq 0 ] && [ $$cleaned -eq 0 ]
	$(MAKE) --no-print-directory test-rust test-rules test-web test-e2e

# The Compose layout is linted without Docker (tools/compose); where a compose plugin is present,
# `docker compose config` checks it too (with placeholder secrets: only the file is read).
check:
	cargo fmt --all --check
	cargo run -q -p enrollflow-layers -- server/src
	cargo run -q -p enrollflow-layers -- --circles-only engine/src
	cargo run -q -p enrollflow-layers -- --circles-only engine-tools/src
	# The analysts' binary links no database, web server or async runtime.
	! cargo tree -p enrollflow-engine-tools -e normal --prefix none | grep -E '^(sqlx|axum|tower|tokio|hyper) '
	python3 tools/literals/check.py
	python3 -m unittest tools/literals/test_check.py
	python3 tools/docs/check.py
	python3 -m unittest tools/docs/test_check.py
	python3 tools/compose/check.py
	python3 -m unittest tools/compose/test_check.py
	if docker compose version >/dev/null 2>&1; then \
	  ENROLLFLOW_DATA_KEY=check ENROLLFLOW_ADMIN_TOKEN=check docker compose -f deploy/compose.yaml config -q; \
	fi
	cargo clippy --workspace --all-targets -- -D warnings

lint: check
	cd web && npm run typecheck && npm run lint

fmt:
	cargo fmt --all

# The document-store tests need an S3-compatible server: scripts/with-s3.sh starts one.
test-rust:
	scripts/with-s3.sh cargo test --workspace

# The analysts' and testers' commands, as they run them: with their own binary (enrollflow-rules,
# no database or web server linked), and the same commands through the server's.
test-rules:
	cargo build --bin enrollflow-rules --bin enrollflow
	$(TARGET_DIR)/debug/enrollflow-rules check .
	$(TARGET_DIR)/debug/enrollflow-rules scenarios tests/scenarios
	$(TARGET_DIR)/debug/enrollflow-rules coverage tests/scenarios --html $(TARGET_DIR)/rule-coverage.html
	# The renewal scenarios' premiums, recomputed from the catalog apart from the engine.
	python3 -m unittest tools/renewals/test_recompute.py
	for bin in enrollflow-rules enrollflow; do \
	  python3 tools/scenarios/test_cli.py $(TARGET_DIR)/debug/$$bin && \
	  python3 tools/i18n/test_cli.py $(TARGET_DIR)/debug/$$bin || exit 1; \
	done

test-web: web-deps
	cd web && npm run typecheck && npm run lint && npm run i18n:check && npm test && npm run budget

test-e2e: web-build
	cargo build --bin enrollflow
	scripts/e2e.sh
	scripts/files-only-e2e.sh

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web-deps: web/node_modules/.package-lock.json

web-build: web-deps
	cd web && npm run build

chromium:
	@scripts/ensure-chromium.sh

# Server tests create one database each (enrollflow_test_*); drop what earlier runs left.
clean-test-dbs:
	@psql "$${DATABASE_URL%/*}/postgres" -Atqc "select datname from pg_database where datname like 'enrollflow_test_%'" \
	  | while read -r d; do psql "$${DATABASE_URL%/*}/postgres" -qc "drop database if exists \"$$d\" with (force)"; done

## make bench: engine micro-benchmarks (release build): step views, every step's submission, the
## quote and the scenario suites, printed beside their targets; fails when one is missed
bench:
	cargo bench -p enrollflow-engine-tools --bench engine
	python3 tools/bench/engine_targets.py $(TARGET_DIR)/criterion

## make bench-instructions: the same benchmarks as instructions per call (callgrind; valgrind
## needed): a count that does not drift with the machine's load, to compare two versions
bench-instructions:
	tools/bench/instructions.sh

## make bench-http: step view, quote and step submit throughput as ratios to /bench/hello and a
## primary-key read (wrk, release build, loopback)
bench-http:
	scripts/with-db.sh tests/load/ratios.sh

## make bench-drafts: consumers' step saves (p95) idle and while analysts' looping drafts are
## evaluated; fails when a save's p95 loaded is more than 20 % over idle (release build, loopback)
bench-drafts:
	scripts/with-db.sh tests/load/drafts.sh

## make bench-steps: p50/p95 of every step call over whole consumer journeys (release build, loopback);
## fails when a call's p95 is over 20 ms
bench-steps:
	scripts/with-db.sh tests/load/step-latency.sh

## make bench-dashboard: dashboard lists (p50/p95) and the 12-month export on 125,000 applications (APPLICATIONS=1000000 for an agency's scale; release build)
bench-dashboard:
	scripts/with-db.sh tests/load/dashboard.sh

## make bench-typeahead: the doctors-and-drugs typeahead (p50/p95) with the demo provider and formulary files loaded (release build)
bench-typeahead:
	scripts/with-db.sh tests/load/typeahead.sh

## make bench-feel: what the person feels in Chromium slowed to a phone on Fast 3G (landing LCP, a
## keystroke on About You with 15 dependents, drawing 38 and 60 plan cards); a measurement, fails nothing
bench-feel: web-build
	cargo build --bin enrollflow
	E2E_FEEL=1 E2E_PORT=18185 E2E_DB=enrollflow_feel scripts/with-db.sh scripts/e2e.sh --project=feel

.PHONY: faults test-faults

## make faults: kill -9 of the server in saves and purchases (20 cycles), PostgreSQL stopped 20 s under load, a full upload disk (private PostgreSQL cluster; debug build)
faults:
	cargo build --bin enrollflow
	python3 tests/faults/faults.py --bin $(TARGET_DIR)/debug/enrollflow --cycles 20 --outage 20

## make test-faults: the same with 3 kill cycles and a 7 s outage (under a minute)
test-faults:
	cargo build --bin enrollflow
	python3 tests/faults/faults.py --bin $(TARGET_DIR)/debug/enrollflow --cycles 3 --outage 7

.PHONY: fuzz

## make fuzz: every cargo-fuzz target of fuzz/ for FUZZ_SECONDS each (default 600); fails on a crash
fuzz:
	scripts/fuzz.sh $(or $(FUZZ_SECONDS),600)

.PHONY: soak two-instances schemathesis

## make soak: 500 shopper journeys over 10 minutes with agents paging and exporting (release build)
soak:
	scripts/with-db.sh tests/load/soak.sh

## make two-instances: two instances on one database behind nginx (sessions, rule edits, throughput)
two-instances:
	scripts/with-db.sh tests/load/two-instances.sh

## make schemathesis: Schemathesis over /api/openapi.json as a consumer, an agent and an admin
## (SCHEMATHESIS_SECONDS per role, default 300)
schemathesis:
	scripts/with-db.sh tests/security/schemathesis.sh $(or $(SCHEMATHESIS_SECONDS),300)

## make api-types: the web app's copy of the OpenAPI document and the types generated from it
api-types: web-deps
	cargo build --bin enrollflow
	$(TARGET_DIR)/debug/enrollflow openapi > web/openapi.json
	cd web && npm run api-types
