#!/usr/bin/env bash
# HTTP throughput: wrk against onramp's /livez (no database) and /healthz (SQLite ping), and, in the
# same run with the same wrk settings, against nginx `return 200` on another loopback port.
# Prints requests/s side by side and the ratio. Usage: bench/http.sh [DURATION_SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-64}
threads=2
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

[ -x .build/release/onramp ] || swift build -c release --product onramp >/dev/null
port_onramp=18080
port_nginx=18081

.build/release/onramp serve --port $port_onramp --database "sqlite:$work/bench.db" --access-log off >"$work/onramp.log" 2>&1 &
cat >"$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work;
    proxy_temp_path $work;
    fastcgi_temp_path $work;
    uwsgi_temp_path $work;
    scgi_temp_path $work;
    server {
        listen 127.0.0.1:$port_nginx;
        location / { default_type application/json; return 200 '{"status":"ok"}'; }
    }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port_onramp/livez" >/dev/null && break; sleep 0.1; done

rate() { wrk -t$threads -c"$connections" -d"${duration}s" "$1" | awk '/Requests\/sec/ {print $2}'; }
echo "wrk -t$threads -c$connections -d${duration}s on $(nproc) cores"
onramp_live=$(rate "http://127.0.0.1:$port_onramp/livez")
nginx_rate=$(rate "http://127.0.0.1:$port_nginx/")
onramp_health=$(rate "http://127.0.0.1:$port_onramp/healthz")
printf '%-34s %12s req/s\n' "onramp /livez (no database)" "$onramp_live" "nginx return 200" "$nginx_rate" \
    "onramp /healthz (SQLite ping)" "$onramp_health"
awk -v a="$onramp_live" -v b="$nginx_rate" -v c="$onramp_health" \
    'BEGIN { printf "ratio onramp/nginx: /livez %.2f, /healthz %.2f\n", a / b, c / b }'
