#!/usr/bin/env bash
# Latency of every step call of the consumer wizard (p50/p95/max), whole journeys one at a time
# against the release server on the demo data. Usage: scripts/with-db.sh tests/load/step-latency.sh
# (make bench-steps); JOURNEYS=50 by default.
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_DB=enrollflow_steps
. tests/load/server.sh
python3 tests/load/step_latency.py "http://127.0.0.1:$PORT" "$host" "${JOURNEYS:-50}"
