#!/usr/bin/env bash
# Stripe-style writes: POST /v1/payment_methods (a test card) against onramp and against localstripe
# (PyPI), the same wrk on the same core, each server alone on its core in turn. Each first gets 2,000
# objects (localstripe --from-scratch: it would load the store it pickles to /tmp on every write), then
# two runs of SECONDS each: the rate after 2k objects and after the first run's objects
# (flat as objects grow: the second run's rate over the first's).
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] bench/payment-methods.sh [SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
seconds=${1:-10}
connections=${2:-16}
bin=.build/release/onramp
[ -x "$bin" ] || swift build -c release --product onramp >/dev/null
[ -x .venv-bench/bin/localstripe ] || scripts/install-deps.sh bench
work=$(mktemp -d)
pid=""
cleanup() {
    local status=$?
    if [ "$status" -ne 0 ]; then
        tail -n 20 "$work"/*.log >&2 || true
        ss -ltnp "sport = :$port" >&2 || true
    fi
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
port=18086
ports_free $port
form='type=card&card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=2030&card[cvc]=123'

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = os.getenv("PM_FORM")
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Authorization"] = "Basic " .. os.getenv("PM_AUTH")
LUA

# measure NAME KEY: seeds 2,000 objects over keep-alive, then the two wrk runs; prints "first second".
measure() {
    local auth
    auth=$(printf '%s:' "$2" | base64 -w0)
    .venv/bin/python - "$port" "$auth" "$form" <<'PY'
import http.client, sys
port, auth, form = int(sys.argv[1]), sys.argv[2], sys.argv[3]
import time
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
created, failures = 0, 0
while created < 2000:
    try:
        connection.request("POST", "/v1/payment_methods", form,
            {"Authorization": "Basic " + auth, "Content-Type": "application/x-www-form-urlencoded"})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        created += 1
    except OSError as error:  # a refused or reset connection: say so, reconnect, a few times at most
        failures += 1
        print(f"seeding: {error!r} after {created} objects", file=sys.stderr)
        if failures > 5:
            raise
        connection.close()
        time.sleep(0.5)
PY
    for run in 1 2; do
        PM_FORM=$form PM_AUTH=$auth "${client_pin[@]}" wrk -t"$wrk_threads" -c"$connections" -d"${seconds}s" \
            -s "$work/post.lua" "http://127.0.0.1:$port/v1/payment_methods" >"$work/$1-$run.out"
        if grep -q Non-2xx "$work/$1-$run.out"; then echo "$1: non-2xx answers" >&2; grep Non-2xx "$work/$1-$run.out" >&2; fi
    done
    echo "$(wrk_rate "$work/$1-1.out") $(wrk_rate "$work/$1-2.out")"
}

"$bin" project create --name PaymentMethodsBench --json --database "sqlite:$work/bench.db" >"$work/project.json"
"${server_pin[@]}" "$bin" serve --port $port --database "sqlite:$work/bench.db" --access-log off --rate-limit 0 \
    >"$work/serve.log" 2>&1 &
pid=$!
wait_for "http://127.0.0.1:$port/livez"
read -r ours_first ours_second < <(measure onramp "$(jq -r .stripeSecretKey "$work/project.json")")
kill "$pid"; wait "$pid" 2>/dev/null || true

"${server_pin[@]}" .venv-bench/bin/localstripe --port $port --from-scratch >"$work/localstripe.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/v1/customers" && break; sleep 0.1; done
read -r theirs_first theirs_second < <(measure localstripe sk_test_bench)

printf '%-44s %12s %12s %8s\n' "POST /v1/payment_methods (card), req/s" "after 2k" "after run 1" "flat" \
    "onramp" "$ours_first" "$ours_second" "$(ratio "$ours_second" "$ours_first")" \
    "localstripe $(.venv-bench/bin/pip show localstripe 2>/dev/null | awk '/^Version/ {print $2}')" \
    "$theirs_first" "$theirs_second" "$(ratio "$theirs_second" "$theirs_first")"
echo "onramp ÷ localstripe: $(ratio "$ours_first" "$theirs_first") after 2k objects, $(ratio "$ours_second" "$theirs_second") after run 1"
result "POST /v1/payment_methods (card) after 2k objects" "$ours_first" "req/s" \
    "localstripe, same wrk (onramp flat: $(ratio "$ours_second" "$ours_first") after run 1)" "$theirs_first" \
    "$(ratio "$ours_first" "$theirs_first")" "≥ 50"
