# Shared by the bench scripts (sourced): pinning, and the result rows bench/pinned.sh prints.
#
# SERVER_CPU and CLIENT_CPU (for example 0 and 1) pin what is measured (the server and, in turn, its
# reference: nginx, openssl, localstripe) to one core and the load generator (wrk, event producers,
# sinks) to another; unset, nothing is pinned. WRK_THREADS is wrk's -t (default 2; 1 when pinned).
# With BENCH_RESULTS set, each script appends its rows there, tab-separated:
#   path, our figure, unit, reference, reference figure, ratio, goal.
server_pin=()
client_pin=()
if [ -n "${SERVER_CPU:-}" ]; then server_pin=(taskset -c "$SERVER_CPU"); fi
if [ -n "${CLIENT_CPU:-}" ]; then client_pin=(taskset -c "$CLIENT_CPU"); fi
wrk_threads=${WRK_THREADS:-$([ -n "${CLIENT_CPU:-}" ] && echo 1 || echo 2)}

# ratio A B: A/B with two decimals (0 when B is 0 or missing).
ratio() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# result PATH OURS UNIT REFERENCE REFERENCE_FIGURE RATIO GOAL
result() {
    if [ -n "${BENCH_RESULTS:-}" ]; then printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$BENCH_RESULTS"; fi
}

# ports_free PORT…: exits when something already listens on one of them (a server left over from an
# interrupted run would answer in place of the one a script starts, and be measured instead).
ports_free() {
    local port
    for port in "$@"; do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$(basename "$0"): port $port is already in use (a server left over from an earlier run?)" >&2
            exit 75
        fi
    done
}

# wait_for URL: until it answers (10 s at most).
wait_for() { for _ in $(seq 1 100); do curl -sf "$1" >/dev/null && return 0; sleep 0.1; done; return 1; }

# wrk_rate FILE: the Requests/sec of a wrk output.
wrk_rate() { awk '/Requests\/sec/ {print $2}' "$1"; }
