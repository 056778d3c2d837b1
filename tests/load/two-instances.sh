#!/usr/bin/env bash
# Two `enrollflow serve` instances on one PostgreSQL behind nginx round-robin:
#   1. shoppers' whole journeys through nginx round-robin (each request to the next instance: a
#      browser's writes are read back on the other at once through its `ef_rev` cookie), and a
#      session started on instance A continued on instance B directly: session, application and
#      CSRF token work across both;
#   2. a rule edit (in the rules folder both instances watch) reaches both: their rule hashes change
#      to the same new value;
#   3. quote throughput through nginx with one upstream, then with two (wrk, DURATION s each).
# Installs nginx (Debian's package) if missing. Usage: scripts/with-db.sh tests/load/two-instances.sh
# (make two-instances)
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${DATABASE_URL:?run through scripts/with-db.sh}"
command -v nginx >/dev/null || apt-get install -y nginx-light >/dev/null 2>&1 || apt-get install -y nginx >/dev/null
command -v wrk >/dev/null || apt-get install -y wrk >/dev/null
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
P0=${P0:-18190}; P1=${P1:-18191}; P2=${P2:-18192}
bin=${CARGO_TARGET_DIR:-target}/release/enrollflow
cargo build --release --bin enrollflow >&2
DATABASE_URL=$(scripts/seeded-db.sh enrollflow_two "$bin")
export DATABASE_URL

work=$(mktemp -d)
# The instances' root: the repository's rules, forms and templates, copied so the edit is ours.
mkdir -p "$work/root" "$work/documents" "$work/nginx"
cp -r rules forms templates "$work/root/"
key=$(head -c32 /dev/urandom | base64)
token=$(head -c32 /dev/urandom | od -An -tx1 | tr -d ' \n')
pids=()
cleanup() {
  [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
for port in $P1 $P2; do
  ENROLLFLOW_BENCH_ROUTES=true ENROLLFLOW_LOG=warn ENROLLFLOW_TODAY=2024-11-20 ENROLLFLOW_DATA_KEY=$key \
    ENROLLFLOW_ADMIN_TOKEN=$token ENROLLFLOW_DOCUMENTS_DIR="$work/documents" ENROLLFLOW_ROOT="$work/root" \
    "$bin" serve --listen "127.0.0.1:$port" >"$work/instance-$port.log" 2>&1 &
  pids+=($!)
done
for port in $P1 $P2; do
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
done

nginx_with() { # upstream ports... (round-robin)
  [ -f "$work/nginx/nginx.pid" ] && { kill "$(cat "$work/nginx/nginx.pid")"; sleep 0.5; }
  local servers=""
  for p in "$@"; do servers+="server 127.0.0.1:$p; "; done
  cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi; uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
  upstream enrollflow { $servers keepalive 64; }
  server {
    listen 127.0.0.1:$P0;
    client_max_body_size 5m;
    location / {
      proxy_pass http://enrollflow;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
    }
  }
}
CONF
  nginx -c "$work/nginx/nginx.conf" -p "$work/nginx"
  for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$P0/readyz" >/dev/null && return; sleep 0.1; done
  echo "nginx did not start: $(cat "$work/nginx/error.log")" >&2; exit 1
}

host="acme.localhost:$P0"
# Plain round-robin: no stickiness.
nginx_with "$P1" "$P2"
echo "== 1. sessions across instances" >&2
python3 - "$P0" "$P1" "$P2" <<'PY'
import sys
sys.path.insert(0, "tests/load")
from client import Session, journey
p0, p1, p2 = sys.argv[1:]
# Through nginx: 20 shoppers, each request to the next instance in turn.
for _ in range(20):
    journey(Session(f"http://127.0.0.1:{p0}", f"acme.localhost:{p0}"))
print("20 whole journeys through nginx round-robin (every other request on the other instance): purchased")
# Directly: started on A, continued on B with A's cookie and token.
a = Session(f"http://127.0.0.1:{p1}", f"acme.localhost:{p0}")
a.start()
a.call("PUT whyApplying on A", "PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
b = Session(f"http://127.0.0.1:{p2}", f"acme.localhost:{p0}")
b.cookie, b.token = a.cookie, a.token
saved = b.call("GET whyApplying on B", "GET", "/api/application/step/whyApplying")
assert saved["data"]["enrollment_type"] == "oe", saved["data"]
from client import CENSUS
b.call("PUT census on B with A's CSRF token", "PUT", "/api/application/step/census", CENSUS)
print("a session started on instance A: read and saved on instance B with A's token")
PY

echo "== 2. a rule edit reaches both instances" >&2
hash_of() { curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$1/api/admin/rules/status" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["serving_hash"])'; }
before1=$(hash_of "$P1"); before2=$(hash_of "$P2")
[ "$before1" = "$before2" ] || { echo "the instances start on different rules" >&2; exit 1; }
sed -i 's/^  name: Jordan Reyes/  name: Jordan Reyes-Smith/' "$work/root/rules/dashboard.yaml"
start=$(date +%s.%N)
for _ in $(seq 1 100); do
  h1=$(hash_of "$P1"); h2=$(hash_of "$P2")
  [ "$h1" != "$before1" ] && [ "$h2" != "$before2" ] && break
  sleep 0.1
done
[ "$h1" = "$h2" ] && [ "$h1" != "$before1" ] || { echo "the edit did not reach both: $h1 $h2" >&2; exit 1; }
python3 -c 'import sys; print(f"both instances serve the edited rules (hash {sys.argv[1][:12]}) after {float(sys.argv[3]) - float(sys.argv[2]):.1f} s")' "$h1" "$start" "$(date +%s.%N)"

echo "== 3. quote throughput through nginx: one upstream, then two" >&2
lua=$(mktemp -d)
python3 tests/load/wrk_sessions.py "http://127.0.0.1:$P0" "$host" 64 "$lua" >&2
rate() { wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$lua/quote.lua" "http://127.0.0.1:$P0/" | awk '/Requests\/sec/ { print $2 }'; }
nginx_with "$P1"
one=$(rate)
nginx_with "$P1" "$P2"
two=$(rate)
rm -rf "$lua"
python3 - "$one" "$two" <<'PY'
import sys
one, two = map(float, sys.argv[1:])
print(f"GET /api/plans/1/allPlans through nginx: 1 instance {one:.0f} req/s, 2 instances {two:.0f} req/s "
      f"({two / one:.2f}x)")
PY
