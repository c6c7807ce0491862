"""`pantrace serve` on a recordings folder holding one corpus file (`.pantraces`): how long the
server takes to start and list it, and how long a `load` of the corpus's last gesture takes to
answer, against the same gesture as a `.pantrace` file of its own and against decoding the whole
corpus (`pantrace inspect`). Prints one markdown table.

    swift build -c release --product pantrace
    .venv/bin/python Benchmarks/bridge/corpus_load.py --count 10000
    .venv/bin/python Benchmarks/bridge/corpus_load.py --count 1000000 --startup-only   # the default limit on a huge corpus
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from websockets.sync.client import connect

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*args, **kwargs):
    return subprocess.run([str(a) for a in args], check=True, **kwargs)


def serve(binary, recordings, extra=()):
    """Starts serve; returns (process, url, seconds to the readiness line)."""
    started = time.perf_counter()
    process = subprocess.Popen([str(binary), "serve", "--port", "0", "--recordings", str(recordings), "--web", str(ROOT / "web"), *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    ready = time.perf_counter() - started
    if "open http" not in line:
        process.kill()
        raise SystemExit(f"serve did not start: {line!r} {process.stderr.read()}")
    return process, line.split("open ", 1)[1].strip(), ready


def ws_url(url):
    port = url.split(":")[2].split("/")[0]
    token = url.split("token=")[1]
    return f"ws://127.0.0.1:{port}/live?v=3&token={token}", f"http://127.0.0.1:{port}"


def receive_until(ws, until):
    while True:
        m = json.loads(ws.recv(timeout=60))
        if until(m):
            return m


def loads(binary, recordings, recording, repeat, extra=()):
    """Seconds from sending `load` to its `summary` (the trace read and replayed), `repeat` times."""
    process, url, ready = serve(binary, recordings, extra)
    try:
        address, origin = ws_url(url)
        with connect(address, origin=origin, max_size=None) as ws:
            t0 = time.perf_counter()
            hello = receive_until(ws, lambda m: m["type"] == "hello")
            hello_s = time.perf_counter() - t0
            ws.send(json.dumps({"type": "loop", "enabled": False}))
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                ws.send(json.dumps({"type": "load", "recording": recording, "preset": "swipe-dismiss"}))
                summary = receive_until(ws, lambda m: m["type"] == "summary" or m["type"] == "error")
                if summary["type"] == "error":
                    raise SystemExit(f"load refused: {summary}")
                times.append(time.perf_counter() - start)
            return {"ready_s": ready, "hello_s": hello_s, "listed": hello["state"]["library_total"],
                    "notices": hello["state"].get("library_notices"), "load_ms": [t * 1000 for t in times]}
    finally:
        process.terminate()
        process.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pantrace", default=os.environ.get("PANTRACE", ROOT / ".build" / "release" / "pantrace"))
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--startup-only", action="store_true", help="only the start of serve at the default limit")
    args = parser.parse_args()
    binary = pathlib.Path(args.pantrace)
    work = pathlib.Path(tempfile.mkdtemp(prefix="pantrace-corpus-load-"))
    try:
        corpus_folder = work / "corpus"
        (corpus_folder / "sets").mkdir(parents=True)
        corpus = corpus_folder / "sets" / "c.pantraces"
        made = time.perf_counter()
        run(binary, "synth", "-o", corpus, "--count", args.count, "--seed", "2026", "--kind", "swipe-down", stdout=subprocess.DEVNULL)
        print(f"synth: {args.count} gestures, {corpus.stat().st_size} bytes, {time.perf_counter() - made:.1f} s", file=sys.stderr)
        last = f"synth-2026-{args.count - 1:05d}"
        rows = []
        if args.startup_only:
            process, url, ready = serve(binary, corpus_folder)
            address, origin = ws_url(url)
            with connect(address, origin=origin, max_size=None) as ws:
                hello = receive_until(ws, lambda m: m["type"] == "hello")
            process.terminate()
            process.wait(timeout=30)
            print(f"| serve start, a corpus of {args.count:,} gestures, default limit | {ready * 1000:.0f} ms to ready; "
                  f"{hello['state']['library_total']} listed; notice: {hello['state'].get('library_notices')} |")
            return
        # The whole corpus decoded, for scale: what a load that decoded the corpus would cost at least.
        whole = []
        for _ in range(3):
            start = time.perf_counter()
            run(binary, "inspect", corpus, stdout=subprocess.DEVNULL)
            whole.append(time.perf_counter() - start)
        # The same gesture as a file of its own.
        single_folder = work / "single"
        run(binary, "convert", corpus, work / "unpacked", stdout=subprocess.DEVNULL)
        (single_folder / "sets").mkdir(parents=True)
        shutil.copy(work / "unpacked" / f"{last}.pantrace", single_folder / "sets" / f"{last}.pantrace")
        in_corpus = loads(binary, corpus_folder, f"sets/c.pantraces#{last}", args.repeat, extra=("--max-corpus-gestures", str(args.count)))
        alone = loads(binary, single_folder, f"sets/{last}.pantrace", args.repeat)
        median = lambda xs: statistics.median(xs)
        print("| what | median | p90 |")
        print("|---|---|---|")
        for name, r in ((f"`load` of the last gesture of a {args.count:,}-gesture corpus (`--max-corpus-gestures {args.count}`)", in_corpus),
                        ("`load` of the same gesture as a `.pantrace` file of its own", alone)):
            xs = sorted(r["load_ms"])
            print(f"| {name} | {median(xs):.2f} ms | {xs[int(len(xs) * 0.9)]:.2f} ms |")
        print(f"| `pantrace inspect` of the whole corpus (every gesture decoded), for scale | {median(whole) * 1000:.0f} ms | |")
        print(f"| serve start to ready, listing the {in_corpus['listed']:,} gestures | {in_corpus['ready_s'] * 1000:.0f} ms | |")
        print(f"| serve start to ready, the one file | {alone['ready_s'] * 1000:.0f} ms | |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
