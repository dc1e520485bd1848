#!/usr/bin/env bash
# HTTP throughput: wrk against onramp's /livez (no database) and /healthz (SQLite ping), and, in the
# same run with the same wrk settings, against nginx `return 200` on another loopback port (one worker
# when pinned, two otherwise), and against libmicrohttpd alone with a C handler (bench/reference), the
# ceiling of a server built on it, taking turns (ROUNDS rounds, 3 by default; the median of each).
# Prints requests/s side by side and the ratios.
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] bench/http.sh [DURATION_SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
duration=${1:-10}
connections=${2:-64}
nginx_workers=$([ -n "${SERVER_CPU:-}" ] && echo 1 || echo 2)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

[ -x .build/release/onramp ] || swift build -c release --product onramp >/dev/null
port_onramp=18080
port_nginx=18081
port_mhd=18083
ports_free $port_onramp $port_nginx $port_mhd

"${server_pin[@]}" .build/release/onramp serve --port $port_onramp --database "sqlite:$work/bench.db" \
    --access-log off >"$work/onramp.log" 2>&1 &
cat >"$work/nginx.conf" <<CONF
worker_processes $nginx_workers;
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
"${server_pin[@]}" nginx -c "$work/nginx.conf" -p "$work"
# The ceiling of the design: libmicrohttpd alone with a C handler, as onramp configures it.
gcc -O2 -o "$work/mhd-return-200" bench/reference/mhd-return-200.c -lmicrohttpd
"${server_pin[@]}" "$work/mhd-return-200" $port_mhd 2 &
wait_for "http://127.0.0.1:$port_onramp/livez"
wait_for "http://127.0.0.1:$port_mhd/"

rate() { "${client_pin[@]}" wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" "$1" >"$work/wrk.out"; wrk_rate "$work/wrk.out"; }
echo "wrk -t$wrk_threads -c$connections, ${duration}s in all per target; server cores ${SERVER_CPU:-any}, wrk cores ${CLIENT_CPU:-any}"
# This virtual machine's speed drifts within a minute: the four targets take turns, ROUNDS rounds of
# DURATION/ROUNDS seconds each, and each figure is the median of its rounds.
rounds=${ROUNDS:-3}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
live=() nginx=() health=() mhd=()
full_duration=$duration
duration=$(( (full_duration + rounds - 1) / rounds ))
for _ in $(seq 1 "$rounds"); do
    live+=("$(rate "http://127.0.0.1:$port_onramp/livez")")
    nginx+=("$(rate "http://127.0.0.1:$port_nginx/")")
    health+=("$(rate "http://127.0.0.1:$port_onramp/healthz")")
    mhd+=("$(rate "http://127.0.0.1:$port_mhd/")")
done
echo "rounds (/livez, nginx, /healthz, libmicrohttpd): ${live[*]} | ${nginx[*]} | ${health[*]} | ${mhd[*]}"
onramp_live=$(median "${live[@]}")
nginx_rate=$(median "${nginx[@]}")
onramp_health=$(median "${health[@]}")
mhd_rate=$(median "${mhd[@]}")
printf '%-34s %12s req/s\n' "onramp /livez (no database)" "$onramp_live" "nginx return 200 ($nginx_workers worker)" \
    "$nginx_rate" "onramp /healthz (SQLite ping)" "$onramp_health" "libmicrohttpd alone (C handler)" "$mhd_rate"
echo "ratio onramp/nginx: /livez $(ratio "$onramp_live" "$nginx_rate"), /healthz $(ratio "$onramp_health" "$nginx_rate");" \
    "libmicrohttpd alone/nginx $(ratio "$mhd_rate" "$nginx_rate"), onramp /livez ÷ libmicrohttpd alone $(ratio "$onramp_live" "$mhd_rate")"
result "GET /livez" "$onramp_live" "req/s" "nginx return 200, $nginx_workers worker" "$nginx_rate" \
    "$(ratio "$onramp_live" "$nginx_rate")" "≥ 0.9"
result "GET /healthz (store ping)" "$onramp_health" "req/s" "nginx return 200, $nginx_workers worker" "$nginx_rate" \
    "$(ratio "$onramp_health" "$nginx_rate")" "≥ 0.8"
result "libmicrohttpd alone, C handler (the design's ceiling)" "$mhd_rate" "req/s" "nginx return 200, $nginx_workers worker" \
    "$nginx_rate" "$(ratio "$mhd_rate" "$nginx_rate")" "(reference)"
