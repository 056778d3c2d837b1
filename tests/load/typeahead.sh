#!/usr/bin/env bash
# Latency of the doctors-and-drugs typeahead (p50/p95/max) against the release server with the
# demo provider and formulary files loaded (tools/coverage-demo: 30,000 providers, 3,000 drugs):
# what a person types, a letter at a time, as the browser asks. Exits 1 when the p95 is over
# TARGET_MS (20). Usage: scripts/with-db.sh tests/load/typeahead.sh (make bench-typeahead).
set -euo pipefail
cd "$(dirname "$0")/../.."
LOAD_DB=enrollflow_typeahead
. tests/load/server.sh
demo=${CARGO_TARGET_DIR:-target}/coverage-demo
[ -f "$demo/15560-blue-cross/cms-data-index.json" ] || python3 tools/coverage-demo/generate.py "$demo" >&2
ENROLLFLOW_LOG=warn "$bin" import-coverage "$demo" >&2
python3 tests/load/typeahead.py "http://127.0.0.1:$PORT" "$host" "$demo"
