#!/usr/bin/env bash
# Runs COMMAND… against a throw-away PostgreSQL cluster and returns the command's exit code.
#
# The cluster lives in a temp dir, listens on 127.0.0.1 at a free port (and a Unix socket inside the
# temp dir), and is stopped and deleted on exit, also on failure. The command sees
#   ONRAMP_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/onramp_test
# initdb and postgres refuse to run as root, so as root they run as the `postgres` user of Debian's
# package; otherwise they run as the current user.
#
# For tests the cluster trades durability for speed (fsync off, in memory when it can). With
# WITH_POSTGRES_DURABLE=1 (the benchmarks) it is durable like the SQLite it is compared with: on disk
# under /tmp, fsync and synchronous_commit on, so an answered commit has reached the disk.
set -euo pipefail
durable=${WITH_POSTGRES_DURABLE:-0}

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARG…]" >&2
  exit 64
fi

# Debian's packages keep the server binaries under /usr/lib/postgresql/VERSION/bin; elsewhere (Homebrew's
# postgresql@15 on a Mac) initdb is found on PATH or in the formula's prefix.
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  if command -v initdb >/dev/null; then
    bindir=$(dirname "$(command -v initdb)")
  elif command -v brew >/dev/null && [ -x "$(brew --prefix postgresql@15)/bin/initdb" ]; then
    bindir="$(brew --prefix postgresql@15)/bin"
  else
    echo "with-postgres: no PostgreSQL server binaries (apt-get install postgresql, or brew install postgresql@15)" >&2
    exit 69
  fi
fi

if [ "$(id -u)" -eq 0 ]; then
  as_owner=(runuser -u postgres --)
  owner=postgres
else
  as_owner=()
  owner=$(id -un)
fi

# In memory when the machine has a writable /dev/shm with room (1 GiB free; a container's default
# 64 MB is not enough): the tests create and drop hundreds of databases, and on ext4 the inode churn
# alone cost more CPU than PostgreSQL's own work.
tmp_root=/tmp
if [ "$durable" != 1 ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  shm_free_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ "${shm_free_kb:-0}" -ge 1048576 ]; then tmp_root=/dev/shm; fi
fi
dir=$(mktemp -d "$tmp_root/onramp-pg.XXXXXX")
chown "$owner" "$dir"
chmod 700 "$dir"

cleanup() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fsync=off
[ "$durable" = 1 ] && fsync=on
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

"${as_owner[@]}" "$bindir/initdb" -D "$dir/data" --auth=trust --username=postgres \
  --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 70; }

"${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
  -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=200 -c fsync=$fsync -c synchronous_commit=on" \
  start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 70; }

"${as_owner[@]}" "$bindir/createdb" -h "$dir" -p "$port" -U postgres onramp_test

export ONRAMP_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/onramp_test"
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
