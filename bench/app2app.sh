#!/usr/bin/env bash
# App2App session creation throughput: attested session requests are prepared ahead (one software
# App Attest key each, so counters never race) and replayed once each by wrk. Printed next to
# `openssl speed ecdsap256` verify/s from the same run (one core), with the ratio; then the
# transactions API's p99 latency with 1k and with 1M stored transactions.
# Usage: [SYNCHRONOUS=full|normal] [DURATION=3] [SERVER_CPU=0 CLIENT_CPU=1] bench/app2app.sh [SESSIONS] [CONNECTIONS]
# SYNCHRONOUS picks SQLite's commit durability (default full: every commit is fsynced); THREADS sets
# `onramp serve --threads` (default: the server's own, 16 on two cores). APP2APP_DATABASE runs the
# sessions on another database (a postgres:// URL; the transactions API part then is skipped), and
# BENCH_LABEL names the rows it reports.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
sessions=${1:-12000}
connections=${2:-32}
tx_threads=$wrk_threads
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
[ -x .build/release/onramp ] || swift build -c release --product onramp >/dev/null
[ -x .venv/bin/python ] || scripts/install-deps.sh bench
onramp=.build/release/onramp
port=18082
ports_free $port
app_id=ABCDE12345.com.example.bench

$onramp appattest ca create --out "$work/ca" >/dev/null
database=${APP2APP_DATABASE:-sqlite:$work/bench.db}
served=$database
[[ $database == sqlite:* ]] && served="$database?synchronous=${SYNCHRONOUS:-full}"
label=${BENCH_LABEL:-SQLite}
$onramp project create --name Bench --app-id $app_id --redirect-host bench.example.com \
    --database "$database" --json >"$work/project.json"
field() { .venv/bin/python -c "import json,sys; print(json.load(open('$work/project.json'))['$1'])"; }
project=$(field projectId)
"${server_pin[@]}" $onramp serve --port $port --database "$served" --trust-appattest-root "$work/ca/root.pem" \
    --rate-limit 0 --project-rate-limit 0 --access-log off ${THREADS:+--threads "$THREADS"} >"$work/serve.log" 2>&1 &
wait_for "http://127.0.0.1:$port/livez"

echo "database ${database%%\?*} (SQLite synchronous=${SYNCHRONOUS:-full}), server threads ${THREADS:-default}, server cores ${SERVER_CPU:-any}, wrk cores ${CLIENT_CPU:-any}"
echo "preparing $sessions attested session requests (registration of one key each)…"
start=$(date +%s)
$onramp bench-fixtures app2app --server "http://127.0.0.1:$port" --project "$project" --app-id $app_id \
    --ca "$work/ca" --redirect-host bench.example.com --count "$sessions" --out "$work/sessions.txt"
echo "prepared in $(( $(date +%s) - start )) s"

echo "openssl speed -seconds 3 ecdsap256 (one core${SERVER_CPU:+: core $SERVER_CPU})…"
verify=$("${server_pin[@]}" openssl speed -seconds 3 ecdsap256 2>/dev/null | awk '/256 bits ecdsa \(nistp256\)/ {print $NF}')

# A fixed window short enough that no prepared item is used twice (the script reports repeats).
run_wrk() {
    "${client_pin[@]}" wrk -t"$3" -c"$1" -d"${DURATION:-3}s" --latency -s bench/replay.lua "http://127.0.0.1:$port$2"
}
per_second() { wrk_rate "$1"; }
repeated() { awk '/repeated items/ {print $3}' "$1"; }
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v name="$1" '$1 == name {print $2}'; }
transactions_before=$(metric onramp_sqlite_transactions_total || true)
commits_before=$(metric onramp_sqlite_commits_total || true)
# One wrk thread: each prepared item is used once even when connections are served unevenly.
REPLAY_FILE="$work/sessions.txt" REPLAY_MODE=body REPLAY_THREADS=1 REPLAY_PATH=/platform/v2/onramp/mobile/sessions \
    run_wrk "$connections" /platform/v2/onramp/mobile/sessions 1 >"$work/sessions.out"
created=$(awk '/requests in/ {print $1}' "$work/sessions.out")
rate=$(per_second "$work/sessions.out")
p50=$(awk '$1 == "50%" {print $2}' "$work/sessions.out")
p99=$(awk '$1 == "99%" {print $2}' "$work/sessions.out")
errors=$(awk '/Non-2xx/ {print $NF}' "$work/sessions.out")
[ "$(repeated "$work/sessions.out")" = 0 ] || echo "warning: $(repeated "$work/sessions.out") prepared sessions were replayed twice; prepare more"
printf '%-44s %10s\n' "attested sessions created" "$created" "session creations/s" "$rate" \
    "latency p50 / p99" "$p50 / $p99" "non-2xx responses" "${errors:-0}" "openssl ecdsap256 verify/s (one core)" "$verify"
awk -v a="$rate" -v b="$verify" 'BEGIN { printf "%-44s %10.2f\n", "ratio sessions/s ÷ verify/s", a / b }'
result "attested session creation ($label)" "$rate" "sessions/s" "openssl speed ecdsap256 verify, one core" "$verify" \
    "$(ratio "$rate" "$verify")" "≥ 0.5"
[[ $database == sqlite:* ]] || exit 0
awk -v t="$(( $(metric onramp_sqlite_transactions_total) - transactions_before ))" \
    -v c="$(( $(metric onramp_sqlite_commits_total) - commits_before ))" \
    'BEGIN { printf "%-44s %10.1f\n", "write transactions per SQLite commit", (c > 0 ? t / c : 0) }'

tx_path=/onramp/v1/buy/user/bench-user-7/transactions
for total in 1000 1000000; do
    .venv/bin/python bench/seed-transactions.py "$work/bench.db" "$project" "$total" >/dev/null
    .venv/bin/python bench/make-jwts.py "$(field cdpApiKeyId)" "$(field cdpApiKeySecret)" "127.0.0.1:$port" \
        "$tx_path" 20000 "$work/jwts.txt"
    REPLAY_FILE="$work/jwts.txt" REPLAY_MODE=bearer REPLAY_THREADS=$tx_threads REPLAY_PATH="$tx_path" \
        run_wrk 8 "$tx_path" $tx_threads >"$work/tx.out"
    printf '%-44s %10s  (p50 %s, %s req/s, non-2xx %s)\n' "transactions API p99 with $total rows" \
        "$(awk '$1 == "99%" {print $2}' "$work/tx.out")" "$(awk '$1 == "50%" {print $2}' "$work/tx.out")" \
        "$(per_second "$work/tx.out")" "$(awk '/Non-2xx/ {print $NF}' "$work/tx.out" | grep . || echo 0)"
done
