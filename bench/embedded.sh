#!/usr/bin/env bash
# Embedded onramp throughput: onramp session create + checkout pairs per second for pre-authorised
# customers (Link consent, OAuth token, KYC L1, wallet and card token prepared ahead), with p50/p99
# latency of those calls, printed next to a bare /livez and /healthz run of the same load generator
# (wrk) against the same server in the same run.
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] bench/embedded.sh [SECONDS] [CONNECTIONS] [CUSTOMERS]
# EMBEDDED_BENCH_DATABASE picks the database (default: a temporary SQLite file), for example
#   WITH_POSTGRES_DURABLE=1 scripts/with-postgres.sh bash -c 'EMBEDDED_BENCH_DATABASE=$ONRAMP_TEST_POSTGRES_URL bench/embedded.sh',
# and BENCH_LABEL names the row it reports.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-20}
connections=${2:-16}
customers=${3:-4}
threads=$wrk_threads
label=${BENCH_LABEL:-SQLite}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
[ -x .build/release/onramp ] || swift build -c release --product onramp >/dev/null
onramp=.build/release/onramp
port=${EMBEDDED_BENCH_PORT:-18083}
base="http://127.0.0.1:$port"
ports_free $port
database=${EMBEDDED_BENCH_DATABASE:-sqlite:$work/bench.db}

$onramp project create --name EmbeddedBench --database "$database" --json >"$work/project.json"
sk=$(jq -r .stripeSecretKey "$work/project.json")
"${server_pin[@]}" $onramp serve --port $port --database "$database" --access-log off ${THREADS:+--threads "$THREADS"} \
    >"$work/serve.log" 2>&1 &
wait_for "$base/healthz"

echo "preparing $customers pre-authorised customers…"
bench/embedded-customers.sh "$base" "$work/project.json" "$customers" "$work/fixtures.txt"

EMBEDDED_FIXTURES="$work/fixtures.txt" EMBEDDED_SK=$sk \
    "${client_pin[@]}" wrk -t$threads -c"$connections" -d"${seconds}s" --latency -s bench/embedded.lua "$base/v1/crypto/onramp_sessions" \
    >"$work/embedded.out"
"${client_pin[@]}" wrk -t$threads -c"$connections" -d"${seconds}s" --latency "$base/livez" >"$work/livez.out"
"${client_pin[@]}" wrk -t$threads -c"$connections" -d"${seconds}s" --latency "$base/healthz" >"$work/healthz.out"

read -r _ pairs pair_rate pair_failures < <(grep '^PAIRS' "$work/embedded.out")
row() { printf '%-34s %12s %12s %10s %10s %10s\n' "$@"; }
row "run ($connections connections, ${seconds}s)" "requests/s" "pairs/s" "p50" "p99" "non-2xx"
row "session create + checkout" "$(awk '/Requests\/sec/ {print $2}' "$work/embedded.out")" "$pair_rate" \
    "$(awk '$1 == "50%" {print $2}' "$work/embedded.out")" "$(awk '$1 == "99%" {print $2}' "$work/embedded.out")" \
    "$(awk '/Non-2xx/ {print $NF}' "$work/embedded.out" | grep . || echo 0)"
row "GET /livez" "$(wrk_rate "$work/livez.out")" "-" \
    "$(awk '$1 == "50%" {print $2}' "$work/livez.out")" "$(awk '$1 == "99%" {print $2}' "$work/livez.out")" \
    "$(awk '/Non-2xx/ {print $NF}' "$work/livez.out" | grep . || echo 0)"
row "GET /healthz" "$(awk '/Requests\/sec/ {print $2}' "$work/healthz.out")" "-" \
    "$(awk '$1 == "50%" {print $2}' "$work/healthz.out")" "$(awk '$1 == "99%" {print $2}' "$work/healthz.out")" \
    "$(awk '/Non-2xx/ {print $NF}' "$work/healthz.out" | grep . || echo 0)"
echo "pairs completed: $pairs; unexpected answers: $pair_failures"
echo "pairs per /livez request: $(ratio "$pair_rate" "$(wrk_rate "$work/livez.out")")"
result "Embedded create + checkout pair ($label)" "$pair_rate" "pairs/s" "GET /livez of the same server" \
    "$(wrk_rate "$work/livez.out")" "$(ratio "$pair_rate" "$(wrk_rate "$work/livez.out")")" "≥ 0.1"
