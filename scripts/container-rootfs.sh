#!/usr/bin/env bash
# What the Dockerfile's runtime stage runs, proven without a container engine: builds the stage's root
# filesystem from Debian packages (debootstrap, bookworm, the image's own container/runtime-packages.txt),
# adds the image's non-root user and the statically linked `onramp` built the way the build stage builds
# it, then in a chroot as that user: `ldd` of the binary (no Swift runtime library), `onramp serve`
# answering the image's health check (`curl -fsS /healthz`) and `onramp demo` passing.
#
# Needs root (debootstrap, chroot, mounts) and the network to a Debian mirror; takes a few minutes, so it
# is not part of `make test`. Usage: scripts/container-rootfs.sh [ROOTFS_DIR]   (default /tmp/onramp-rootfs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rootfs=${1:-/tmp/onramp-rootfs}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
port=${PORT:-18080}
[ "$(id -u)" -eq 0 ] || { echo "container-rootfs.sh needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >/dev/null

echo "== build: swift build -c release --static-swift-stdlib --product onramp"
(cd "$root" && ${SWIFT:-swift} build -c release --static-swift-stdlib --product onramp \
    --scratch-path .build/static 2>&1 | tail -1)
binary="$root/.build/static/release/onramp"

if [ ! -x "$rootfs/usr/bin/curl" ]; then
    echo "== debootstrap bookworm (minbase) + $(paste -sd' ' "$root/container/runtime-packages.txt")"
    rm -rf "$rootfs"
    debootstrap --variant=minbase --include="$(paste -sd, "$root/container/runtime-packages.txt")" \
        bookworm "$rootfs" "$mirror" > /tmp/onramp-debootstrap.log 2>&1 \
        || { tail -20 /tmp/onramp-debootstrap.log; exit 1; }
    chroot "$rootfs" useradd --system --uid 10001 --home-dir /data --create-home onramp
fi
install -D "$binary" "$rootfs/usr/local/bin/onramp"

mounted=()
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for point in proc dev; do
    if [ "$point" = proc ]; then mount -t proc proc "$rootfs/proc"; else mount --bind /dev "$rootfs/dev"; fi
    mounted+=("$rootfs/$point")
done
as_user=(chroot --userspec=10001:10001 "$rootfs" env HOME=/data)

echo "== image: $(du -sh --exclude=proc --exclude=dev "$rootfs" | cut -f1) root filesystem," \
    "binary $(du -h "$rootfs/usr/local/bin/onramp" | cut -f1)"
echo "== ldd /usr/local/bin/onramp (in the image)"
chroot "$rootfs" ldd /usr/local/bin/onramp | sed 's/ (0x[0-9a-f]*)//'
if chroot "$rootfs" ldd /usr/local/bin/onramp | grep -q libswift; then
    echo "FAIL: the binary links a Swift runtime library" >&2
    exit 1
fi

echo "== onramp serve (as uid 10001, database on /data)"
rm -f "$rootfs"/data/onramp.db*
"${as_user[@]}" /usr/local/bin/onramp serve --host 127.0.0.1 --port "$port" \
    --database sqlite:/data/onramp.db --access-log off > /tmp/onramp-rootfs-serve.log 2>&1 &
server=$!
for _ in $(seq 1 100); do
    "${as_user[@]}" curl -fsS "http://127.0.0.1:$port/healthz" > /tmp/onramp-rootfs-health.json 2>/dev/null && break
    sleep 0.1
done
echo "== the image's health check: curl -fsS http://127.0.0.1:$port/healthz"
cat /tmp/onramp-rootfs-health.json; echo
head -1 /tmp/onramp-rootfs-serve.log   # the next line holds the console token

echo "== onramp demo (as uid 10001)"
"${as_user[@]}" /usr/local/bin/onramp demo
echo "== container-rootfs: passed"
