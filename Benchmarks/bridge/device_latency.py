"""Latency from a live source (a device) to the pages that watch it (docs/PROTOCOL.md §4).

A device client sends one UIKit-style sample per WebSocket message at 120 Hz (a pan that moves
for five seconds, then ends; again and again); 1, 10 and 200 pages each watch it, with their own
views paused, so what they are sent is the device's gesture through their setting. For each
frame a page receives, the latency is its socket's kernel receive stamp (SO_TIMESTAMPNS) minus
the moment the device client handed the sample to its socket (`time.time_ns()` just before
`send`): the same clock, one machine. Frames are matched to samples by the gesture time they
carry (sample i is at i/120 s). The kernel stamp leaves the client's own scheduling out, so a
slow reader shows as lost frames or back pressure, not as latency; the client's CPU share is
printed too, to show it is not the bottleneck.

The floor is the loopback WebSocket round trip of the same message through `pantrace serve
--echo` (the same libwebsockets server with nothing but an echo behind it), measured the same
way; its half is a one-way floor.

    .venv/bin/python Benchmarks/bridge/device_latency.py [--pantrace .build/release/pantrace] [--seconds 10] [--pages 1,10,200]
"""
import argparse
import json
import multiprocessing
import os
import pathlib
import re
import resource
import select
import shutil
import socket
import struct
import subprocess
import tempfile
import time

import clients

ROOT = pathlib.Path(__file__).resolve().parents[2]
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
RATE = 120
GESTURE_SECONDS = 5
# A live frame's gesture time (sample i is at i/120 s) and translation x (the gesture's number).
GESTURE = re.compile(rb'"gesture":\{"phase":"[a-z]+","time":([-0-9.eE]+),"translation":\{"x":([-0-9.eE]+)')


def start(pantrace, recordings, extra=()):
    env = dict(os.environ, XDG_STATE_HOME=tempfile.mkdtemp(prefix="pantrace-bench-state-"))
    process = subprocess.Popen([pantrace, "serve", "--port", "0", "--recordings", str(recordings), "--web", str(ROOT / "web"), *extra],
                               stdout=subprocess.PIPE, stderr=open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "w"), text=True, env=env)
    line = process.stdout.readline()
    match = re.search(r"http://[\d.]+:(\d+)/\?token=(\w+)", line)
    if not match:
        process.kill()
        raise SystemExit(f"pantrace serve did not start: {line!r}")
    return process, int(match.group(1)), match.group(2)


def handshake(port, path):
    """A raw client socket after its upgrade (clients.py's, shared with the fan-out runs)."""
    sock, rest = clients.handshake("127.0.0.1", port, path)
    sock.setblocking(True)
    return sock, rest


def masked(payload, opcode=0x1):
    """A client frame, text by default (a zero mask keeps the payload as it is)."""
    n = len(payload)
    if n < 126:
        header = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        header = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        header = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    return header + b"\0\0\0\0" + payload


def frames(buf):
    """Splits complete frames off `buf`; yields (opcode, payload)."""
    pos, n = 0, len(buf)
    out = []
    while n - pos >= 2:
        length = buf[pos + 1] & 0x7F
        header = 2
        if length == 126:
            if n - pos < 4:
                break
            length, header = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
        elif length == 127:
            if n - pos < 10:
                break
            length, header = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
        if pos + header + length > n:
            break
        out.append((buf[pos] & 0x0F, bytes(buf[pos + header:pos + header + length])))
        pos += header + length
    del buf[:pos]
    return out


def kernel_stamp(ancillary):
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds, nanos = struct.unpack("qq", payload[:16])
            return seconds * 1_000_000_000 + nanos
    return time.time_ns()


def read_until(sock, buf, want):
    """Blocking: reads text messages until `want(message)`; returns it."""
    sock.setblocking(True)
    while True:
        for opcode, payload in frames(buf):
            if opcode == 1:
                message = json.loads(payload)
                if want(message):
                    sock.setblocking(False)
                    return message
        buf += sock.recv(262144)


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def sample(seq, i, gesture=0):
    """Sample i of a gesture: a pan moving 300 pt/s down, ending at GESTURE_SECONDS; its x is
    the gesture's number, so a frame names the gesture it belongs to."""
    last = GESTURE_SECONDS * RATE
    state = "began" if i == 0 else ("ended" if i == last else "changed")
    t = i / RATE
    return json.dumps({"type": "samples", "samples": [{"seq": seq, "t": t + 1000 * (gesture + 1), "state": state,
                       "tx": gesture, "ty": 300 * t, "vx": 0, "vy": 300 if i else 0}]}).encode()


def watch_pages(port, path, source, count, ready, stop):
    """A client process: `count` pages that pause their own view and watch `source`; returns,
    through `ready`, (gesture, sample index, kernel stamp) for every live frame, once `stop` is set."""
    socks = {}
    for _ in range(count):
        sock, buf = handshake(port, path)
        read_until(sock, buf, lambda m: m["type"] == "hello")
        sock.sendall(masked(b'{"type":"pause"}') + masked(json.dumps({"type": "watch", "source": source}).encode()))
        read_until(sock, buf, lambda m: m["type"] == "sources")
        socks[sock.fileno()] = (sock, buf)
    ep = select.epoll()
    for fd in socks:
        ep.register(fd, select.EPOLLIN)
    ready.send("ready")
    got = []
    cmsg = socket.CMSG_SPACE(16)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu0 = usage.ru_utime + usage.ru_stime
    started = time.monotonic()
    while not stop.is_set():
        for fd, _ in ep.poll(0.05, 1024):
            sock, buf = socks[fd]
            try:
                data, ancillary, _, _ = sock.recvmsg(262144, cmsg)
            except BlockingIOError:
                continue
            stamp = kernel_stamp(ancillary)
            buf += data
            for opcode, payload in frames(buf):
                if opcode == 0x9:  # the server hangs up on a client that answers no ping
                    sock.setblocking(True)
                    sock.sendall(masked(payload, 0xA))
                    sock.setblocking(False)
                elif opcode == 1 and b'"source":' in payload:
                    match = GESTURE.search(payload)
                    if match:
                        got.append((round(float(match.group(2))), round(float(match.group(1)) * RATE), stamp))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    ready.send((got, (usage.ru_utime + usage.ru_stime - cpu0) / (time.monotonic() - started)))


def run(pantrace, recordings, pages, seconds):
    process, port, token = start(pantrace, recordings)
    try:
        path = f"/live?v=3&token={token}"
        device, dbuf = handshake(port, path + "&role=source")
        device.sendall(masked(json.dumps({"type": "source", "session": "latency-bench", "name": "bench", "platform": "other",
                                          "screen": {"width": 390, "height": 844}, "scale": 3}).encode()))
        source = read_until(device, dbuf, lambda m: m["type"] == "source_ready")["source"]
        # The pages in client processes of their own (50 pages each at most), so reading them
        # never delays the device's sends or another page's reads.
        workers = []
        stop = multiprocessing.Event()
        per = max(1, min(50, -(-pages // 4)))
        for start_page in range(0, pages, per):
            mine, theirs = multiprocessing.Pipe()
            worker = multiprocessing.Process(target=watch_pages, args=(port, path, source, min(per, pages - start_page), theirs, stop))
            worker.start()
            workers.append((worker, mine))
        for _, pipe in workers:
            assert pipe.recv() == "ready"
        sent = {}          # (gesture, i) -> ns
        last = GESTURE_SECONDS * RATE
        seq, i, gesture = 1, 0, 0
        start_ns = time.monotonic_ns()
        next_send = start_ns
        end = start_ns + int(seconds * 1e9)
        while time.monotonic_ns() < end:
            if time.monotonic_ns() >= next_send:
                message = masked(sample(seq, i, gesture))
                sent[(gesture, i)] = time.time_ns()
                device.sendall(message)
                seq += 1
                i, gesture = (0, gesture + 1) if i == last else (i + 1, gesture)
                next_send += 1_000_000_000 // RATE
            readable, _, _ = select.select([device], [], [], max(0.0, (next_send - time.monotonic_ns()) / 1e9))
            if readable:
                try:
                    dbuf += device.recv(262144)
                except BlockingIOError:
                    continue
                for opcode, payload in frames(dbuf):  # acks are dropped; pings answered
                    if opcode == 0x9:
                        device.sendall(masked(payload, 0xA))
        time.sleep(0.5)  # the last frames in flight
        stop.set()
        received, cpu = [], 0.0
        for worker, pipe in workers:
            got, share = pipe.recv()
            received += got
            cpu += share
            worker.join()
        latencies, first, later = [], [], []  # first: before the first release (pages' views paused); later: each page replays it meanwhile
        for g, index, stamp in received:
            if (g, index) in sent:
                latency = (stamp - sent[(g, index)]) / 1e6
                latencies.append(latency)
                (first if g == 0 else later).append(latency)
        return {"pages": pages, "samples": len(sent), "frames": len(latencies), "expected": len(sent) * pages,
                "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99), "max_ms": max(latencies, default=float("nan")),
                "client_cpu": cpu, "client_processes": len(workers),
                "first_gesture_p50_ms": percentile(first, 0.5), "first_gesture_p99_ms": percentile(first, 0.99),
                "later_p50_ms": percentile(later, 0.5), "later_p99_ms": percentile(later, 0.99)}
    finally:
        process.terminate()
        process.wait(timeout=10)


def floor(pantrace, recordings, seconds):
    """The loopback round trip of one sample message through `pantrace serve --echo`."""
    process, port, _ = start(pantrace, recordings, ["--echo"])
    try:
        sock, buf = handshake(port, "/live?v=3")
        times = []
        message = masked(sample(1, 10))
        cmsg = socket.CMSG_SPACE(16)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            sent = time.time_ns()
            sock.sendall(message)
            got = []
            while not got:
                data, ancillary, _, _ = sock.recvmsg(65536, cmsg)
                stamp = kernel_stamp(ancillary)
                buf += data
                got = frames(buf)
            times.append((stamp - sent) / 1e6)
            time.sleep(1 / RATE)
        return {"p50_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99), "count": len(times)}
    finally:
        process.terminate()
        process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pantrace", default=str(ROOT / ".build" / "release" / "pantrace"))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--pages", default="1,10,200")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    recordings = pathlib.Path(tempfile.mkdtemp(prefix="pantrace-bench-lib-")) / "recordings"
    shutil.copytree(ROOT / "recordings", recordings, ignore=shutil.ignore_patterns("*.md", "*.sh", "live"))
    print(f"device → page latency, {RATE} Hz samples, pages paused and watching; {args.pantrace}; load {os.getloadavg()[0]:.2f}")
    base = floor(args.pantrace, recordings, min(args.seconds, 5))
    print(f"floor: loopback WebSocket round trip through `serve --echo`: p50 {base['p50_ms']:.3f} ms, p99 {base['p99_ms']:.3f} ms "
          f"({base['count']} messages)")
    print("| pages | samples sent | frames received / expected | p50 | p99 | max | p50 / p99, first gesture | p50 / p99, later | client CPU |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    results = []
    for pages in [int(p) for p in args.pages.split(",")]:
        r = run(args.pantrace, recordings, pages, args.seconds)
        results.append(r)
        print(f"| {pages} | {r['samples']} | {r['frames']} / {r['expected']} | {r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms | "
              f"{r['max_ms']:.2f} ms | {r['first_gesture_p50_ms']:.2f} / {r['first_gesture_p99_ms']:.2f} ms | "
              f"{r['later_p50_ms']:.2f} / {r['later_p99_ms']:.2f} ms | {100 * r['client_cpu']:.0f} % of a core ({r['client_processes']} processes) |", flush=True)
    worst = results[-1]
    goal = 1000 / RATE
    print(f"goal: p99 within one {RATE} Hz frame ({goal:.1f} ms) with {worst['pages']} pages: "
          f"{'met' if worst['p99_ms'] <= goal else 'not met'} ({worst['p99_ms']:.2f} ms; "
          f"{worst['p99_ms'] / base['p99_ms']:.0f}× the round-trip floor's p99)")
    print(json.dumps({"floor": base, "runs": results}))


if __name__ == "__main__":
    main()
