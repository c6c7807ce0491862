"""A controller's round trip while the viewer tunes the whole library, by library size.

    swift build -c release --product pantrace
    .venv/bin/python Benchmarks/bridge/tune_library.py [--sizes 3000,30000 --pantrace PATH ...]

For each size N, a recordings folder holds the bundled recordings and one corpus file of N
labelled swipes (`pantrace synth`), and a release `pantrace serve --max-corpus-gestures N`
lists all of them. A page with the token asks `tune` over the whole library (an empty
`recordings` list: every recording with a known intent) on a 91-point threshold grid, and
meanwhile sends `speed` every 50 ms and waits for its `playback`. Printed per size: the
round trip p50/p99/max while the sweep ran, the time until the `tune` answer arrived, its size,
and the server's peak resident memory (VmHWM). With several `--pantrace` binaries, each runs
each size in turn (a build before a change against the build after).

The client is Python: its own cost per round trip (the `floor` line, the same loop with no
sweep) is well under a millisecond, against a bound of 100 ms and stalls of seconds.
"""
import argparse
import json
import pathlib
import re
import shutil
import statistics
import subprocess
import tempfile
import time

from websockets.sync.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[2]


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def run(binary, folder, size, tune):
    process = subprocess.Popen(
        [str(binary), "serve", "--port", "0", "--recordings", str(folder), "--web", str(ROOT / "web"),
         "--max-corpus-gestures", str(max(size, 1))],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
        port, token = int(match.group(1)), match.group(2)
        with connect(f"ws://127.0.0.1:{port}/live?v=3&token={token}", origin=f"http://127.0.0.1:{port}", max_size=None) as page:
            hello = json.loads(page.recv(timeout=60))
            total = hello["state"]["library_total"]
            started = time.monotonic()
            if tune:
                page.send(json.dumps({"type": "tune", "recordings": [], "preset": "swipe-dismiss",
                                      "grid": ["threshold=0.05:0.95:0.01"]}))
            trips, answered, answer_bytes, k = [], None, 0, 0
            while answered is None and time.monotonic() - started < 600:
                k += 1
                sent = time.monotonic()
                page.send(json.dumps({"type": "speed", "value": 1 + k % 3}))
                while True:
                    text = page.recv(timeout=600)
                    message = json.loads(text)
                    if message["type"] == "tune":
                        answered, answer_bytes = time.monotonic() - started, len(text.encode())
                    elif message["type"] == "error" and message.get("in_reply_to") == "tune":
                        raise SystemExit(f"the tune was refused: {text[:300]}")
                    elif message["type"] == "playback":
                        break
                trips.append((time.monotonic() - sent) * 1000)
                if not tune and len(trips) >= 100:
                    break
                time.sleep(0.05)
        return {"listed": total, "trips": trips, "answered_s": answered, "answer_bytes": answer_bytes,
                "peak_mib": peak_rss_mib(process.pid)}
    finally:
        process.terminate()
        process.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pantrace", type=pathlib.Path, action="append")
    parser.add_argument("--sizes", default="3000,30000")
    args = parser.parse_args()
    binaries = args.pantrace or [ROOT / ".build" / "release" / "pantrace"]
    sizes = [int(s) for s in args.sizes.split(",")]
    print("controller round trip (speed → playback) while a page tunes the whole library, release pantrace serve:")
    with tempfile.TemporaryDirectory(prefix="tune-library-") as temporary:
        for size in sizes:
            folder = pathlib.Path(temporary) / f"library-{size}"
            shutil.copytree(ROOT / "recordings", folder)
            subprocess.run([str(binaries[-1]), "synth", "-o", str(folder / "big.pantraces"), "--count", str(size), "--seed", "1",
                            "--kind", "swipe-down"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for binary in binaries:
                floor = run(binary, folder, size, tune=False)
                r = run(binary, folder, size, tune=True)
                trips = r["trips"]
                print(f"  {binary}  {r['listed']:>6} recordings: p50 {statistics.median(trips):.1f} ms, "
                      f"p99 {percentile(trips, 0.99):.1f} ms, max {max(trips):.1f} ms over {len(trips)} round trips; "
                      f"tune answered after {r['answered_s']:.2f} s ({r['answer_bytes'] / 1e6:.1f} MB); "
                      f"server peak RSS {r['peak_mib']:.0f} MiB; floor (no sweep) p99 {percentile(floor['trips'], 0.99):.2f} ms")


if __name__ == "__main__":
    main()
