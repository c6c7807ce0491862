"""Many minimal WebSocket clients in one process, for Benchmarks/bridge/load.py.

Each client is a raw TCP socket: an RFC 6455 handshake, then a loop that splits the stream
into frames by their headers and, for text messages carrying `"emitted_us":`, reads that
number and `"seq":` with `bytes.find` (no JSON parsing), so the Python side costs about a
microsecond a message. All sockets share one epoll loop.

Latency is taken twice for each frame message, against its `emitted_us` (CLOCK_REALTIME, the
server's `Date()` / `time.time_ns()`, same machine):
- kernel: the socket's SO_TIMESTAMPNS receive stamp, the moment the bytes reached this
  client's socket (for a read that returns several messages, the stamp of the last, so
  earlier ones are over-estimated); this excludes the Python client's own scheduling delay;
- user: `time.time_ns()` right after the read returns, which includes it.

Protocol with the parent, one line each way on stdin/stdout:
    (child)  connected N            all handshakes done
    (parent) measure SECONDS        reset counters, count for SECONDS, then
    (child)  {json result}
    (parent) quit                   (or EOF) close everything and exit

    python clients.py --port PORT --count N [--path /live?token=…] [--host 127.0.0.1]
"""
import argparse
import base64
import json
import os
import resource
import select
import socket
import struct
import sys
import time

HIST_CAP_US = 200_000  # latencies above 200 ms share the last bucket
EMITTED = b'"emitted_us":'
SEQ = b'"seq":'
# Python's socket module does not export it; the value is the same on every Linux architecture
# but a few (parisc, sparc), which this benchmark does not run on. SCM_TIMESTAMPNS equals it.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def handshake(host, port, path):
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed during handshake")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"handshake refused: {head[:80]!r}")
    sock.setblocking(False)
    return sock, bytearray(rest)


def masked(opcode, payload=b""):
    """A client frame (clients must mask; a zero mask keeps the payload as is)."""
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


class Stats:
    def __init__(self):
        self.messages = 0        # every complete text message
        self.frames = 0          # frame messages (with emitted_us)
        self.gaps = 0            # frames skipped by the server (seq jumps), summed over clients
        self.kernel = [0] * (HIST_CAP_US + 1)
        self.user = [0] * (HIST_CAP_US + 1)
        self.spread = {}         # seq -> [emitted, first kernel stamp, last kernel stamp] over this process's clients


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--path", default="/live?v=3")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--hidden", action="store_true",
                        help="each client says it is a hidden page (protocol 3 `visible`): pantrace sends it no frames")
    args = parser.parse_args()

    socks = {}
    buffers = {}
    last_seq = {}
    for _ in range(args.count):
        sock, rest = handshake(args.host, args.port, args.path)
        if args.hidden:
            sock.setblocking(True)
            sock.sendall(masked(0x1, b'{"type":"visible","visible":false}'))
            sock.setblocking(False)
        socks[sock.fileno()] = sock
        buffers[sock.fileno()] = rest
        last_seq[sock.fileno()] = None
    ep = select.epoll()
    for fd in socks:
        ep.register(fd, select.EPOLLIN)
    stdin = sys.stdin.fileno()
    ep.register(stdin, select.EPOLLIN)
    print(f"connected {len(socks)}", flush=True)

    stats = Stats()
    measuring_until = None
    closed = 0
    command = b""
    cmsg_size = socket.CMSG_SPACE(16)
    time_ns = time.time_ns
    unpack_ts = struct.Struct("qq").unpack
    kernel_hist, user_hist, spread = stats.kernel, stats.user, stats.spread
    started = None
    cpu_start = None

    while True:
        timeout = -1 if measuring_until is None else max(0.0, measuring_until - time.monotonic())
        events = ep.poll(timeout, 1024)
        if measuring_until is not None and time.monotonic() >= measuring_until:
            elapsed = time.monotonic() - started
            usage = resource.getrusage(resource.RUSAGE_SELF)
            result = {
                "seconds": elapsed, "messages": stats.messages, "frames": stats.frames, "gaps": stats.gaps,
                "closed": closed, "clients": len(socks),
                "cpu_s": usage.ru_utime + usage.ru_stime - cpu_start,
                "kernel_hist": {i: n for i, n in enumerate(stats.kernel) if n},
                "user_hist": {i: n for i, n in enumerate(stats.user) if n},
                "spread": stats.spread,
            }
            print(json.dumps(result), flush=True)
            measuring_until = None
        for fd, _ in events:
            if fd == stdin:
                chunk = os.read(stdin, 4096)
                if not chunk:
                    return
                command += chunk
                while b"\n" in command:
                    line, command = command.split(b"\n", 1)
                    words = line.decode().split()
                    if not words:
                        continue
                    if words[0] == "quit":
                        return
                    if words[0] == "measure":
                        stats = Stats()
                        kernel_hist, user_hist, spread = stats.kernel, stats.user, stats.spread
                        for k in last_seq:
                            last_seq[k] = None
                        started = time.monotonic()
                        usage = resource.getrusage(resource.RUSAGE_SELF)
                        cpu_start = usage.ru_utime + usage.ru_stime
                        measuring_until = started + float(words[1])
                continue
            sock = socks.get(fd)
            if sock is None:
                continue
            try:
                data, ancillary, _, _ = sock.recvmsg(262144, cmsg_size)
            except BlockingIOError:
                continue
            except ConnectionError:
                data, ancillary = b"", []
            if not data:
                ep.unregister(fd)
                del socks[fd]
                closed += 1
                continue
            now_us = time_ns() // 1000
            kernel_us = now_us
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    seconds, nanos = unpack_ts(payload[:16])
                    kernel_us = seconds * 1_000_000 + nanos // 1000
            buf = buffers[fd]
            buf += data
            n = len(buf)
            pos = 0
            counting = measuring_until is not None
            while n - pos >= 2:
                length = buf[pos + 1] & 0x7F
                header = 2
                if length == 126:
                    if n - pos < 4:
                        break
                    length = (buf[pos + 2] << 8) | buf[pos + 3]
                    header = 4
                elif length == 127:
                    if n - pos < 10:
                        break
                    length = int.from_bytes(buf[pos + 2:pos + 10], "big")
                    header = 10
                end = pos + header + length
                if end > n:
                    break
                opcode = buf[pos] & 0x0F
                if opcode == 1 and counting:
                    stats.messages += 1
                    i = buf.find(EMITTED, pos + header, end)
                    if i >= 0:
                        j = i + 13
                        k = j
                        while 48 <= buf[k] <= 57:
                            k += 1
                        emitted = int(buf[j:k])
                        stats.frames += 1
                        lat = kernel_us - emitted
                        kernel_hist[0 if lat < 0 else (lat if lat < HIST_CAP_US else HIST_CAP_US)] += 1
                        lat = now_us - emitted
                        user_hist[0 if lat < 0 else (lat if lat < HIST_CAP_US else HIST_CAP_US)] += 1
                        s = buf.find(SEQ, pos + header, end)
                        if s >= 0:
                            j = s + 6
                            k = j
                            while 48 <= buf[k] <= 57:
                                k += 1
                            seq = int(buf[j:k])
                            previous = last_seq[fd]
                            if previous is not None and seq > previous + 1:
                                stats.gaps += seq - previous - 1
                            last_seq[fd] = seq
                            seen = spread.get(seq)
                            if seen is None:
                                spread[seq] = [emitted, kernel_us, kernel_us]
                            elif kernel_us < seen[1]:
                                seen[1] = kernel_us
                            elif kernel_us > seen[2]:
                                seen[2] = kernel_us
                elif opcode == 9:  # ping: answer, or the server hangs up after 30 s
                    try:
                        sock.send(masked(0xA, bytes(buf[pos + header:end])))
                    except OSError:
                        pass
                pos = end
            del buf[:pos]


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
