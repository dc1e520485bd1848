#!/usr/bin/env bash
# Runs the README's tour as a reader would: every ```sh block after a `<!-- tour -->` line, in order, in one
# shell (bash -e, pipefail), in a fresh folder where a fresh server runs as terminal 1 starts it (a test
# App Attest CA it trusts, ./onramp.db, the console token kept in that folder's ONRAMP_HOME). Fails when a
# line fails, so the README cannot drift from what works. Prints the tour's own output.
#
# Usage: scripts/tour.sh            (ONRAMP=path/to/onramp; default .build/debug/onramp, which make test builds)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
onramp=$(cd "$root" && realpath "${ONRAMP:-.build/debug/onramp}")
work=$(mktemp -d /tmp/onramp-tour.XXXXXX)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

blocks=$(python3 - "$root/README.md" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
blocks = re.findall(r"<!-- tour -->\n```sh\n(.*?)```", text, re.S)
if not blocks:
    sys.exit("tour.sh: no tour blocks in README.md")
print("\n".join(blocks))
PY
)

cd "$work"
export ONRAMP_HOME="$work/home"
"$onramp" appattest ca create --out ca > /dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$onramp" serve --port "$port" --trust-appattest-root ca/root.pem --access-log off > server.log 2>&1 &
server=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && break
    sleep 0.1
done

BASE="http://127.0.0.1:$port" ONRAMP="$onramp" bash -euo pipefail -c \
    "trap 'echo \"tour.sh: this line failed: \$BASH_COMMAND\" >&2' ERR
$blocks"
echo "tour.sh: every tour block ran"
