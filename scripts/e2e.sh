#!/usr/bin/env bash
# Browser tests: a fresh seeded database, the server on $E2E_PORT serving web/dist, then Playwright
# (Debian's Chromium). Expects DATABASE_URL (run it through scripts/with-db.sh) and a built server
# (target/debug/enrollflow) and web app (web/dist).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?run through scripts/with-db.sh}"
export E2E_PORT=${E2E_PORT:-18080}
bin=${ENROLLFLOW_BIN:-${CARGO_TARGET_DIR:-target}/debug/enrollflow}
bin=$(realpath "$bin")
# The browser tests read the mail as the operator does (`enrollflow mail`).
export ENROLLFLOW_BIN=$bin

# The key first: the seed gives the demo admin the published demo authenticator secret with it.
export ENROLLFLOW_DATA_KEY=${ENROLLFLOW_DATA_KEY:-$(head -c32 /dev/urandom | base64)}
# E2E_AGENTS: further agents files to seed (scripts/files-only-e2e.sh); E2E_ROOT: the folder of the
# rules, forms and templates to serve (default: the repository's).
# shellcheck disable=SC2086
DATABASE_URL=$(scripts/seeded-db.sh "${E2E_DB:-enrollflow_e2e}" "$bin" ${E2E_AGENTS:-})
export DATABASE_URL
# The doctors and drugs: demo provider and formulary files in the CMS format (a fifth of the
# demo's providers, every drug), made once and loaded.
coverage_demo=${CARGO_TARGET_DIR:-target}/coverage-demo-e2e
[ -f "$coverage_demo/15560-blue-cross/cms-data-index.json" ] ||
  python3 tools/coverage-demo/generate.py "$coverage_demo" --providers 6000 >/dev/null
ENROLLFLOW_LOG=warn "$bin" import-coverage "$coverage_demo" >/dev/null
export ENROLLFLOW_TODAY=${ENROLLFLOW_TODAY:-2024-11-20}
export ENROLLFLOW_PLAYGROUND=${ENROLLFLOW_PLAYGROUND:-true}
# As in production and `make demo`: the rule sets published in the database (the folder's first).
export ENROLLFLOW_RULES_FROM_DATABASE=${ENROLLFLOW_RULES_FROM_DATABASE:-true}
export ENROLLFLOW_ROOT=${E2E_ROOT:-.}
documents=$(mktemp -d)
export ENROLLFLOW_DOCUMENTS_DIR=$documents
log=$(mktemp)
# The server's clock moves forward by the seconds the browser tests write here (a scheduled rule set
# is seen taking effect without waiting for it).
ENROLLFLOW_CLOCK_SHIFT_FILE=$(mktemp)
export ENROLLFLOW_CLOCK_SHIFT_FILE
# The URLs and error answers the browser saw, for the PII scan (web/e2e/fixtures.ts).
export E2E_PII_DIR=$(mktemp -d)
# Info level: every request is logged, so the PII scan reads what production would log.
# The debug build walks an impact's thousand made-up households under two sets in about a minute
# on two cores (a release build in seconds): the impact's request and budget get that long here.
export ENROLLFLOW_REQUEST_TIMEOUT=${ENROLLFLOW_REQUEST_TIMEOUT:-150}
ENROLLFLOW_LOG=info "$bin" serve --listen "127.0.0.1:$E2E_PORT" --static-dir web/dist \
  --impact-budget-secs "${E2E_IMPACT_BUDGET_SECS:-140}" >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log" "$ENROLLFLOW_CLOCK_SHIFT_FILE"; rm -rf "$documents" "$E2E_PII_DIR"; }
trap cleanup EXIT INT TERM
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$E2E_PORT/readyz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.2
done
# Extra arguments go to Playwright (a spec file, --grep …).
status=0
npm --prefix web run e2e -- "$@" || status=$?
# Then the PII scan: no SSN or birth date in the server's log, the URLs or the
# error answers, and no plaintext SSN in the database.
python3 scripts/pii-scan.py --db "$DATABASE_URL" "$log" "$E2E_PII_DIR" || status=1
# On a failure, the server's warnings and errors say what it refused (the scan above found no PII).
if [ "$status" -ne 0 ]; then
  echo "--- the server's warnings and errors:" >&2
  grep -E '"level":"(WARN|ERROR)"| WARN | ERROR ' "$log" | tail -n 40 >&2 || true
fi
exit $status
