#!/usr/bin/env bash
# Instructions per request, counted rather than timed: each server runs under valgrind's callgrind,
# which counts every user-space instruction it executes, the same on every run (the rates the other
# scripts print drift by a third within an hour on a shared virtual machine). One keep-alive
# connection sends WARMUP requests, the counters are zeroed, REQUESTS more are sent and the counters
# dumped, then counted as long again with no request and that subtracted (the server's own background
# work): per request, onramp's /livez and /healthz against libmicrohttpd alone with its C handler
# (bench/reference, the ceiling of onramp's edge). /livez repeats to within 0.1 % run to run, /healthz
# to within about 5 % (a store's background work, such as a checkpoint, falls in one window or the
# other). The kernel's work (the loopback TCP path, the same for both) is not counted. libc's memset is printed apart: callgrind counts a `rep stosb` once per byte
# it stores, and libmicrohttpd clears each connection's memory pool for every request, so it would
# swamp the rest, where the CPU clears those bytes dozens per cycle.
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] bench/instructions.sh [REQUESTS] [WARMUP]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
requests=${1:-20000}
warmup=${2:-1000}
command -v valgrind >/dev/null || { echo "bench/instructions.sh needs valgrind (apt-get install valgrind)" >&2; exit 69; }
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

[ -x .build/release/onramp ] || swift build -c release --product onramp >/dev/null
port_onramp=18088
port_mhd=18089
ports_free $port_onramp $port_mhd
gcc -O2 -o "$work/mhd-return-200" bench/reference/mhd-return-200.c -lmicrohttpd

# send PORT PATH COUNT: COUNT requests on one keep-alive connection, each answered 200.
send() {
    "${client_pin[@]}" python3 - "$@" <<'PY'
import http.client, sys
port, path, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
for _ in range(count):
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        sys.exit(f"{path} answered {response.status}")
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

# dump NAME PID: writes NAME's counters since they were last zeroed to the next numbered dump, and
# sets `dumped` to its path once written.
dump() {
    callgrind_control -d "$2" >/dev/null 2>&1
    dumps=$((dumps + 1))
    dumped="$work/$1.out.$dumps"
    for _ in $(seq 1 100); do [ -s "$dumped" ] && break; sleep 0.1; done
}

# measure NAME PORT PID PATH…: for each PATH on the server running under callgrind as NAME, warmed up,
# then REQUESTS counted; and as long again with no request, so that the server's own background work
# (its workers' periodic checks) is subtracted. Appends "PATH all memset" per request to NAME.counts.
measure() {
    local name=$1 port=$2 pid=$3
    shift 3
    local path started elapsed total memset idle
    dumps=0
    for path in "$@"; do
        send "$port" "$path" "$warmup"
        callgrind_control -z "$pid" >/dev/null 2>&1
        started=$(date +%s%N)
        send "$port" "$path" "$requests"
        elapsed=$(($(date +%s%N) - started))
        dump "$name" "$pid"
        read -r total memset < <(counts "$dumped")
        callgrind_control -z "$pid" >/dev/null 2>&1
        sleep "$(awk -v ns="$elapsed" 'BEGIN { printf "%.3f", ns / 1e9 }')"
        dump "$name" "$pid"
        read -r idle _ < <(counts "$dumped")
        echo "$path $(((total - idle) / requests)) $((memset / requests))" >>"$work/$name.counts"
    done
}

callgrind=(valgrind --tool=callgrind --dump-instr=no --collect-jumps=no)
"${server_pin[@]}" "${callgrind[@]}" --callgrind-out-file="$work/mhd.out" "$work/mhd-return-200" $port_mhd 1 \
    >"$work/mhd.log" 2>&1 &
mhd_pid=$!
"${server_pin[@]}" "${callgrind[@]}" --callgrind-out-file="$work/onramp.out" .build/release/onramp serve \
    --port $port_onramp --database "sqlite:$work/bench.db" --access-log off >"$work/onramp.log" 2>&1 &
onramp_pid=$!
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port_mhd/" >/dev/null && break; sleep 0.2; done
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port_onramp/livez" >/dev/null && break; sleep 0.2; done
measure mhd $port_mhd $mhd_pid /
measure onramp $port_onramp $onramp_pid /livez /healthz

count() { awk -v p="$2" -v f="$3" '$1 == p { print $f }' "$work/$1.counts"; }
reference_total=$(count mhd / 2)
reference_memset=$(count mhd / 3)
reference_rest=$((reference_total - reference_memset))
echo "user-space instructions per request (callgrind; $requests requests on one keep-alive connection after $warmup)"
printf '%-34s %10s %10s %12s %s\n' "" "all" "memset" "outside it" "libmicrohttpd alone ÷ onramp, outside memset"
printf '%-34s %10s %10s %12s\n' "libmicrohttpd alone (C handler)" "$reference_total" "$reference_memset" "$reference_rest"
for path in /livez /healthz; do
    total=$(count onramp "$path" 2)
    memset=$(count onramp "$path" 3)
    rest=$((total - memset))
    share=$(ratio "$reference_rest" "$rest")
    printf '%-34s %10s %10s %12s %s\n' "onramp $path" "$total" "$memset" "$rest" "$share"
    result "GET $path, user-space instructions per request outside memset (counted)" "$rest" "instructions" \
        "libmicrohttpd alone, C handler, counted the same way" "$reference_rest" "$share" \
        "(counted: the reference's share of ours)"
done
