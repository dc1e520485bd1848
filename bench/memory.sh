#!/usr/bin/env bash
# Memory under connections: the server holds 2,000 idle keep-alive connections, each after one request
# (scripts/hold-connections.py --kept, which reopens whatever the server closes) for SECONDS while wrk
# runs a load of /healthz in the middle of it;
# prints the server's peak and final resident size (VmHWM, VmRSS) and whether /healthz answered every
# sample from a fresh connection (within a second) throughout.
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] bench/memory.sh [SECONDS] [IDLE]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-30}
idle=${2:-2000}
bin=.build/release/onramp
[ -x "$bin" ] || swift build -c release --product onramp >/dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
port=18087
ports_free $port

"${server_pin[@]}" "$bin" serve --port $port --database "sqlite:$work/bench.db" --access-log off >"$work/serve.log" 2>&1 &
pid=$!
wait_for "http://127.0.0.1:$port/livez"
"${client_pin[@]}" python3 scripts/hold-connections.py --port $port --idle 0 --slow 0 --kept "$idle" --seconds "$seconds" \
    >"$work/hold.out" &
hold=$!
sleep $((seconds / 3))
"${client_pin[@]}" wrk -t"$wrk_threads" -c64 -d$((seconds / 3))s "http://127.0.0.1:$port/healthz" >"$work/wrk.out"
healthy=0
wait "$hold" || healthy=$?
peak=$(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
now=$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
samples=$(grep -o 'healthz_samples=[0-9]*' "$work/hold.out" | cut -d= -f2)
failures=$(grep -o 'healthz_failures=[0-9]*' "$work/hold.out" | cut -d= -f2)
printf '%-44s %s\n' "held connections" "$(grep -o 'held_at_least=[0-9]*' "$work/hold.out" | cut -d= -f2) at least of $idle" \
    "load during the hold (GET /healthz)" "$(wrk_rate "$work/wrk.out") req/s" \
    "peak RSS (VmHWM)" "$peak MB" "RSS at the end" "$now MB" \
    "/healthz samples from a fresh connection" "$samples, failures $failures (exit $healthy)"
result "memory: $idle idle keep-alive connections + a load run" "$peak" "MB peak RSS" \
    "/healthz during it: $samples samples, $failures failures" "100" "$(ratio "$peak" 100)" "≤ 1.00 (≤ 100 MB)"
