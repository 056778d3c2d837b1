# Sourced by the load scripts: builds the release server (or uses SERVER_BIN when it is set: a
# binary already built, no cargo run), starts it on a fresh seeded database on
# $PORT (stopped on exit; no per-address limits: every request comes from loopback) and waits until
# it is ready; its log is $server_log. Needs DATABASE_URL (scripts/with-db.sh).
: "${DATABASE_URL:?run through scripts/with-db.sh}"
PORT=${PORT:-18181}
if [ -n "${SERVER_BIN:-}" ]; then
  bin=$SERVER_BIN
  [ -x "$bin" ] || { echo "SERVER_BIN=$bin is not an executable" >&2; exit 1; }
else
  bin=${CARGO_TARGET_DIR:-target}/release/enrollflow
  cargo build --release --bin enrollflow >&2
fi
DATABASE_URL=$(scripts/seeded-db.sh "${LOAD_DB:-enrollflow_load}" "$bin")
export DATABASE_URL
# LOAD_DEMO_APPLICATIONS=N: also the demo quotes and submissions `make demo` loads (N of them).
if [ -n "${LOAD_DEMO_APPLICATIONS:-}" ]; then
  ENROLLFLOW_LOG=warn ENROLLFLOW_TODAY=2024-11-20 "$bin" seed-demo-data --applications "$LOAD_DEMO_APPLICATIONS" >&2
fi
documents=$(mktemp -d)
server_log=/tmp/${LOAD_DB:-enrollflow_load}.log
ENROLLFLOW_ADDRESS_LIMIT=0 ENROLLFLOW_BENCH_ROUTES=true ENROLLFLOW_LOG=warn ENROLLFLOW_TODAY=2024-11-20 ENROLLFLOW_DATA_KEY=$(head -c32 /dev/urandom | base64) \
  ENROLLFLOW_DOCUMENTS_DIR="$documents" \
  "$bin" serve --listen "127.0.0.1:$PORT" --no-watch >"$server_log" 2>&1 &
server_pid=$!
trap 'kill $server_pid 2>/dev/null || true; wait $server_pid 2>/dev/null || true; rm -rf "$documents"' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done
host="acme.localhost:$PORT"
