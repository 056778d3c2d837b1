#!/usr/bin/env bash
# Throughput of the quoting endpoint against the server's own /healthz, in one run on loopback.
# Starts the release server on a fresh seeded database, builds a household of 6 through the API,
# then runs wrk (bounded: $DURATION seconds per endpoint) and prints requests/s and the ratio.
# Usage: scripts/with-db.sh tests/load/quote-throughput.sh   (make bench-http)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
. tests/load/server.sh
jar=$(mktemp)
api() { curl -fs -b "$jar" -c "$jar" -H "Host: $host" -H "Origin: http://$host" -H "X-CSRF-Token: ${token:-}" \
          -H "Content-Type: application/json" "$@"; }
token=$(api "http://127.0.0.1:$PORT/api/get-auth-state" | python3 -c 'import json,sys; print(json.load(sys.stdin)["csrf_token"])')
api -X PUT "http://127.0.0.1:$PORT/api/application/step/whyApplying" -d '{"enrollment_type":"oe"}' >/dev/null
api -X PUT "http://127.0.0.1:$PORT/api/application/step/census" -d '{
  "sub_first_name":"Ann","sub_last_name":"Lee","email":"ann@example.com","sub_gender":"F",
  "sub_birth_date":"1980-03-02","sub_tobacco":1,"residential_zip":"48104","residential_county_id":161,
  "spouse":{"gender":"M","birth_date":"1982-07-21","tobacco":0},
  "dependents":[{"gender":"F","birth_date":"2008-01-05","tobacco":0},{"gender":"M","birth_date":"2011-04-09"},
                {"gender":"F","birth_date":"2014-08-30"},{"gender":"M","birth_date":"2018-11-02"}],
  "medicare_eligible":0,"wants_subsidy":0}' >/dev/null
cookie=$(awk '$6 == "ef_session" { print "ef_session=" $7 }' "$jar")
body=$(api "http://127.0.0.1:$PORT/api/plans/1/allPlans")
plans=$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)["plans"]))' <<<"$body")
echo "household of 6 quoted over $plans medical plans (${#body} bytes of JSON per answer)" >&2

rate() { # $1 path, then extra wrk args
  local path=$1; shift
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -H "Host: $host" "$@" "http://127.0.0.1:$PORT$path" \
    | awk '/Requests\/sec/ { print $2 }'
}
health=$(rate /healthz)
quote=$(rate /api/plans/1/allPlans -H "Cookie: $cookie")
python3 - "$health" "$quote" <<'PY'
import sys
h, q = float(sys.argv[1]), float(sys.argv[2])
print(f"/healthz               {h:10.0f} req/s")
print(f"/api/plans/1/allPlans  {q:10.0f} req/s")
print(f"ratio                  {q / h:10.1%}")
PY
