"""What a watch-only page costs `pantrace serve`: pages without the token, each playing a view
of its own, at the server's own frame rate (60 a second, the production `tick`, not the
benchmark's fixed-rate path).

    swift build -c release --product pantrace
    .venv/bin/python Benchmarks/bridge/watch_only.py [--pages 10,100,1000] [--baseline OLD/pantrace]

A page without the token cannot load, seek or change speed, but it can go to the background
and come back (`visible` false, then true): a background page keeps a view of its own so that
its return shows where it was, so each page that does so at its own moment plays a view no
other page shares. Each step connects that many C clients (clients.c, built here with gcc)
doing exactly that, waits `--warmup` s, then measures for `--seconds` s: the server's CPU (% of
one core, /proc/PID/stat), the frames the pages received a second, and the server's RSS. The
same steps run against `--baseline` (another build) in the same run, interleaved.
"""
import argparse
import json
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

import load

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def serve(binary, recordings, web):
    process = subprocess.Popen([str(binary), "serve", "--port", "0", "--recordings", str(recordings), "--web", str(web)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://[\d.]+:(\d+)/", line)
    if not match:
        process.kill()
        sys.exit(f"{binary} serve did not start: {line!r}")
    return process, int(match.group(1))


def step(binary, pages, args, workdir):
    process, port = serve(binary, args.recordings, ROOT / "web")
    try:
        per = [pages // args.workers + (1 if i < pages % args.workers else 0) for i in range(args.workers)]
        extra = ["--path", "/live?v=3", "--send", '{"type":"visible","visible":false}', "--send", '{"type":"visible","visible":true}']
        clients = [subprocess.Popen([str(workdir / "clients"), "--port", str(port), "--count", str(n), *extra],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for n in per if n]
        for c in clients:
            line = c.stdout.readline()
            if not line.startswith("connected"):
                sys.exit(f"clients did not connect: {line!r}")
        time.sleep(args.warmup)
        (u0, s0), t0 = load.cpu_times(process.pid), time.monotonic()
        for c in clients:
            c.stdin.write(f"measure {args.seconds}\n")
            c.stdin.flush()
        results = [json.loads(c.stdout.readline()) for c in clients]
        (u1, s1), t1 = load.cpu_times(process.pid), time.monotonic()
        rss = load.rss_kib(process.pid)
        for c in clients:
            c.stdin.write("quit\n")
            c.stdin.close()
        for c in clients:
            c.wait(timeout=30)
        wall = max(r["seconds"] for r in results)
        frames = sum(r["frames"] for r in results)
        cpu = (u1 + s1) - (u0 + s0)
        return {"pages": pages, "server_cpu_pct": 100 * cpu / (t1 - t0), "frames_per_s": frames / wall,
                "frames_per_page_s": frames / wall / pages, "cpu_us_per_page_s": 1e6 * cpu / (t1 - t0) / pages,
                "rss_mib": rss / 1024}
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pantrace", type=pathlib.Path, default=ROOT / ".build" / "release" / "pantrace")
    parser.add_argument("--baseline", type=pathlib.Path, help="another pantrace build, measured in the same run")
    parser.add_argument("--recordings", type=pathlib.Path, default=ROOT / "recordings")
    parser.add_argument("--pages", default="10,100,1000")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    builds = [("pantrace", args.pantrace)] + ([("baseline", args.baseline)] if args.baseline else [])
    with tempfile.TemporaryDirectory() as tmp:
        workdir = pathlib.Path(tmp)
        load.build_clients(workdir)
        print("| pages | build | server CPU (% of a core) | CPU per page (µs/s) | frames/s received | per page | RSS (MiB) |")
        print("|---:|---|---:|---:|---:|---:|---:|")
        for pages in [int(p) for p in args.pages.split(",")]:
            for name, binary in builds:
                r = step(binary, pages, args, workdir)
                print(f"| {pages:,} | {name} | {r['server_cpu_pct']:.1f} | {r['cpu_us_per_page_s']:,.0f} | "
                      f"{r['frames_per_s']:,.0f} | {r['frames_per_page_s']:.1f} | {r['rss_mib']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
