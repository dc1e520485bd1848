#!/usr/bin/env bash
# Webhook delivery benchmark: commits EVENTS Stripe-family events one transaction each (as the
# Embedded routes do) while `onramp serve` delivers them to a local receiver, then prints the
# delivered events per second and the commit-to-delivery latency (p50/p99). Events are committed as
# fast as possible (a backlog: throughput), or RATE per second (latency below saturation).
#   EVENTS=2000 RATE=0 DATABASE=sqlite:… | postgres://… ONRAMP_BIN=.build/release/onramp bench/webhooks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
events=${EVENTS:-2000}
rate=${RATE:-0}
bin=${ONRAMP_BIN:-.build/release/onramp}
[ -x "$bin" ] || swift build -c release --product onramp
dir=$(mktemp -d /tmp/onramp-webhook-bench.XXXXXX)
database=${DATABASE:-sqlite:$dir/bench.db}
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT

"$bin" project create --name Bench --json --database "$database" >"$dir/project.json"
key=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stripeSecretKey"])' "$dir/project.json")
project=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["projectId"])' "$dir/project.json")

python3 bench/webhook_receiver.py "$dir/arrivals.txt" >"$dir/receiver.port" &
pids+=($!)
"$bin" serve --port 0 --database "$database" --access-log off >"$dir/serve.out" 2>"$dir/serve.err" &
pids+=($!)
for _ in $(seq 100); do
    [ -s "$dir/receiver.port" ] && grep -q listening "$dir/serve.out" && break
    sleep 0.1
done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$dir/serve.out")
receiver=$(cat "$dir/receiver.port")
curl -sf -u "$key:" "http://127.0.0.1:$port/v1/webhook_endpoints" \
    -d "url=http://127.0.0.1:$receiver/hook" -d 'enabled_events[]=*' >/dev/null

start=$(python3 -c 'import time; print(time.time())')
"$bin" trigger crypto.onramp_session.updated --count "$events" --rate "$rate" --project "$project" --database "$database" >/dev/null
committed=$(python3 -c 'import time; print(time.time())')
for _ in $(seq 1200); do
    [ "$(wc -l <"$dir/arrivals.txt" 2>/dev/null || echo 0)" -ge "$events" ] && break
    sleep 0.05
done
"$bin" events list --json --limit "$events" --project "$project" --database "$database" >"$dir/events.json"

python3 - "$dir/arrivals.txt" "$dir/events.json" "$start" "$committed" "$events" "$database" <<'PY'
import json, sys
arrivals_path, events_path, start, committed, expected, database = sys.argv[1:7]
start, committed, expected = float(start), float(committed), int(expected)
arrivals = {}
for line in open(arrivals_path):
    event_id, ms = line.split()
    arrivals.setdefault(event_id, float(ms))
created = {e["id"]: e["createdAt"] for e in json.load(open(events_path))}
latencies = sorted(arrivals[i] - created[i] for i in arrivals if i in created)
last = max(arrivals.values()) / 1000
def pct(p):
    return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))]
print(f"database           {database.split('?')[0].split('@')[-1]}")
print(f"events delivered   {len(arrivals)}/{expected} (duplicates: {sum(1 for _ in open(arrivals_path)) - len(arrivals)})")
print(f"commit rate        {expected / (committed - start):.0f} events/s (one transaction per event)")
print(f"delivery rate      {len(arrivals) / (last - start):.0f} events/s (first commit to last delivery)")
print(f"commit-to-delivery p50 {pct(50):.1f} ms, p99 {pct(99):.1f} ms, max {latencies[-1]:.1f} ms")
PY
