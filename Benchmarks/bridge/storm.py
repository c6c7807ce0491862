"""A controller's round trip while watch-only pages storm the server with comparisons, and the
size of `hello`, against a release `pantrace serve` on the bundled recordings.

    swift build -c release --product pantrace
    .venv/bin/python Benchmarks/bridge/storm.py [--watchers 20 --seconds 10]

`--watchers` pages without the token, each on a thread of its own that reads what it is sent,
ask for a comparison of a new setting (so none is in the server's cache) five times a second,
the most one page may; a page with control sends `speed` every 50 ms and waits for its
`playback`. Printed: the controller's round trip p50/p99/max, how many comparisons were
answered and how many were told `busy` (the server-wide budget for watch-only work), the
server's CPU, and the `hello` a new page gets (bytes). The same with no watchers first, as the
floor.
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import threading
import time

from websockets.sync.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def run(binary, watchers, seconds):
    process = subprocess.Popen([str(binary), "serve", "--port", "0", "--recordings", str(ROOT / "recordings"), "--web", str(ROOT / "web")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
    port, token = int(match.group(1)), match.group(2)
    base = f"ws://127.0.0.1:{port}/live?v=3"
    origin = f"http://127.0.0.1:{port}"
    counts = {"asked": 0, "answered": 0, "busy": 0}
    lock = threading.Lock()
    stop = threading.Event()
    try:
        with connect(f"{base}&token={token}", origin=origin, max_size=None) as controller:
            hello = controller.recv(timeout=5)
            hello_bytes = len(hello.encode())
            library = json.loads(hello)["state"]["library"]
            recording = next(r["id"] for r in library if "swipe-down" in r["tags"])

            def watcher(index):
                with connect(base, origin=origin, max_size=None) as w:
                    w.recv(timeout=5)
                    k = 0
                    while not stop.is_set():
                        k += 1
                        threshold = round(0.05 + ((index * 7919 + k) % 9000) / 10000, 4)
                        w.send(json.dumps({"type": "compare", "recording": recording, "preset": "swipe-dismiss",
                                           "parameters": {"threshold": threshold}}))
                        with lock:
                            counts["asked"] += 1
                        deadline = time.monotonic() + 0.2
                        while time.monotonic() < deadline:
                            try:
                                m = json.loads(w.recv(timeout=max(0.01, deadline - time.monotonic())))
                            except TimeoutError:
                                break
                            with lock:
                                if m["type"] == "series" and m["role"] == "compare":
                                    counts["answered"] += 1
                                elif m["type"] == "error" and m["code"] in ("busy", "rate_limited"):
                                    counts["busy"] += 1

            threads = [threading.Thread(target=watcher, args=(i,)) for i in range(watchers)]
            for t in threads:
                t.start()
            time.sleep(1)
            cpu0, t0 = cpu_seconds(process.pid), time.monotonic()
            trips = []
            k = 0
            while time.monotonic() - t0 < seconds:
                k += 1
                sent = time.monotonic()
                controller.send(json.dumps({"type": "speed", "value": 1 + k % 3}))
                while json.loads(controller.recv(timeout=10))["type"] != "playback":
                    pass
                trips.append((time.monotonic() - sent) * 1000)
                time.sleep(0.05)
            cpu = (cpu_seconds(process.pid) - cpu0) / (time.monotonic() - t0)
            stop.set()
            for t in threads:
                t.join(timeout=10)
        trips.sort()
        return {"watchers": watchers, "round_trips": len(trips), "p50_ms": statistics.median(trips),
                "p99_ms": trips[min(len(trips) - 1, int(len(trips) * 0.99))], "max_ms": trips[-1],
                "server_cpu": cpu, "hello_bytes": hello_bytes, **counts}
    finally:
        process.terminate()
        process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pantrace", type=pathlib.Path, default=ROOT / ".build" / "release" / "pantrace")
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    print("controller round trip (speed → playback) while watch-only pages ask for comparisons, release pantrace serve:")
    for watchers in (0, args.watchers):
        r = run(args.pantrace, watchers, args.seconds)
        print(f"  {r['watchers']:3} watchers: p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, max {r['max_ms']:.2f} ms "
              f"over {r['round_trips']}; comparisons asked {r['asked']}, answered {r['answered']}, told busy {r['busy']}; "
              f"server CPU {r['server_cpu'] * 100:.0f} % of a core; hello {r['hello_bytes']} bytes")


if __name__ == "__main__":
    main()
