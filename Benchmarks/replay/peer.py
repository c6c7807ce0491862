"""Streaming replay output and the costs of many files, each against a peer or baseline.

    .venv-bench/bin/python Benchmarks/replay/peer.py [--release .build/release] [--skip SECTION…]

Sections (all by default):
- encoder: replay's JSON Lines encoder alone (ReplayBench --encode) on the frames of a 10-minute
  240 fps replay, against Python's json.dumps of the same frames as dicts, one line each, to a
  file (default separators, and compact ones, the same bytes' shape), and orjson when installed.
- memory: peak RSS (/usr/bin/time -v) of `pantrace replay --fps 240 --format jsonl` into a pipe,
  for 1, 10 and 60 minutes of gesture, beside the same replay with `--format summary` (no frames
  written): the difference is what the frames cost; the rest is the trace read into memory.
- walk: TraceFolder.list against the walk it replaced (ReplayBench --walk), 10^3, 10^4, 10^5 files.
- arguments: `pantrace tune FILE…` against `pantrace tune FOLDER` on the same 10^3, 10^4 and 10^5
  files (the stack limit is raised so that the kernel takes 10^5 arguments).

Needs release builds of pantrace and ReplayBench. Everything is written under a temporary folder,
removed at the end. Prints Markdown tables; BENCHMARKS.md holds a copy of a run.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def long_trace(minutes: float, path: str) -> str:
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "long_trace.py"), f"{minutes:g}", path], check=True)
    return path


def best_of(runs: int, body) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        body()
        best = min(best, time.perf_counter() - start)
    return best


def encoder(release: str, work: str) -> None:
    trace = long_trace(10, os.path.join(work, "long-10.jsonl"))
    out = os.path.join(work, "frames.jsonl")
    swift = json.loads(subprocess.run(
        [os.path.join(release, "ReplayBench"), "--encode", trace, "--fps", "240", "--out", out],
        check=True, capture_output=True, text=True).stdout)
    with open(out) as f:
        frames = [json.loads(line) for line in f]
    assert len(frames) == swift["frames"]
    target = os.path.join(work, "peer.jsonl")

    def dumps(**options):
        def body():
            with open(target, "w") as f:
                for frame in frames:
                    f.write(json.dumps(frame, **options) + "\n")
        return body

    peers = [("json.dumps(frame)", dumps()), ("json.dumps(frame, separators=(',', ':'))", dumps(separators=(",", ":")))]
    try:
        import orjson

        def orjson_body():
            with open(target, "wb") as f:
                for frame in frames:
                    f.write(orjson.dumps(frame) + b"\n")
        peers.append((f"orjson {orjson.__version__} orjson.dumps(frame)", orjson_body))
    except ImportError:
        print("note: orjson is not installed (Benchmarks/requirements.txt); its row is left out")
    count = swift["frames"]
    rate = count / swift["writer_s"]
    print(f"### replay's JSON Lines encoder: {count:,} frames of a 10-minute replay at 240 fps "
          f"({swift['bytes'] / 2**20:.0f} MiB), best of 3, load average {load_average()}")
    print()
    print("| encoder | frames/s | replay's encoder vs it | goal ≥ 1× |")
    print("|---|---:|---:|---|")
    print(f"| replay (JSONWriter, Swift) | {rate:,.0f} | — | |")
    print(f"| JSONEncoder (replay before) | {count / swift['jsonencoder_s']:,.0f} | {swift['jsonencoder_s'] / swift['writer_s']:.1f}× | |")
    for name, body in peers:
        seconds = best_of(3, body)
        ratio = seconds / swift["writer_s"]
        print(f"| {name} | {count / seconds:,.0f} | {ratio:.2f}× | {'met' if ratio >= 1 else 'not met'} |")
    print()


def peak_rss_kib(stderr: str) -> int:
    for line in stderr.splitlines():
        if "Maximum resident set size" in line:
            return int(line.split(":")[1])
    raise RuntimeError("no peak RSS in /usr/bin/time -v output:\n" + stderr)


def memory(release: str, work: str) -> None:
    print(f"### replay into a pipe: peak RSS by length (240 fps, swipe-dismiss), load average {load_average()}")
    print()
    print("| gesture | frames | output | wall | frames/s | peak RSS, --format jsonl | peak RSS, --format summary (no frames) | frames' cost |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for minutes in (1, 10, 60):
        trace = long_trace(minutes, os.path.join(work, f"long-{minutes}.jsonl"))
        start = time.perf_counter()
        process = subprocess.Popen(
            ["/usr/bin/time", "-v", os.path.join(release, "pantrace"), "replay", trace, "--preset", "swipe-dismiss", "--fps", "240",
             "--format", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        size = lines = 0
        last = b""
        while chunk := process.stdout.read(1 << 16):
            size += len(chunk)
            lines += chunk.count(b"\n")
            last = (last + chunk)[-4096:]
        stderr = process.stderr.read().decode()
        assert process.wait() == 0, stderr
        wall = time.perf_counter() - start
        summary = json.loads(last.rstrip(b"\n").split(b"\n")[-1])
        frames = summary["frames"]
        assert lines == frames + 1
        # The same replay without frames: what reading the trace and replaying cost alone.
        alone = subprocess.run(
            ["/usr/bin/time", "-v", os.path.join(release, "pantrace"), "replay", trace, "--preset", "swipe-dismiss", "--fps", "240",
             "--format", "summary"], capture_output=True, text=True, check=True)
        streamed, summary_only = peak_rss_kib(stderr) / 1024, peak_rss_kib(alone.stderr) / 1024
        print(f"| {minutes} min | {frames:,} | {size / 2**20:,.0f} MiB | {wall:.1f} s | {frames / wall:,.0f} | "
              f"{streamed:.1f} MiB | {summary_only:.1f} MiB | {streamed - summary_only:+.1f} MiB |")
    print()


def make_empty_files(folder: str, count: int) -> None:
    for index in range(count):
        sub = os.path.join(folder, f"d{index // 1000:03d}")
        if index % 1000 == 0:
            os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"t{index:06d}.pantrace"), "w"):
            pass


def walk(release: str, work: str) -> None:
    print(f"### folder walk (files only listed, none read), best of 3, load average {load_average()}")
    print()
    print("| files | TraceFolder.list | previous walk (stat + resolve per file) | speed-up |")
    print("|---:|---:|---:|---:|")
    for count in (1_000, 10_000, 100_000):
        folder = os.path.join(work, f"walk-{count}")
        make_empty_files(folder, count)
        result = json.loads(subprocess.run([os.path.join(release, "ReplayBench"), "--walk", folder], check=True,
                                           capture_output=True, text=True).stdout)
        assert result["files"] == result["previous_files"] == count, result
        print(f"| {count:,} | {result['walk_s'] * 1e3:.1f} ms | {result['previous_s'] * 1e3:.1f} ms | "
              f"{result['previous_s'] / result['walk_s']:.1f}× |")
        shutil.rmtree(folder)
    print()


def raise_stack() -> None:
    # The kernel's room for arguments is a quarter of the stack limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    wanted = 64 << 20 if hard == resource.RLIM_INFINITY else min(hard, 64 << 20)
    resource.setrlimit(resource.RLIMIT_STACK, (wanted, hard))


def arguments(release: str, work: str) -> None:
    pantrace = os.path.join(release, "pantrace")
    tune = ["--preset", "swipe-dismiss", "--grid", "threshold=0.5", "--max-files", "1000000"]
    print(f"### tune: files named as arguments against their folder, load average {load_average()}")
    print()
    print("| files | tune FILE… | tune FOLDER | arguments / folder (CPU) |")
    print("|---:|---:|---:|---:|")
    for count in (1_000, 10_000, 100_000):
        folder = os.path.join(work, f"synth-{count}")
        subprocess.run([pantrace, "synth", "-o", folder, "--count", str(count), "--seed", "3", "--kind", "swipe-down"], check=True,
                       capture_output=True)
        names = sorted(os.listdir(folder))

        def run(paths):
            """Best of 3: (wall seconds, CPU seconds of the process, user + system)."""
            best = (float("inf"), float("inf"))
            for _ in range(3):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                result = subprocess.run([pantrace, "tune", *paths, *tune], cwd=folder, capture_output=True, text=True,
                                        preexec_fn=raise_stack)
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                assert result.returncode == 0, result.stderr[-2000:]
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                best = min(best, (wall, cpu), key=lambda pair: pair[1])
            return best
        named = run(names)
        whole = run(["."])
        print(f"| {count:,} | {named[0]:.2f} s ({named[1]:.2f} s CPU) | {whole[0]:.2f} s ({whole[1]:.2f} s CPU) | "
              f"{named[1] / whole[1]:.2f}× |")
        shutil.rmtree(folder)
    print()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--release", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--skip", nargs="*", default=[], choices=["encoder", "memory", "walk", "arguments"])
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="pantrace-replay-bench-")
    try:
        print(f"## replay output and many files ({os.cpu_count()} cores)")
        print()
        for name, section in (("encoder", encoder), ("memory", memory), ("walk", walk), ("arguments", arguments)):
            if name not in args.skip:
                section(args.release, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
