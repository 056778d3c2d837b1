#!/usr/bin/env bash
# Shopper journeys and agents together under load: SHOPPERS (500) whole journeys
# started evenly over DURATION (600) seconds, AGENTS (4) agents paging and exporting, against the
# release server on the demo data (ACME holds APPLICATIONS demo applications for the agents' lists).
# Usage: scripts/with-db.sh tests/load/soak.sh   (make soak)
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_DB=enrollflow_soak
. tests/load/server.sh
ENROLLFLOW_TODAY=2024-11-20 ENROLLFLOW_LOG=warn "$bin" seed-demo-data --agent 17439021 \
  --applications "${APPLICATIONS:-20000}" >&2
psql "$DATABASE_URL" -qc "VACUUM ANALYZE applications" >&2
python3 tests/load/soak.py "http://127.0.0.1:$PORT" "$host" "$server_pid" \
  "${SHOPPERS:-500}" "${DURATION:-600}" "${AGENTS:-4}"
