#!/usr/bin/env bash
# Consumers' step saves while analysts' drafts that loop forever are evaluated: whole consumer
# journeys one at a time (tests/load/step_latency.py) on the release server, first idle, then while
# four analysts' clients keep sending impacts of a draft whose census rule loops forever
# (tests/load/drafts.py: one evaluated at a time in the server's draft worker, the others answered
# 429, each stopped at its budget). Prints each step save's p95 idle and loaded and their ratio,
# and how long an ordinary impact takes while journeys run; exits 1 when a save's p95 loaded is
# more than 20 % over idle.
# Usage: scripts/with-db.sh tests/load/drafts.sh   (make bench-drafts); JOURNEYS=150 by default
# (the p95 of 40 journeys is their second slowest, and moved by 30 % from one idle run to the next).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${DATABASE_URL:?run through scripts/with-db.sh}"
PORT=${PORT:-18183}
JOURNEYS=${JOURNEYS:-150}
bin=${CARGO_TARGET_DIR:-target}/release/enrollflow
cargo build --release --bin enrollflow >&2
server=${DATABASE_URL%/*}
db=enrollflow_drafts
psql "$server/postgres" -qc "drop database if exists $db with (force)" >/dev/null
psql "$server/postgres" -qc "create database $db" >/dev/null
export DATABASE_URL="$server/$db"
# One data key for the seed and the server: the demo analyst's authenticator secret is stored
# under it (`enrollflow demo-code` then gives the code).
export ENROLLFLOW_DATA_KEY
ENROLLFLOW_DATA_KEY=$(head -c32 /dev/urandom | base64)
ENROLLFLOW_LOG=warn "$bin" seed --demo --file demo/agents.json >/dev/null
documents=$(mktemp -d)
work=$(mktemp -d)
log=/tmp/$db.log
ENROLLFLOW_ADDRESS_LIMIT=0 ENROLLFLOW_LOG=${SERVER_LOG_LEVEL:-warn} ENROLLFLOW_TODAY=2024-11-20 ENROLLFLOW_DOCUMENTS_DIR="$documents" \
  "$bin" serve --listen "127.0.0.1:$PORT" --no-watch >"$log" 2>&1 &
server_pid=$!
trap 'touch "$work/stop"; kill $server_pid 2>/dev/null || true; wait $server_pid 2>/dev/null || true; rm -rf "$documents" "$work"' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done
host="acme.localhost:$PORT"
base="http://127.0.0.1:$PORT"
echo "idle: $JOURNEYS journeys" >&2
TARGET_MS=100000 python3 tests/load/step_latency.py "$base" "$host" "$JOURNEYS" >"$work/idle.txt"
python3 tests/load/drafts.py "$base" "demo.localhost:$PORT" analyst@enrollflow.example.com \
  "$bin demo-code" "$work/stop" >"$work/drafts.txt" &
drafts=$!
sleep 5 # the first impact is under way
echo "loaded: $JOURNEYS journeys while the looping drafts are evaluated" >&2
TARGET_MS=100000 python3 tests/load/step_latency.py "$base" "$host" "$JOURNEYS" >"$work/loaded.txt"
touch "$work/stop"
wait $drafts || true
cat "$work/drafts.txt"
# An ordinary impact (the rules as they are) while consumers' journeys keep the server busy: the
# draft worker waits while requests are in flight, yet ends within its budget (its share).
echo "an ordinary impact while $JOURNEYS journeys run" >&2
TARGET_MS=100000 python3 tests/load/step_latency.py "$base" "$host" "$JOURNEYS" >/dev/null &
journeys=$!
sleep 2
ORDINARY=1 python3 tests/load/drafts.py "$base" "demo.localhost:$PORT" approver@enrollflow.example.com \
  "$bin demo-code" "$work/stop" || true
wait $journeys || true
python3 - "$work/idle.txt" "$work/loaded.txt" <<'PY'
import sys
def p95s(path):
    out = {}
    for line in open(path):
        parts = line.split()
        # `label calls p50 p95 max`
        if line.startswith("PUT ") and len(parts) >= 5:
            out[" ".join(parts[:-4])] = float(parts[-2])
    return out
idle, loaded = p95s(sys.argv[1]), p95s(sys.argv[2])
worst = 0.0
print(f"{'step save':34} {'p95 idle':>9} {'p95 loaded':>11} {'ratio':>6}")
for label in sorted(idle):
    if label in loaded and idle[label] > 0:
        r = loaded[label] / idle[label]
        worst = max(worst, r)
        print(f"{label:34} {idle[label]:9.2f} {loaded[label]:11.2f} {r:6.2f}")
print(f"worst ratio {worst:.2f}; target at most 1.20")
sys.exit(0 if worst <= 1.2 else 1)
PY
