#!/usr/bin/env python3
"""Holds idle and slow connections against a server on loopback while checking that /healthz answers
from a fresh connection within a second at every sample; prints the counts and exits non-zero when a
sample failed. Bounded: loopback only, a fixed number of sockets, a fixed duration.

  scripts/hold-connections.py --port 8080 [--idle 2000] [--slow 1000] [--kept 0] [--seconds 30]

Idle sockets connect and send nothing; slow ones send a request head one header line every 5-20 s
(slowloris); kept ones make one keep-alive request (GET /livez) and then stay open, idle, as a client
between requests does (the server keeps such a connection's buffers). Both come from 127.0.0.2 and up (all of 127.0.0.0/8 is loopback), at most --per-address
each, so the per-address cap does not hide the total; the checker connects from 127.0.0.1. Whatever the
server closes is opened again at once, so the pressure holds for the whole run.
"""
import argparse
import random
import resource
import selectors
import socket
import sys
import time


def raise_descriptor_limit(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(needed, soft)), hard))


class Flood:
    def __init__(self, port, idle, slow, per_address, kept=0):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.slots = (
            [("idle", i) for i in range(idle)] + [("slow", i) for i in range(slow)] + [("kept", i) for i in range(kept)]
        )
        self.positions = {slot: index for index, slot in enumerate(self.slots)}
        self.per_address = per_address
        self.sockets = {}  # slot -> (socket, next send time, header lines sent)
        self.opened = 0
        self.closed_by_server = 0
        self.refused = 0

    def address(self, index):
        block = index // self.per_address
        return f"127.0.{2 + block // 250}.{2 + block % 250}"

    def open(self, slot, now):
        index = self.positions[slot]
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((self.address(index), 0))
            sock.connect_ex(("127.0.0.1", self.port))
        except OSError:
            sock.close()
            self.refused += 1
            return
        self.selector.register(sock, selectors.EVENT_READ, slot)
        self.sockets[slot] = (sock, now + random.uniform(5, 20), 0)
        self.opened += 1

    def open_all(self):
        now = time.monotonic()
        for slot in self.slots:
            self.open(slot, now)

    def step(self, timeout):
        now = time.monotonic()
        for key, _ in self.selector.select(timeout):
            slot = key.data
            sock = key.fileobj
            try:
                data = sock.recv(4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data:
                self.selector.unregister(sock)
                sock.close()
                del self.sockets[slot]
                self.closed_by_server += 1
                self.open(slot, now)
        for slot, (sock, due, lines) in list(self.sockets.items()):
            if slot[0] == "kept" and lines == 0:
                try:
                    sock.send(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
                    self.sockets[slot] = (sock, due, 1)
                except OSError:
                    pass  # not connected yet: the next step tries again
                continue
            if slot[0] != "slow" or due > now:
                continue
            line = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" if lines == 0 else b"X-Slow-%d: a\r\n" % lines
            try:
                sock.send(line)
            except OSError:
                pass
            self.sockets[slot] = (sock, now + random.uniform(5, 20), lines + 1)

    @property
    def held(self):
        return len(self.sockets)


def check_health(port):
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0, source_address=("127.0.0.1", 0)) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = sock.recv(64)
        elapsed = time.monotonic() - start
        return answer.startswith(b"HTTP/1.1 200"), elapsed
    except OSError:
        return False, time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--slow", type=int, default=1000)
    parser.add_argument("--kept", type=int, default=0, help="keep-alive connections, each after one request")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--per-address", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between /healthz samples")
    args = parser.parse_args()
    raise_descriptor_limit(args.idle + args.slow + args.kept + 256)

    flood = Flood(args.port, args.idle, args.slow, args.per_address, args.kept)
    flood.open_all()
    samples, failures, slowest, min_held = 0, 0, 0.0, None
    deadline = time.monotonic() + args.seconds
    next_sample = time.monotonic() + 1
    while time.monotonic() < deadline:
        flood.step(0.05)
        if time.monotonic() >= next_sample:
            ok, elapsed = check_health(args.port)
            samples += 1
            slowest = max(slowest, elapsed)
            if not ok or elapsed > 1.0:
                failures += 1
            min_held = flood.held if min_held is None else min(min_held, flood.held)
            next_sample = time.monotonic() + args.interval
    print(
        f"idle={args.idle} slow={args.slow} kept={args.kept} seconds={args.seconds:.0f} opened={flood.opened} "
        f"closed_by_server={flood.closed_by_server} refused_at_connect={flood.refused} "
        f"held_at_least={min_held} held_at_end={flood.held} "
        f"healthz_samples={samples} healthz_failures={failures} healthz_slowest_ms={slowest * 1000:.1f}"
    )
    return 1 if failures or samples == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
