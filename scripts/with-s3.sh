#!/usr/bin/env bash
# Runs a command beside an S3-compatible server for the document-store tests: moto's standalone
# server (PyPI `moto[server]`, installed for this user when missing) on a free loopback port, with a
# bucket `enrollflow-test`. Exports the AWS_* settings the server's `object_store` client reads and
# ENROLLFLOW_TEST_S3_BUCKET; stops the server when the command ends.
# Usage: scripts/with-s3.sh COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v moto_server >/dev/null 2>&1; then
  echo "with-s3: installing moto[server] (an S3-compatible test server) for this user" >&2
  python3 -m pip install --quiet --user "moto[server]>=5" >&2
  export PATH="$HOME/.local/bin:$PATH"
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
moto_server -H 127.0.0.1 -p "$port" >"$log" 2>&1 &
moto=$!
trap 'kill $moto 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$port/moto-api/"; then break; fi
  sleep 0.1
done
curl -fsS -o /dev/null -X PUT "http://127.0.0.1:$port/enrollflow-test" || {
  echo "with-s3: the S3 test server did not start:" >&2; cat "$log" >&2; exit 1; }

export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ALLOW_HTTP=true AWS_REGION=us-east-1 \
  AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test ENROLLFLOW_TEST_S3_BUCKET=enrollflow-test
"$@"
