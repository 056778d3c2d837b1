#!/usr/bin/env bash
# Schemathesis over /api/openapi.json as a consumer, an agent and an admin:
# no answer may be a server error (>= 500), and input the schema rules out must be refused (4xx).
# Starts the release server on a fresh seeded database (tests/load/server.sh); installs
# Schemathesis from PyPI into .venv/schemathesis on first use.
# Usage (through scripts/with-db.sh): tests/security/schemathesis.sh [SECONDS_PER_ROLE]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-120}
venv=.venv/schemathesis
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==4.32.5"
fi
PORT=${PORT:-18185}
LOAD_DB=enrollflow_schemathesis
. tests/load/server.sh
base="http://127.0.0.1:$PORT"
reports=${REPORTS:-/tmp/enrollflow-schemathesis}
mkdir -p "$reports"
status=0
for role in consumer agent admin; do
  eval "$(python3 tests/security/session.py "$base" "$host" "$role")"
  echo "== $role: $seconds s" >&2
  # Calls that end or replace the session would leave the rest of the run logged out: not fuzzed
  # here (the server tests cover them).
  "$venv/bin/st" run "$base/api/openapi.json" --url "$base" \
    -H "Host: $host" -H "Origin: http://$host" -H "Cookie: $COOKIE" -H "X-CSRF-Token: $TOKEN" \
    --exclude-path-regex '^/api/(logout|login|application/timeout|admin/(fabricateAgent|unFabricateAgent).*)$' \
    --checks not_a_server_error,negative_data_rejection \
    --phases examples,coverage,fuzzing --max-time "$seconds" --workers 2 \
    --request-timeout 10 --suppress-health-check all --warnings off \
    --report junit,har --report-dir "$reports/$role" >"$reports/$role.txt" 2>&1 || status=1
  tail -n 15 "$reports/$role.txt" >&2
  # What the server answered: the calls must get past the session and CSRF checks (few 419s),
  # or the run proved nothing.
  python3 - "$reports/$role" "$role" <<'PY' >&2 || status=1
import collections, glob, json, sys
statuses = collections.Counter()
for f in glob.glob(f"{sys.argv[1]}/har-*.json"):
    for e in json.load(open(f))["log"]["entries"]:
        statuses[e["response"]["status"]] += 1
total = sum(statuses.values())
print(f"{sys.argv[2]}: {total} calls; answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
if not total or statuses[419] > total * 0.05:
    sys.exit(f"{sys.argv[2]}: the calls were refused by the session checks: the run did not get in")
PY
done
# The server's own log must hold no panic.
if grep -q "panicked" "$server_log"; then
  echo "the server panicked: see $server_log" >&2
  status=1
fi
exit $status
