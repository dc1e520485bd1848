#!/usr/bin/env bash
# Webhook delivery to an nginx sink (`return 200`, one worker on the load generator's core):
#  1. a backlog: EVENTS (default 20,000) Stripe-family events committed while the server is stopped, spread
#     over PROJECTS (default 16) projects with an endpoint each, then delivered once it starts; events/s
#     from the first attempt to the last success, next to the same server's GET /livez rate (wrk, same run)
#     and wrk's own POST rate to the sink. Spread, so the dispatcher's 256 in-flight slots can all be used:
#     one endpoint may hold 16 of them (its fair share, #45), which bounds what one endpoint receives;
#  2. one endpoint's backlog (EVENTS / 4 events to the first project), the rate its fair share allows;
#  3. latency below saturation: RATE (default 1,000) events/s for 5 s to one endpoint, commit-to-delivery
#     p50/p99 (event created → delivery recorded as succeeded, from the database).
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] [EVENTS=20000] [PROJECTS=16] [RATE=1000] bench/webhook-sink.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
events=${EVENTS:-20000}
projects=${PROJECTS:-16}
rate=${RATE:-1000}
bin=.build/release/onramp
[ -x "$bin" ] || swift build -c release --product onramp >/dev/null
work=$(mktemp -d)
serve_pid=""
cleanup() {
    [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null || true
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
database="sqlite:$work/bench.db"
port=18084
sink=18085
ports_free $port $sink

cat >"$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work;
    client_body_buffer_size 64k;
    proxy_temp_path $work;
    fastcgi_temp_path $work;
    uwsgi_temp_path $work;
    scgi_temp_path $work;
    server {
        listen 127.0.0.1:$sink;
        location / { return 200 'ok'; }
    }
}
CONF
"${client_pin[@]}" nginx -c "$work/nginx.conf" -p "$work"

serve() {
    "${server_pin[@]}" "$bin" serve --port $port --database "$database" --access-log off >>"$work/serve.log" 2>&1 &
    serve_pid=$!
    wait_for "http://127.0.0.1:$port/livez"
}
stop() { kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=""; }

keys=() ids=()
for i in $(seq 1 "$projects"); do
    "$bin" project create --name "SinkBench $i" --json --database "$database" >"$work/project.json"
    keys+=("$(jq -r .stripeSecretKey "$work/project.json")")
    ids+=("$(jq -r .projectId "$work/project.json")")
done
project=${ids[0]}
serve
for i in $(seq 0 $((projects - 1))); do
    curl -sf -u "${keys[$i]}:" "http://127.0.0.1:$port/v1/webhook_endpoints" \
        -d "url=http://127.0.0.1:$sink/hook/$i" -d 'enabled_events[]=*' >/dev/null
done
"${client_pin[@]}" wrk -t"$wrk_threads" -c64 -d10s "http://127.0.0.1:$port/livez" >"$work/livez.out"
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = string.rep("x", 700)
wrk.headers["Content-Type"] = "application/json"
LUA
"${client_pin[@]}" wrk -t"$wrk_threads" -c64 -d10s -s "$work/post.lua" "http://127.0.0.1:$sink/hook" >"$work/sink.out"
stop

query() { .venv/bin/python - "$work/bench.db" "$@"; }
# backlog COUNT PROJECT_IDS…: COUNT events committed with the server stopped, spread over the projects, then
# delivered; sets `delivered` (succeeded deliveries of those projects) and `backlog_rate` (events/s).
backlog() {
    local count=$1 since
    shift
    since=$(date +%s%3N)
    for id in "$@"; do
        "${client_pin[@]}" "$bin" trigger crypto.onramp_session.updated --count $((count / $#)) --project "$id" \
            --database "$database" >/dev/null
    done
    serve
    for _ in $(seq 1 1200); do
        delivered=$(query "$since" <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(
    """SELECT COUNT(*) FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
       WHERE d.status = 'succeeded' AND e.created_at >= ?""", (int(sys.argv[2]),)).fetchone()[0])
PY
)
        [ "$delivered" -ge $((count / $# * $#)) ] && break
        sleep 0.25
    done
    backlog_rate=$(query "$since" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
first, last, n = db.execute(
    """SELECT MIN(a.attempted_at), MAX(d.succeeded_at), COUNT(DISTINCT d.id)
       FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
       JOIN webhook_attempts a ON a.delivery_id = d.id
       WHERE d.status = 'succeeded' AND e.created_at >= ?""", (int(sys.argv[2]),)).fetchone()
print(f"{n / max(1, last - first) * 1000:.0f}")
PY
)
}

echo "committing a backlog of $events events over $projects projects with the server stopped…"
backlog "$events" "${ids[@]}"
spread_delivered=$delivered spread_rate=$backlog_rate
stop
echo "committing a backlog of $((events / 4)) events to one endpoint with the server stopped…"
backlog $((events / 4)) "$project"
one_delivered=$delivered one_rate=$backlog_rate
attempts=$(query <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM webhook_attempts").fetchone()[0])
PY
)

echo "then $rate events/s for 5 s…"
marker=$(date +%s%3N)
"${client_pin[@]}" "$bin" trigger crypto.onramp_session.updated --count $((rate * 5)) --rate "$rate" \
    --project "$project" --database "$database" >/dev/null
sleep 2
latency=$(query "$marker" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute(
    """SELECT d.succeeded_at - e.created_at FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
       WHERE e.created_at >= ? AND d.status = 'succeeded' ORDER BY 1""", (int(sys.argv[2]),)).fetchall()
values = [r[0] for r in rows]
pct = lambda p: values[min(len(values) - 1, int(p / 100 * len(values)))] if values else 0
print(f"{len(values)} {pct(50)} {pct(99)}")
PY
)
read -r delivered p50 p99 <<<"$latency"
livez=$(wrk_rate "$work/livez.out")
printf '%-48s %10s\n' "backlog over $projects endpoints: delivered" "$spread_delivered/$events" \
    "delivery rate over $projects endpoints (events/s)" "$spread_rate" \
    "backlog to one endpoint: delivered" "$one_delivered/$((events / 4))" \
    "delivery rate to one endpoint (events/s)" "$one_rate" "attempts" "$attempts" \
    "server GET /livez (req/s)" "$livez" \
    "wrk POST to the nginx sink (req/s)" "$(wrk_rate "$work/sink.out")" \
    "at $rate events/s: delivered" "$delivered" "commit-to-delivery p50 / p99 (ms)" "$p50 / $p99"
result "webhook delivery, backlog of $events over $projects endpoints, nginx sink" "$spread_rate" "events/s" \
    "GET /livez of the same server (sink POST $(wrk_rate "$work/sink.out")/s)" "$livez" \
    "$(ratio "$spread_rate" "$livez")" "≥ 0.1"
result "webhook delivery, backlog of $((events / 4)) to one endpoint (its fair share: 16 in flight)" "$one_rate" \
    "events/s" "GET /livez of the same server" "$livez" "$(ratio "$one_rate" "$livez")" "(one tenant's share)"
result "webhook commit→delivery p99 at $rate events/s" "$p99" "ms" "goal" "50" "$(ratio "$p99" 50)" "< 1.00 (p99 < 50 ms)"
