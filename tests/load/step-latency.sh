#!/usr/bin/env bash
# Latency of every step call of the consumer wizard (p50/p95/max), whole journeys one at a time
# against the release server on the demo data (open enrollment, and a qualifying event on an HMO
# with the upload, PCPs, route guards, county list and filter lists); exits 1 when a call's p95 is
# over TARGET_MS (20). Usage: scripts/with-db.sh tests/load/step-latency.sh
# (make bench-steps); JOURNEYS=50 by default.
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_DB=enrollflow_steps
# The demo data: the 4,000 quotes and submissions `make demo` loads.
LOAD_DEMO_APPLICATIONS=${LOAD_DEMO_APPLICATIONS:-4000}
. tests/load/server.sh
python3 tests/load/step_latency.py "http://127.0.0.1:$PORT" "$host" "${JOURNEYS:-50}"
