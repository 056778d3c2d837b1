#!/usr/bin/env bash
# Throughput ratios against the server's own baselines in one run on loopback (issue 8 item 2):
# step view and the quote (one county's full medical list for a household of 6) against
# /bench/hello, and the step submit (validation, encryption, the write) against a primary-key read
# (/bench/pk/{id}). SESSIONS shoppers (64) take turns so writes do not queue on one row.
# Starts the release server (with --bench-routes) on a fresh seeded database; wrk 2 threads x
# CONNECTIONS (32) for DURATION (10) seconds per route.
# Usage: scripts/with-db.sh tests/load/ratios.sh   (make bench-http)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || apt-get install -y wrk >/dev/null
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
LOAD_DB=enrollflow_ratios
. tests/load/server.sh
lua=$(mktemp -d)
python3 tests/load/wrk_sessions.py "http://127.0.0.1:$PORT" "$host" "${SESSIONS:-64}" "$lua" >&2
rate() { # $1 path or lua script name
  local out
  if [ -f "$lua/$1.lua" ]; then
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$lua/$1.lua" "http://127.0.0.1:$PORT/")
  else
    out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -H "Host: $host" "http://127.0.0.1:$PORT$1")
  fi
  if grep -q "Non-2xx" <<<"$out"; then echo "$1: $(grep Non-2xx <<<"$out")" >&2; exit 1; fi
  awk '/Requests\/sec/ { print $2 }' <<<"$out"
}
hello=$(rate /bench/hello)
view=$(rate step_view)
quote=$(rate quote)
pk=$(rate pk_read)
submit=$(rate step_submit)
rm -rf "$lua"
python3 - "$hello" "$view" "$quote" "$pk" "$submit" <<'PY'
import sys
hello, view, quote, pk, submit = map(float, sys.argv[1:])
rows = [("/bench/hello (baseline)", hello, None, None),
        ("step view GET census", view, view / hello, 0.5),
        ("quote GET allPlans (6 people)", quote, quote / hello, 0.5),
        ("/bench/pk read (baseline)", pk, None, None),
        ("step submit PUT census", submit, submit / pk, 0.6)]
print(f"{'route':32} {'req/s':>9} {'ratio':>7} {'target':>7}")
bad = False
for name, rate, ratio, target in rows:
    r = f"{ratio:7.0%}" if ratio is not None else ""
    t = f"{target:7.0%}" if target is not None else ""
    print(f"{name:32} {rate:9.0f} {r:>7} {t:>7}")
    bad |= ratio is not None and ratio < target
print("all ratios meet their targets" if not bad else "a ratio is below its target")
PY
