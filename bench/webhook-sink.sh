#!/usr/bin/env bash
# Webhook delivery to an nginx sink (`return 200`, one worker on the load generator's core):
#  1. a backlog: EVENTS (default 20,000) Stripe-family events committed while the server is stopped,
#     then delivered once it starts; events/s from the first attempt to the last success, next to the
#     same server's GET /livez rate (wrk, same run) and wrk's own POST rate to the sink;
#  2. latency below saturation: RATE (default 1,000) events/s for 5 s, commit-to-delivery p50/p99
#     (event created → delivery recorded as succeeded, from the database).
# Usage: [SERVER_CPU=0 CLIENT_CPU=1] [EVENTS=20000] [RATE=1000] bench/webhook-sink.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
events=${EVENTS:-20000}
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

"$bin" project create --name SinkBench --json --database "$database" >"$work/project.json"
key=$(jq -r .stripeSecretKey "$work/project.json")
project=$(jq -r .projectId "$work/project.json")
serve
curl -sf -u "$key:" "http://127.0.0.1:$port/v1/webhook_endpoints" -d "url=http://127.0.0.1:$sink/hook" \
    -d 'enabled_events[]=*' >/dev/null
"${client_pin[@]}" wrk -t"$wrk_threads" -c64 -d10s "http://127.0.0.1:$port/livez" >"$work/livez.out"
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = string.rep("x", 700)
wrk.headers["Content-Type"] = "application/json"
LUA
"${client_pin[@]}" wrk -t"$wrk_threads" -c64 -d10s -s "$work/post.lua" "http://127.0.0.1:$sink/hook" >"$work/sink.out"
stop

echo "committing a backlog of $events events with the server stopped…"
"${client_pin[@]}" "$bin" trigger crypto.onramp_session.updated --count "$events" --project "$project" \
    --database "$database" >/dev/null
serve
query() { .venv/bin/python - "$work/bench.db" "$@"; }
for _ in $(seq 1 1200); do
    done_count=$(query <<'PY'
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'succeeded'").fetchone()[0])
PY
)
    [ "$done_count" -ge "$events" ] && break
    sleep 0.25
done
backlog_rate=$(query <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
first, last, n = db.execute(
    "SELECT (SELECT MIN(attempted_at) FROM webhook_attempts), MAX(succeeded_at), COUNT(*) FROM webhook_deliveries WHERE status = 'succeeded'"
).fetchone()
print(f"{n / max(1, last - first) * 1000:.0f}")
PY
)
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
printf '%-48s %10s\n' "backlog delivered (events)" "$done_count/$events" "attempts" "$attempts" \
    "delivery rate (events/s)" "$backlog_rate" "server GET /livez (req/s)" "$livez" \
    "wrk POST to the nginx sink (req/s)" "$(wrk_rate "$work/sink.out")" \
    "at $rate events/s: delivered" "$delivered" "commit-to-delivery p50 / p99 (ms)" "$p50 / $p99"
result "webhook delivery, backlog of $events, nginx sink" "$backlog_rate" "events/s" \
    "GET /livez of the same server (sink POST $(wrk_rate "$work/sink.out")/s)" "$livez" \
    "$(ratio "$backlog_rate" "$livez")" "≥ 0.1"
result "webhook commit→delivery p99 at $rate events/s" "$p99" "ms" "goal" "50" "$(ratio "$p99" 50)" "< 1.00 (p99 < 50 ms)"
