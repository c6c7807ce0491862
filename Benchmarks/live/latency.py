"""Live-source latency: a sample leaving the device to the frame reflecting it at a page.

A release `pantrace serve`, one device (a raw WebSocket joined with role=source) sending one
sample a message at 120 Hz, and N pages (raw WebSockets, paused views, watching the source)
reading the live frames (`load` -1). Each sample's translation x is its number, so a page
knows which sample a frame reflects: latency = the kernel's receive stamp on the page's socket
(SO_TIMESTAMPNS, CLOCK_REALTIME) minus the device's clock just before its send. Beside it,
the floor: a WebSocket round trip through `pantrace serve --echo` on the same loopback.

The clients are raw sockets on one epoll loop (Benchmarks/bridge/clients.py's handshake); the
report gives their CPU time against the wall time, to show they are not the bottleneck.

    swift build -c release --product pantrace
    .venv/bin/python Benchmarks/live/latency.py [--pages 1,10,200] [--seconds 5]
"""
import argparse
import json
import os
import pathlib
import re
import resource
import select
import socket
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "bridge"))
from clients import SO_TIMESTAMPNS, handshake  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOKEN = "live-latency-benchmark-token"
HZ = 120


def frame(payload, opcode=0x1):
    """A masked client frame of any length (a zero mask keeps the payload as is)."""
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + struct.pack(">H", n)
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + struct.pack(">Q", n)
    return head + b"\0\0\0\0" + payload


def messages(buf):
    """Complete text messages at the front of `buf` (removed from it)."""
    out = []
    while len(buf) >= 2:
        length, header = buf[1] & 0x7F, 2
        if length == 126:
            if len(buf) < 4:
                break
            length, header = struct.unpack(">H", buf[2:4])[0], 4
        elif length == 127:
            if len(buf) < 10:
                break
            length, header = struct.unpack(">Q", buf[2:10])[0], 10
        if len(buf) < header + length:
            break
        if buf[0] & 0x0F == 1:
            out.append(bytes(buf[header:header + length]))
        del buf[:header + length]
    return out


def read_until(sock, buf, predicate, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for m in messages(buf):
            if predicate(m):
                return m
        r, _, _ = select.select([sock], [], [], 0.1)
        if r:
            data = sock.recv(1 << 20)
            if not data:
                raise ConnectionError("closed")
            buf += data
    raise TimeoutError("no such message")


def start_server(binary, workdir, *extra):
    env = dict(os.environ, XDG_STATE_HOME=str(workdir / "state"))
    (workdir / "recordings").mkdir(exist_ok=True)
    process = subprocess.Popen([binary, "serve", "--port", "0", "--recordings", str(workdir / "recordings"),
                                "--web", str(ROOT / "web"), "--token", TOKEN, *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    line = process.stdout.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
    return process, port


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def run(binary, pages, seconds, workdir):
    process, port = start_server(binary, workdir)
    try:
        device, dbuf = handshake("127.0.0.1", port, f"/live?v=3&token={TOKEN}&role=source")
        device.setblocking(True)
        device.sendall(frame(json.dumps({"type": "source", "session": f"bench-{pages}-pages", "name": "bench",
                                         "platform": "other", "screen": {"width": 390, "height": 844},
                                         "scale": 3, "velocity": "recorded"}).encode()))
        ready = json.loads(read_until(device, dbuf, lambda m: b'"source_ready"' in m))
        socks, bufs = {}, {}
        for _ in range(pages):
            sock, rest = handshake("127.0.0.1", port, f"/live?v=3&token={TOKEN}")
            sock.setblocking(True)
            # A paused view costs nothing per frame: only the live frames are measured.
            sock.sendall(frame(b'{"type":"pause"}'))
            sock.sendall(frame(json.dumps({"type": "watch", "source": ready["source"]}).encode()))
            sock.setblocking(False)
            socks[sock.fileno()], bufs[sock.fileno()] = sock, bytearray(rest)
        ep = select.epoll()
        for fd in socks:
            ep.register(fd, select.EPOLLIN)
        ep.register(device.fileno(), select.EPOLLIN)
        device.setblocking(False)
        settle = time.monotonic() + 1.0
        sent_us = {}
        kernel, user = [], []
        received = 0
        cmsg = socket.CMSG_SPACE(16)
        total = int(seconds * HZ)
        warmup = HZ // 2
        k = 0
        start = None
        cpu0 = None
        next_send = None
        gesture_start = time.monotonic()
        while True:
            now = time.monotonic()
            if now >= settle and start is None:
                start, next_send = now, now
                usage = resource.getrusage(resource.RUSAGE_SELF)
                cpu0 = usage.ru_utime + usage.ru_stime
            if start is not None and k <= total and now >= next_send:
                k += 1
                state = "began" if k == 1 else ("ended" if k == total + 1 else "changed")
                sample = {"seq": k, "t": now - gesture_start, "state": state, "tx": float(k), "ty": 0.0,
                          "vx": 120.0, "vy": 0.0}
                payload = frame(json.dumps({"type": "samples", "dropped": 0, "samples": [sample]}).encode())
                sent_us[k] = time.time_ns() // 1000
                device.sendall(payload)
                next_send += 1 / HZ
            if start is not None and k > total and now > next_send + 0.5:
                break
            timeout = max(0.0, (next_send - time.monotonic())) if next_send else 0.1
            for fd, _ in ep.poll(timeout, 1024):
                if fd == device.fileno():
                    device.recv(1 << 16)  # acks
                    continue
                sock = socks[fd]
                try:
                    data, anc, _, _ = sock.recvmsg(1 << 18, cmsg)
                except BlockingIOError:
                    continue
                user_us = time.time_ns() // 1000
                kernel_us = user_us
                for level, kind, stamp in anc:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        s, ns = struct.unpack("qq", stamp[:16])
                        kernel_us = s * 1_000_000 + ns // 1000
                buf = bufs[fd]
                buf += data
                for m in messages(buf):
                    if b'"type":"frame"' not in m or b'"load":-1' not in m:
                        continue
                    g = m.find(b'"gesture":')
                    t = m.find(b'"translation":{"x":', g)
                    if g < 0 or t < 0:
                        continue
                    end = t + 19
                    stop = m.find(b",", end)
                    index = round(float(m[end:stop]))
                    received += 1
                    if index > warmup and index in sent_us:
                        kernel.append(kernel_us - sent_us[index])
                        user.append(user_us - sent_us[index])
        usage = resource.getrusage(resource.RUSAGE_SELF)
        wall = time.monotonic() - start
        cpu = usage.ru_utime + usage.ru_stime - cpu0
        for sock in socks.values():
            sock.close()
        device.close()
        return {"pages": pages, "samples": total + 1, "frames": received, "expected": (total + 1) * pages,
                "p50_us": percentile(kernel, 0.5), "p99_us": percentile(kernel, 0.99),
                "user_p50_us": percentile(user, 0.5), "user_p99_us": percentile(user, 0.99),
                "client_cpu": cpu / wall}
    finally:
        process.terminate()
        process.wait(timeout=10)


def floor(binary, seconds, workdir):
    """Round trips of a small text message through `pantrace serve --echo`."""
    process, port = start_server(binary, workdir, "--echo")
    try:
        sock, buf = handshake("127.0.0.1", port, "/live")
        sock.setblocking(True)
        rtts = []
        cmsg = socket.CMSG_SPACE(16)
        for i in range(int(seconds * HZ)):
            payload = frame(json.dumps({"seq": i, "pad": "x" * 64}).encode())
            sent = time.time_ns() // 1000
            sock.sendall(payload)
            got = []
            while not got:
                data, anc, _, _ = sock.recvmsg(1 << 16, cmsg)
                stamp = time.time_ns() // 1000
                for level, kind, raw in anc:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        s, ns = struct.unpack("qq", raw[:16])
                        stamp = s * 1_000_000 + ns // 1000
                buf += data
                got = messages(buf)
            if i >= HZ // 2:
                rtts.append(stamp - sent)
            time.sleep(1 / HZ)
        sock.close()
        return {"p50_us": percentile(rtts, 0.5), "p99_us": percentile(rtts, 0.99), "count": len(rtts)}
    finally:
        process.terminate()
        process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pantrace", default=os.environ.get("PANTRACE", str(ROOT / ".build" / "release" / "pantrace")))
    parser.add_argument("--pages", default="1,10,200")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    results = {"floor": None, "runs": []}
    with tempfile.TemporaryDirectory(prefix="pantrace-live-bench-") as tmp:
        workdir = pathlib.Path(tmp)
        results["floor"] = floor(args.pantrace, args.seconds, workdir)
        print(f"floor: {results['floor']}", file=sys.stderr)
        for pages in [int(p) for p in args.pages.split(",")]:
            sub = workdir / f"pages-{pages}"
            sub.mkdir()
            result = run(args.pantrace, pages, args.seconds, sub)
            print(f"{pages} pages: {result}", file=sys.stderr)
            results["runs"].append(result)
    load = os.getloadavg()
    print(f"| pages watching | samples (120 Hz) | live frames received / expected | p50 | p99 | client CPU |")
    print("|---|---|---|---|---|---|")
    for r in results["runs"]:
        print(f"| {r['pages']} | {r['samples']} | {r['frames']} / {r['expected']} | {r['p50_us'] / 1000:.2f} ms "
              f"| {r['p99_us'] / 1000:.2f} ms | {r['client_cpu'] * 100:.0f} % of a core |")
    f = results["floor"]
    print(f"\nFloor, a WebSocket round trip through `pantrace serve --echo` ({f['count']} at 120 Hz): "
          f"p50 {f['p50_us'] / 1000:.2f} ms, p99 {f['p99_us'] / 1000:.2f} ms. "
          f"Load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}.")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
