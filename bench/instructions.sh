#!/usr/bin/env bash
# Instructions, counted rather than timed: each server runs under valgrind's callgrind, which counts
# every user-space instruction it executes, the same on every run (the rates the other scripts print
# drift by a third within an hour on a shared virtual machine). One keep-alive connection warms a path
# up, the counters are zeroed, COUNT more requests are sent and the counters dumped, then counted as
# long again with no request and that subtracted (the server's own background work). The rows:
# - /livez and /healthz per request against libmicrohttpd alone with its C handler (bench/reference,
#   the ceiling of onramp's edge). libc's memset is printed apart and left out of their ratio:
#   callgrind counts a `rep stosb` once per byte it stores, and libmicrohttpd clears each connection's
#   memory pool for every request, where the CPU clears those bytes dozens per cycle.
# - an attested session (SQLite, its challenge prepared ahead, as in bench/app2app.sh, each session its
#   own commit) against one ECDSA P-256 verify as `openssl speed` makes it (bench/reference): the
#   instruction count of the goal that sessions take no more than twice a verify.
# - an Embedded create + checkout pair for a pre-authorised customer (bench/embedded-customers.sh), its
#   fulfilment included (the window lasts until the last session is fulfilled), against /livez.
# The kernel's work (TCP on loopback, the disk's flushes) is not counted, nor are the cycles an
# instruction waits on memory: these figures say how much work a path does, the timed rows how long
# it takes. /livez repeats to within 0.1 % run to run, the store's paths to within a few percent
# (/healthz 4 %, sessions and pairs 1.5 %: the store's background work, such as a checkpoint, falls in
# one window or the other); per-function counts in the kept dumps do not move.
# SERVE_FLAGS adds flags to every onramp server it counts; by default "--request-bodies 0": the request log
# keeps the bodies of 50 requests a second, a share that depends on how fast the server runs (under
# valgrind, most requests), so per-request counts are made without them and a kept body is counted apart
# (SERVE_FLAGS="--request-bodies 100000" keeps every one).
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] [KEEP_DUMPS=DIR] [SERVE_FLAGS=…] bench/instructions.sh [REQUESTS] [SESSIONS] [PAIRS]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
SERVE_FLAGS=${SERVE_FLAGS---request-bodies 0}
requests=${1:-20000}
sessions=${2:-1000}
pairs=${3:-300}
command -v valgrind >/dev/null || { echo "bench/instructions.sh needs valgrind (apt-get install valgrind)" >&2; exit 69; }
work=$(mktemp -d)
# KEEP_DUMPS=DIR keeps the callgrind dumps there (per function: the `fn=` records of each file).
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true
      [ -n "${KEEP_DUMPS:-}" ] && mkdir -p "$KEEP_DUMPS" && cp "$work"/*.out.* "$KEEP_DUMPS"/; rm -rf "$work"' EXIT

[ -x .build/release/onramp ] || swift build -c release --product onramp >/dev/null
onramp=.build/release/onramp
port_onramp=18088
port_mhd=18089
ports_free $port_onramp $port_mhd
gcc -O2 -o "$work/mhd-return-200" bench/reference/mhd-return-200.c -lmicrohttpd
gcc -O2 -o "$work/ecdsa-verify" bench/reference/ecdsa-verify.c -lcrypto

# send PORT PATH COUNT [BODIES FIRST]: COUNT requests on one keep-alive connection, each answered 2xx:
# GETs of PATH, or POSTs of the JSON bodies on lines FIRST, FIRST+1, … of the file BODIES.
# send PORT pairs COUNT FIXTURES SECRET_KEY: COUNT Embedded session creates, each checked out, for the
# first customer of FIXTURES (bench/embedded-customers.sh); then waits until the last one is fulfilled.
send() {
    "${client_pin[@]}" python3 - "$@" <<'PY'
import http.client, json, sys, time, urllib.parse
port, path, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

def call(method, target, body=None, headers={}):
    connection.request(method, target, body, headers)
    response = connection.getresponse()
    answer = response.read()
    if not 200 <= response.status < 300:
        sys.exit(f"{method} {target} answered {response.status}: {answer[:300]!r}")
    return answer

if path == "pairs":
    access, customer, token, wallet = open(sys.argv[4]).readline().split()
    headers = {"Authorization": "Bearer " + sys.argv[5], "Stripe-OAuth-Token": access,
               "Content-Type": "application/x-www-form-urlencoded"}
    create = urllib.parse.urlencode({
        "ui_mode": "headless", "crypto_customer_id": customer, "payment_token": token, "source_amount": "20.00",
        "source_currency": "usd", "destination_currency": "usdc", "destination_network": "base",
        "wallet_address": wallet})
    for _ in range(count):
        session = json.loads(call("POST", "/v1/crypto/onramp_sessions", create, headers))["id"]
        status = json.loads(call("POST", f"/v1/crypto/onramp_sessions/{session}/checkout", "", headers))["status"]
        if status != "fulfillment_processing":
            sys.exit(f"checkout of {session} answered {status}")
    for _ in range(1200):
        if json.loads(call("GET", f"/v1/crypto/onramp_sessions/{session}", None, headers))["status"] != "fulfillment_processing":
            break
        time.sleep(0.1)
    sys.exit(0)
bodies = open(sys.argv[4]).read().splitlines()[int(sys.argv[5]):] if len(sys.argv) > 4 else None
for index in range(count):
    if bodies is None:
        call("GET", path)
    else:
        call("POST", path, bodies[index], {"Content-Type": "application/json"})
PY
}

# counts FILE: "instructions memset" in a callgrind dump: all it counted, and what libc's memset did.
counts() {
    python3 - "$1" <<'PY'
import re, sys
names, current, pending, total, memset = {}, None, False, 0, 0
for line in open(sys.argv[1]):
    if line.startswith(("summary:", "totals:")) and not total:
        total = int(line.split()[1])
    elif line.startswith(("fn=", "cfn=")):
        match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
        if match.group(2):
            names[match.group(1)] = match.group(2)
        if line.startswith("fn="):
            current = names.get(match.group(1), "")
    elif line.startswith("calls="):
        pending = True  # the next cost line is the call's inclusive cost, not the function's own
    elif re.match(r"^([+-]?\d+|\*) \d+$", line):
        if pending:
            pending = False
        elif "memset" in current:
            memset += int(line.split()[1])
print(total, memset)
PY
}

callgrind=(valgrind --tool=callgrind --dump-instr=no --collect-jumps=no)
# start NAME COMMAND…: COMMAND under callgrind on the server's core, its dumps in $work/NAME.out.N.
start() {
    local name=$1
    shift
    "${server_pin[@]}" "${callgrind[@]}" --callgrind-out-file="$work/$name.out" "$@" >"$work/$name.log" 2>&1 &
    started_pid=$!
    dumps=0
}

# dump NAME PID: writes NAME's counters since they were last zeroed to its next numbered dump, and
# sets `dumped` to its path once written.
dump() {
    callgrind_control -d "$2" >/dev/null 2>&1
    dumps=$((dumps + 1))
    dumped="$work/$1.out.$dumps"
    for _ in $(seq 1 100); do [ -s "$dumped" ] && break; sleep 0.1; done
}

# measure NAME PID LABEL COUNT SEND_ARGS…: `send SEND_ARGS…` counted (COUNT requests) and as long again
# idle, the idle count subtracted; appends "LABEL all memset" per request to $work/counts.
measure() {
    local name=$1 pid=$2 label=$3 count=$4 began elapsed total memset idle
    shift 4
    callgrind_control -z "$pid" >/dev/null 2>&1
    began=$(date +%s%N)
    send "$@"
    elapsed=$(($(date +%s%N) - began))
    dump "$name" "$pid"
    read -r total memset < <(counts "$dumped")
    callgrind_control -z "$pid" >/dev/null 2>&1
    sleep "$(awk -v ns="$elapsed" 'BEGIN { printf "%.3f", ns / 1e9 }')"
    dump "$name" "$pid"
    read -r idle _ < <(counts "$dumped")
    echo "$label $(((total - idle) / count)) $((memset / count))" >>"$work/counts"
}
count_of() { awk -v label="$1" -v field="$2" '$1 == label { print $field }' "$work/counts"; }
outside_memset() { echo $(($(count_of "$1" 2) - $(count_of "$1" 3))); }
# wait_served URL: until it answers, two minutes at most (a server starts slowly under valgrind).
wait_served() { for _ in $(seq 1 600); do curl -sf "$1" >/dev/null && return 0; sleep 0.2; done; return 1; }

# HTTP: libmicrohttpd alone, then onramp's /livez and /healthz.
start mhd "$work/mhd-return-200" $port_mhd 1
wait_served "http://127.0.0.1:$port_mhd/"
send $port_mhd / 1000
measure mhd $started_pid libmicrohttpd "$requests" $port_mhd / "$requests"
kill "$started_pid" 2>/dev/null; wait "$started_pid" 2>/dev/null || true
start onramp $onramp serve --port $port_onramp --database "sqlite:$work/http.db" --access-log off $SERVE_FLAGS
wait_served "http://127.0.0.1:$port_onramp/livez"
for path in /livez /healthz; do
    send $port_onramp $path 1000
    measure onramp $started_pid $path "$requests" $port_onramp $path "$requests"
done
kill "$started_pid" 2>/dev/null; wait "$started_pid" 2>/dev/null || true

# Attested sessions: challenges and keys prepared by a server running natively, then the sessions sent
# to the same database served under callgrind.
app_id=ABCDE12345.com.example.bench
$onramp appattest ca create --out "$work/ca" >/dev/null
project=$($onramp project create --name Bench --app-id $app_id --redirect-host bench.example.com \
    --database "sqlite:$work/sessions.db" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["projectId"])')
serve_sessions=(serve --port $port_onramp --database "sqlite:$work/sessions.db" --trust-appattest-root "$work/ca/root.pem"
    --rate-limit 0 --project-rate-limit 0 --access-log off $SERVE_FLAGS)
$onramp "${serve_sessions[@]}" >"$work/prepare.log" 2>&1 &
preparer=$!
wait_served "http://127.0.0.1:$port_onramp/livez"
$onramp bench-fixtures app2app --server "http://127.0.0.1:$port_onramp" --project "$project" --app-id $app_id \
    --ca "$work/ca" --redirect-host bench.example.com --count $((sessions + 100)) --out "$work/sessions.txt" >/dev/null
kill $preparer; wait $preparer 2>/dev/null || true
start sessions $onramp "${serve_sessions[@]}"
wait_served "http://127.0.0.1:$port_onramp/livez"
send $port_onramp /platform/v2/onramp/mobile/sessions 100 "$work/sessions.txt" 0
measure sessions $started_pid session "$sessions" \
    $port_onramp /platform/v2/onramp/mobile/sessions "$sessions" "$work/sessions.txt" 100
kill "$started_pid" 2>/dev/null; wait "$started_pid" 2>/dev/null || true

# Embedded pairs: customers prepared by a server running natively, then the pairs sent to the same
# database served under callgrind.
$onramp project create --name EmbeddedBench --database "sqlite:$work/pairs.db" --json >"$work/pairs-project.json"
serve_pairs=(serve --port $port_onramp --database "sqlite:$work/pairs.db" --access-log off $SERVE_FLAGS)
$onramp "${serve_pairs[@]}" >"$work/prepare-pairs.log" 2>&1 &
preparer=$!
wait_served "http://127.0.0.1:$port_onramp/healthz"
bench/embedded-customers.sh "http://127.0.0.1:$port_onramp" "$work/pairs-project.json" 1 "$work/customers.txt"
kill $preparer; wait $preparer 2>/dev/null || true
secret_key=$(jq -r .stripeSecretKey "$work/pairs-project.json")
start pairs $onramp "${serve_pairs[@]}"
wait_served "http://127.0.0.1:$port_onramp/healthz"
send $port_onramp pairs 30 "$work/customers.txt" "$secret_key"
measure pairs $started_pid pair "$pairs" $port_onramp pairs "$pairs" "$work/customers.txt" "$secret_key"
kill "$started_pid" 2>/dev/null; wait "$started_pid" 2>/dev/null || true

# One verify: the reference program with 100 and with 100 + SESSIONS verifies, the difference.
verify_total() {
    "${server_pin[@]}" "${callgrind[@]}" --callgrind-out-file="$work/verify.$1" "$work/ecdsa-verify" "$1" >/dev/null 2>&1
    counts "$work/verify.$1" | awk '{ print $1 }'
}
verify=$((($(verify_total $((sessions + 100))) - $(verify_total 100)) / sessions))

echo "user-space instructions (callgrind): $requests requests per path, $sessions sessions, one keep-alive connection"
printf '%-36s %10s %10s %12s %s\n' "" "all" "memset" "outside it" "reference ÷ onramp"
reference_rest=$(outside_memset libmicrohttpd)
printf '%-36s %10s %10s %12s\n' "libmicrohttpd alone, per request" "$(count_of libmicrohttpd 2)" \
    "$(count_of libmicrohttpd 3)" "$reference_rest"
for path in /livez /healthz; do
    share=$(ratio "$reference_rest" "$(outside_memset $path)")
    printf '%-36s %10s %10s %12s %s\n' "onramp $path, per request" "$(count_of $path 2)" "$(count_of $path 3)" \
        "$(outside_memset $path)" "$share"
    result "GET $path, user-space instructions per request outside memset (counted)" "$(outside_memset $path)" \
        "instructions" "libmicrohttpd alone, C handler, counted the same way" "$reference_rest" "$share" \
        "(counted: the reference's share of ours)"
done
printf '%-36s %10s\n' "ECDSA P-256 verify (EVP_PKEY_verify)" "$verify"
share=$(ratio "$verify" "$(count_of session 2)")
printf '%-36s %10s %10s %12s %s\n' "onramp attested session (SQLite)" "$(count_of session 2)" "$(count_of session 3)" \
    "" "$share"
result "attested session (SQLite), user-space instructions per session (counted)" "$(count_of session 2)" \
    "instructions" "one ECDSA P-256 verify, counted the same way" "$verify" "$share" \
    "(counted: the verify's share; the timed goal is ≥ 0.5)"
livez_all=$(count_of /livez 2)
share=$(ratio "$livez_all" "$(count_of pair 2)")
printf '%-36s %10s %10s %12s %s\n' "onramp Embedded pair (SQLite)" "$(count_of pair 2)" "$(count_of pair 3)" "" \
    "$share (of /livez, memset included)"
result "Embedded create + checkout pair (SQLite), user-space instructions per pair (counted)" "$(count_of pair 2)" \
    "instructions" "GET /livez, counted the same way" "$livez_all" "$share" \
    "(counted: /livez's share; the timed goal is ≥ 0.1)"
