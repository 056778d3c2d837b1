# Enrollflow: the README's two commands are `make demo` and `make test`.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
DEMO_LISTEN ?= 127.0.0.1:8080
# The demo shows plan years 2024 and 2025: pretend today is in the 2025 open enrollment.
DEMO_TODAY ?= 2024-11-20

.PHONY: demo test check lint fmt web-deps web-build test-rust test-rules test-web test-e2e test-with-db chromium clean-test-dbs bench bench-http bench-steps

## make demo: install, build, get a database, migrate, load demo data, serve on :8080
demo: web-build .demo/env
	cargo build --release --bin enrollflow
	set -a && . .demo/env && set +a && ENROLLFLOW_TODAY=$${ENROLLFLOW_TODAY:-$(DEMO_TODAY)} \
	scripts/with-db.sh bash -c '$(TARGET_DIR)/release/enrollflow seed --file demo/agents.json && \
	  echo "Enrollflow: http://acme.localhost:8080/ (also lakeshore, northstar, demo); today is $$ENROLLFLOW_TODAY" && \
	  exec $(TARGET_DIR)/release/enrollflow serve --listen $(DEMO_LISTEN)'

# Secrets of the local demo (git-ignored): the key encrypting SSNs and the operators' token.
.demo/env:
	mkdir -p .demo
	printf 'ENROLLFLOW_DATA_KEY=%s\nENROLLFLOW_ADMIN_TOKEN=%s\n' "$$(head -c32 /dev/urandom | base64)" "$$(head -c16 /dev/urandom | od -An -tx1 | tr -d ' \n')" > $@
	chmod 600 $@

## make test: every test (formatting and lints, Rust, web units, browser tests)
test: check web-deps chromium
	scripts/with-db.sh $(MAKE) --no-print-directory test-with-db

test-with-db: clean-test-dbs test-rust test-rules test-web test-e2e

check:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

lint: check
	cd web && npm run typecheck && npm run lint

fmt:
	cargo fmt --all

test-rust:
	cargo test --workspace

# The analysts' and testers' commands, as they run them.
test-rules:
	cargo build --bin enrollflow
	$(TARGET_DIR)/debug/enrollflow check .
	$(TARGET_DIR)/debug/enrollflow scenarios tests/scenarios

test-web: web-deps
	cd web && npm run typecheck && npm run lint && npm test

test-e2e: web-build
	cargo build --bin enrollflow
	scripts/e2e.sh

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

## make bench: engine micro-benchmarks (release build)
bench:
	cargo bench -p enrollflow-engine --bench engine

## make bench-http: quoting throughput under wrk against /healthz (release build, loopback)
bench-http:
	scripts/with-db.sh tests/load/quote-throughput.sh

## make bench-steps: p50/p95 of every step call over whole consumer journeys (release build, loopback)
bench-steps:
	scripts/with-db.sh tests/load/step-latency.sh
