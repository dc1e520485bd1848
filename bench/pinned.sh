#!/usr/bin/env bash
# Every hot path measured with the server alone on one core against its physical reference (issue #15):
# the server, and in turn each reference (nginx with one worker, `openssl speed`, localstripe), run
# under `taskset -c SERVER_CPU`, the load generator (wrk -t1, event producers, the webhook sink) under
# `taskset -c CLIENT_CPU`. Runs every script in bench/ that way and prints one table: our figure, the
# reference measured in the same run, the ratio and the goal. PostgreSQL rows run the same session and
# checkout loads, each on a throw-away PostgreSQL 15 cluster (scripts/with-postgres.sh), its server on the
# server's core too, durable like the SQLite it is compared with (on disk, fsync on).
# Usage: [SERVER_CPU=0] [CLIENT_CPU=1] bench/pinned.sh      (`make bench` runs it after building)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(nproc)" -ge 2 ] || { echo "bench/pinned.sh needs two cores (one for the server, one for the load)" >&2; exit 69; }
export SERVER_CPU=${SERVER_CPU:-0} CLIENT_CPU=${CLIENT_CPU:-1} WRK_THREADS=1
BENCH_RESULTS=$(mktemp)
export BENCH_RESULTS
trap 'rm -f "$BENCH_RESULTS"' EXIT
[ -x .build/release/onramp ] || swift build -c release --product onramp
scripts/install-deps.sh bench >/dev/null

section() { printf '\n=== %s ===\n' "$1"; }
section "HTTP: /livez and /healthz against nginx"; bench/http.sh 12 64
section "HTTP: instructions per request, counted (callgrind)"; bench/instructions.sh 20000 1000
# Each PostgreSQL row runs right after its SQLite row, so that this machine's drift over the minutes of
# a run stays out of their ratio, and on a cluster of its own, as each SQLite row has a database of its
# own (the pairs do not run behind the sessions' leftovers: their WAL, checkpoint and vacuum).
on_postgres() { WITH_POSTGRES_DURABLE=1 taskset -c "$SERVER_CPU" scripts/with-postgres.sh bash -c "$1"; }
section "App2App attested sessions against openssl speed, SQLite then PostgreSQL 15"
bench/app2app.sh 12000 32
on_postgres 'APP2APP_DATABASE=$ONRAMP_TEST_POSTGRES_URL BENCH_LABEL=PostgreSQL bench/app2app.sh 12000 32'
section "Embedded create + checkout, SQLite then PostgreSQL 15"
bench/embedded.sh 20 16 4
on_postgres 'EMBEDDED_BENCH_DATABASE=$ONRAMP_TEST_POSTGRES_URL BENCH_LABEL=PostgreSQL bench/embedded.sh 20 16 4'
section "Webhook delivery to an nginx sink"; bench/webhook-sink.sh
section "POST /v1/payment_methods against localstripe"; bench/payment-methods.sh 10 16
section "Memory under 2,000 connections"; bench/memory.sh 30 2000

section "Summary"
echo "$(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores" \
    "($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), $(uname -sr);" \
    "server on core $SERVER_CPU, load on core $CLIENT_CPU"
python3 - "$BENCH_RESULTS" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
by_path = {row[0]: row for row in rows}
# PostgreSQL beside SQLite: the same load's rate on both, goal ≥ 0.5.
for row in list(rows):
    if row[0].endswith("(PostgreSQL)"):
        sqlite = by_path.get(row[0].replace("(PostgreSQL)", "(SQLite)"))
        if sqlite and float(sqlite[1] or 0) > 0:
            rows.append([row[0].replace("(PostgreSQL)", "PostgreSQL ÷ SQLite"), row[1], row[2],
                         "the same run on SQLite", sqlite[1], f"{float(row[1]) / float(sqlite[1]):.2f}", "≥ 0.5"])
print("| path | ours | reference (same run) | reference | ratio | goal |")
print("|---|---|---|---|---|---|")
for path, ours, unit, reference, figure, ratio, goal in rows:
    print(f"| {path} | {ours} {unit} | {reference} | {figure} | **{ratio}** | {goal} |")
PY
