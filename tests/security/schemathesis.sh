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
# 419 is the server's refusal of a call without a live session or without its CSRF token: the
# call was not carried out, so negative_data_rejection may count it as a rejection (its default
# list lacks 419). The sessions are kept alive below, so a 419 should not happen at all; the
# check after each phase fails the run when there are more than a few.
config=$reports/schemathesis.toml
cat >"$config" <<'TOML'
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "415", "419", "422", "428", "429", "5xx"]
TOML
for role in consumer agent admin; do
  # The role's session, checked with GET /api/get-auth-state (session.py exits non-zero when the
  # login did not complete: then this role is not fuzzed, and the run fails).
  if ! session=$(python3 tests/security/session.py "$base" "$host" "$role"); then
    echo "$role: no session: not fuzzed" >&2
    status=1
    continue
  fi
  eval "$session"
  echo "== $role: $seconds s" >&2
  rm -rf "${reports:?}/$role"
  # Left out, because they end or replace the caller's session (the rest of the phase would run
  # logged out, answered 419) or, for the consumer, take its application away (the server's tests
  # cover them):
  # - POST /api/login: a login replaces the session;
  # - POST /api/logout and POST /api/application/timeout: end the session;
  # - POST /api/admin/fabricateAgent/{userId}: acting as an agent replaces the admin's session;
  # - DELETE /api/user/sessions/{id}: signs out one device, this one too when it is named (the
  #   fuzzer takes the ids from GET /api/user/sessions, the caller's own among them);
  # - consumer: POST /api/application/active/reset: the session lets go of its application.
  # Still fuzzed, as they cannot touch the caller's session here: /api/login/second-factor(/setup)
  # (no password step on these sessions), /api/unFabricateAgent (no one acts as an agent),
  # DELETE /api/user/sessions (ends the others only), /api/user/password and
  # /api/user/second-factor (need the password or a code; they keep the caller's session),
  # /api/dashboard/enroll/{id} and /api/application/resume (change the session's application,
  # not the session), /api/admin/users/{userId}/* and /api/admin/security-settings (other
  # accounts' sessions only), /api/reset-password and /api/register (need a mailed token).
  exclude='login|logout|application/timeout|admin/fabricateAgent/[^/]+|user/sessions/[^/]+'
  if [ "$role" = consumer ]; then exclude="$exclude|application/active/reset"; fi
  "$venv/bin/st" --config-file "$config" run "$base/api/openapi.json" --url "$base" \
    -H "Host: $host" -H "Origin: http://$host" -H "Cookie: $COOKIE" -H "X-CSRF-Token: $TOKEN" \
    --exclude-path-regex "^/api/($exclude)\$" \
    --checks not_a_server_error,negative_data_rejection \
    --phases examples,coverage,fuzzing --max-time "$seconds" --workers 2 \
    --request-timeout 10 --suppress-health-check all --warnings off \
    --report junit,har --report-dir "$reports/$role" >"$reports/$role.txt" 2>&1 || status=1
  tail -n 15 "$reports/$role.txt" >&2
  # The session must still be the role's at the end of its phase.
  COOKIE=$COOKIE TOKEN=$TOKEN python3 tests/security/session.py "$base" "$host" "$role" --check || status=1
  # What the server answered: the calls must get past the session and CSRF checks (few 419s),
  # and past the role checks (the role's own calls not mostly 401/403), or the run proved nothing.
  python3 - "$reports/$role" "$role" <<'PY' >&2 || status=1
import collections, glob, json, re, sys
role = sys.argv[2]
statuses = collections.Counter()
own = collections.Counter()
# The calls only this role may make (what a logged-out or half-logged-in session is refused).
OWN = {"consumer": r"/api/(application|plans|printPdf|printSelectionPdf)(/|$)",
       "agent": r"/api/dashboard/", "admin": r"/api/admin/"}[role]
first_419 = None
entries = []
for f in glob.glob(f"{sys.argv[1]}/har-*.json"):
    entries += json.load(open(f))["log"]["entries"]
entries.sort(key=lambda e: e["startedDateTime"])
for i, e in enumerate(entries):
    code = e["response"]["status"]
    statuses[code] += 1
    if code == 419 and first_419 is None:
        first_419 = i
    if re.search(OWN, e["request"]["url"].split("?")[0]):
        own[code in (401, 403)] += 1
total = sum(statuses.values())
print(f"{role}: {total} calls; answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
bad = []
if not total:
    bad.append("no call was made")
if statuses[419] > total * 0.01:
    bad.append(f"{statuses[419]} calls were refused by the session checks (419)")
    for e in entries[max(0, first_419 - 5):first_419 + 1]:
        r = e["request"]
        print(f"  before the first 419: {r['method']} {r['url']} -> {e['response']['status']}")
own_total = sum(own.values())
if not own_total or own[True] > own_total * 0.5:
    bad.append(f"{own[True]} of the {own_total} calls of the {role}'s own routes were answered 401/403")
if statuses[401] + statuses[403] > total * 0.8:
    bad.append(f"{statuses[401] + statuses[403]} of the calls were answered 401/403")
if bad:
    sys.exit(f"{role}: the run did not get in: " + "; ".join(bad))
PY
done
# The server's own log must hold no panic.
if grep -q "panicked" "$server_log"; then
  echo "the server panicked: see $server_log" >&2
  status=1
fi
exit $status
