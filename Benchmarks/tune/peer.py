"""The tune sweep against plain numpy, interleaved in one run (issue 17, Tune).

Usage: .venv-bench/bin/python Benchmarks/tune/peer.py .build/release/TuneBench [--repeats N]
(`make bench` makes .venv-bench from the pinned Benchmarks/requirements.txt, numpy among them.)

Starts `TuneBench --serve`, which builds 10,000 synthetic swipes, admits them for
`swipe-dismiss` and writes each trace's statistic p0 (the release progress D1 compares), its
intent and the 10,000 thresholds. Then, in turns, it asks TuneBench for one single-threaded
`Tuner.run` on the admitted traces (the sorted sweep: every field of every point, the best
point, equal points, 5-fold cross-validation and the per-tag breakdown) and runs the numpy
peer on the same statistics: D1 decided for every (trace, threshold) pair with array
operations over traces × thresholds (chunks of thresholds, so memory stays bounded), giving
per threshold the correct decisions, false finishes and cancels, and the mean and smallest
margin. numpy computes fewer fields than the tuner; both sums of `correct` must agree.
Also timed, fewer times: the per-decision sweep (`general`, the path before issue 17) and
`Tuner.run` from the corpus on every core, both paths (`e2e-…`).

Every figure is the median of interleaved repeats, with the range.
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

CHUNK = 256


def median_range(values):
    ordered = sorted(values)
    n = len(ordered)
    middle = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return middle, ordered[0], ordered[-1]


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    n, m = np.frombuffer(data, dtype="<i8", count=2)
    offset = 16
    statistics = np.frombuffer(data, dtype="<f8", count=n, offset=offset)
    offset += 8 * n
    thresholds = np.frombuffer(data, dtype="<f8", count=m, offset=offset)
    offset += 8 * m
    intents = np.frombuffer(data, dtype=np.uint8, count=n, offset=offset).astype(bool)
    strict = data[offset + n] == 1
    return statistics, thresholds, intents, strict


def numpy_sweep(p, thresholds, meant, strict):
    """Every field numpy can give per threshold, vectorised over traces × thresholds."""
    n = p.shape[0]
    correct = np.empty(thresholds.shape[0], dtype=np.int64)
    false_finishes = np.empty_like(correct)
    mean_margin = np.empty(thresholds.shape[0])
    min_margin = np.empty(thresholds.shape[0])
    column = p[:, None]
    meant_column = meant[:, None]
    for start in range(0, thresholds.shape[0], CHUNK):
        theta = thresholds[None, start:start + CHUNK]
        finish = column > theta if strict else column >= theta
        correct[start:start + CHUNK] = np.count_nonzero(finish == meant_column, axis=0)
        false_finishes[start:start + CHUNK] = np.count_nonzero(finish & ~meant_column, axis=0)
        margin = np.abs(column - theta)
        mean_margin[start:start + CHUNK] = margin.mean(axis=0)
        min_margin[start:start + CHUNK] = margin.min(axis=0)
    false_cancels = n - correct - false_finishes
    return correct, false_finishes, false_cancels, mean_margin, min_margin


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/TuneBench"
    repeats = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 7
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "statistics.bin")
        server = subprocess.Popen([binary, "--serve", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = server.stdout.readline().split()
        if not ready or ready[0] != "ready":
            sys.exit(f"tune peer: TuneBench did not start (said {ready!r})")
        traces, points = int(ready[1]), int(ready[2])
        p, thresholds, meant, strict = load(path)

        def ask(command):
            server.stdin.write(command + "\n")
            server.stdin.flush()
            seconds, cpu, correct_sum, _ = server.stdout.readline().split()
            return float(seconds), float(cpu), int(correct_sum)

        times = {key: [] for key in ("sorted", "numpy", "general", "e2e-sorted", "e2e-general")}
        cpu = {key: [] for key in times}
        sums = set()
        for repeat in range(repeats):
            seconds, processor, correct_sum = ask("sorted")
            times["sorted"].append(seconds)
            cpu["sorted"].append(processor)
            sums.add(("swift", correct_sum))
            start, processor_start = time.perf_counter(), time.process_time()
            correct = numpy_sweep(p, thresholds, meant, strict)[0]
            times["numpy"].append(time.perf_counter() - start)
            cpu["numpy"].append(time.process_time() - processor_start)
            sums.add(("numpy", int(correct.sum())))
            if repeat < 3:
                for command in ("general", "e2e-sorted", "e2e-general"):
                    seconds, processor, correct_sum = ask(command)
                    times[command].append(seconds)
                    cpu[command].append(processor)
                    sums.add(("swift", correct_sum))
        server.stdin.write("quit\n")
        server.stdin.flush()
        server.wait()

    if len({value for _, value in sums}) != 1:
        sys.exit(f"tune peer: the sums of correct decisions differ: {sorted(sums)}")
    decisions = traces * points

    def row(name, key, note):
        middle, low, high = median_range(times[key])
        processor, processor_low, processor_high = median_range(cpu[key])
        rate = decisions / middle
        return (f"| {name} | {middle * 1e3:.1f} ms ({low * 1e3:.1f}–{high * 1e3:.1f}) "
                f"| {processor * 1e3:.1f} ms ({processor_low * 1e3:.1f}–{processor_high * 1e3:.1f}) "
                f"| {rate / 1e6:,.0f} M/s | {len(times[key])} | {note} |")

    print(f"## Tune sweep — {traces:,} traces × {points:,} thresholds (D1, swipe-dismiss), numpy {np.__version__}")
    print("")
    print("| sweep | wall, median (range) | CPU, median (range) | decision-equivalents/s (wall) | repeats | what it computes |")
    print("|---|---:|---:|---:|---:|---|")
    print(row("PanTrace sorted sweep, one thread", "sorted", "`Tuner.run` on admitted traces: every report field, best/equal points, 5-fold CV, breakdown"))
    print(row("plain numpy, traces × thresholds, one thread", "numpy", "correct, false finishes/cancels, mean/min margin"))
    print(row("PanTrace per-decision sweep, one thread (before)", "general", "`Tuner.run`, every pair decided (the general path)"))
    print(row("`Tuner.run` from the corpus, every core, sorted", "e2e-sorted", "admission (tracks of 10,000 traces) + sweep + findings"))
    print(row("`Tuner.run` from the corpus, every core, per-decision", "e2e-general", "the same on the general path"))
    sorted_time, numpy_time, general_time = (median_range(times[key])[0] for key in ("sorted", "numpy", "general"))
    sorted_cpu, numpy_cpu = (median_range(cpu[key])[0] for key in ("sorted", "numpy"))
    print("")
    print(f"Ratio against plain numpy (numpy time / PanTrace time, same run): **{numpy_time / sorted_time:.1f}×** wall, "
          f"**{numpy_cpu / sorted_cpu:.1f}×** CPU (goal ≥ 10×); sweep {sorted_time * 1e3:.1f} ms wall, {sorted_cpu * 1e3:.1f} ms CPU "
          f"(goal < 50 ms); sorted vs per-decision: {general_time / sorted_time:.0f}×. "
          f"Sum of correct decisions over every point, both sides: {sums.pop()[1]:,}.")


if __name__ == "__main__":
    main()
