"""The tune sweep against numpy, interleaved in one run (issues 17 and 24, Tune).

Usage: .venv-bench/bin/python Benchmarks/tune/peer.py .build/release/TuneBench [--repeats N]
(`make bench` makes .venv-bench from the pinned Benchmarks/requirements.txt, numpy among them.)

Starts `TuneBench --serve`, which builds 10,000 synthetic swipes, admits them for
`swipe-dismiss` and writes each trace's statistic p0 (the release progress D1 compares), its
intent, the 10,000 thresholds, the preset's default threshold and each trace's
cross-validation fold. Then, in turns, it asks TuneBench for a sweep and runs the numpy peer
on the same numbers:

- `sweep` against numpy's sorted method, as a competent numpy user writes it: argsort the
  statistics once, `searchsorted` every threshold into them, and read per threshold the
  correct decisions, false finishes and cancels (prefix counts of meant finishes), the mean
  margin (prefix sums of the statistics) and the smallest margin (the two neighbours).
  PanTrace's side is `StatisticSweep`: the same sorted walk `Tuner` runs, every score field,
  sums exact and rounded once.
- `sweep-cv` against the same with 5-fold cross-validation and the tie rule: per fold, the
  fold's correct decisions and smallest margin at every threshold (its own sorted
  statistics), then on the other folds the tie rule (most correct, largest smallest margin,
  middle of the equal range, nearest the default, first). Both sides must pick the same
  threshold for every fold.
- `numpy-grid`: the plain numpy peer of issue 17 (every trace × threshold pair, chunks of 256
  thresholds), a few times, for continuity.
- `sorted`, `general`: PanTrace's whole single-threaded `Tuner.run` on the admitted traces
  (every field of every point, best and equal points, cross-validation, breakdown,
  misjudged list) with the sorted sweep and with every pair decided; `e2e-…`: the same from
  the corpus on every core.

Sums of `correct` over every threshold must agree on every side, as must the sums of the
smallest margins (to 1e-12, summation order differs) and the folds' picks; else the script
fails. Every figure is the median of interleaved repeats, with the range.
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
    offset += n
    strict = data[offset] == 1
    offset += 1
    default = float(np.frombuffer(data, dtype="<f8", count=1, offset=offset)[0])
    offset += 8
    fold_count = int(np.frombuffer(data, dtype="<i8", count=1, offset=offset)[0])
    offset += 8
    folds = np.frombuffer(data, dtype=np.uint8, count=n, offset=offset).astype(np.int64)
    return statistics, thresholds, intents, strict, default, fold_count, folds


def numpy_grid(p, thresholds, meant, strict):
    """The plain peer: every (trace, threshold) pair, vectorised over traces × thresholds."""
    correct = np.empty(thresholds.shape[0], dtype=np.int64)
    column = p[:, None]
    meant_column = meant[:, None]
    for start in range(0, thresholds.shape[0], CHUNK):
        theta = thresholds[None, start:start + CHUNK]
        finish = column > theta if strict else column >= theta
        correct[start:start + CHUNK] = np.count_nonzero(finish == meant_column, axis=0)
        margin = np.abs(column - theta)
        margin.mean(axis=0)
        margin.min(axis=0)
    return correct


def sorted_tallies(p, thresholds, meant, strict, means=True):
    """The sorted method: per threshold, correct, false finishes and cancels, mean and
    smallest margin, from one argsort, two searchsorted and prefix sums."""
    n = p.shape[0]
    order = np.argsort(p, kind="stable")
    s = p[order]
    finish_before = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(meant[order], out=finish_before[1:])
    below = np.searchsorted(s, thresholds, side="left")
    failing = np.searchsorted(s, thresholds, side="right") if strict else below
    false_cancels = finish_before[failing]
    false_finishes = (n - failing) - (finish_before[n] - false_cancels)
    correct = n - false_cancels - false_finishes
    above = np.abs(s[np.minimum(below, n - 1)] - thresholds)
    above[below == n] = np.inf
    under = np.abs(s[np.maximum(below - 1, 0)] - thresholds)
    under[below == 0] = np.inf
    smallest = np.minimum(above, under)
    if not means:
        return correct, smallest
    prefix = np.zeros(n + 1)
    np.cumsum(s, out=prefix[1:])
    mean_margin = (prefix[n] - 2 * prefix[below] + thresholds * (2 * below - n)) / n
    return correct, false_finishes, false_cancels, mean_margin, smallest


def default_index(thresholds, value):
    """Where the default falls on the axis (a fraction between neighbours), as the tie rule reads it."""
    hits = np.flatnonzero(thresholds == value)
    if hits.size:
        return float(hits[0])
    nearest = int(np.argmin(np.abs(thresholds - value)))
    if nearest + 1 < thresholds.size and thresholds[nearest] < value < thresholds[nearest + 1]:
        return nearest + (value - thresholds[nearest]) / (thresholds[nearest + 1] - thresholds[nearest])
    if nearest > 0 and thresholds[nearest - 1] < value < thresholds[nearest]:
        return nearest - 1 + (value - thresholds[nearest - 1]) / (thresholds[nearest] - thresholds[nearest - 1])
    return float(nearest)


def tie_rule(correct, smallest, default_at):
    """docs/TUNE.md's tie rule on one threshold axis: the index it picks."""
    m = correct.shape[0]
    equal = correct == correct.max()
    widest = smallest[equal].max()
    finalists = np.flatnonzero(equal & (smallest == widest))
    if finalists.size == m:
        middle = np.zeros(finalists.size)
    else:
        middle = np.abs(finalists - (finalists[0] + finalists[-1]) / 2) / max(1, m - 1)
    near_middle = finalists[middle <= middle.min() + 1e-12]
    to_default = np.abs(near_middle - default_at) / max(1, m - 1)
    return int(near_middle[np.argmin(to_default)])


def numpy_sorted_cv(p, thresholds, meant, strict, fold_count, folds, default_at):
    fields = sorted_tallies(p, thresholds, meant, strict)
    correct = fields[0]
    fold_correct = np.empty((fold_count, thresholds.size), dtype=np.int64)
    fold_smallest = np.empty((fold_count, thresholds.size))
    for fold in range(fold_count):
        held = folds == fold
        fold_correct[fold], fold_smallest[fold] = sorted_tallies(p[held], thresholds, meant[held], strict, means=False)
    picks = []
    for fold in range(fold_count):
        others = np.delete(fold_smallest, fold, axis=0).min(axis=0)
        picks.append(tie_rule(correct - fold_correct[fold], others, default_at))
    return fields, picks


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
        p, thresholds, meant, strict, default, fold_count, folds = load(path)
        default_at = default_index(thresholds, default)

        def ask(command):
            server.stdin.write(command + "\n")
            server.stdin.flush()
            return server.stdout.readline().split()

        keys = ("sweep", "numpy-sorted", "sweep-cv", "numpy-sorted-cv", "numpy-grid", "sorted", "general", "e2e-sorted", "e2e-general")
        times = {key: [] for key in keys}
        cpu = {key: [] for key in keys}
        sums = set()
        smallest_sums = []
        picks = set()

        def timed(key, work):
            start, processor_start = time.perf_counter(), time.process_time()
            result = work()
            times[key].append(time.perf_counter() - start)
            cpu[key].append(time.process_time() - processor_start)
            return result

        def swift(command):
            fields = ask(command)
            times[command].append(float(fields[0]))
            cpu[command].append(float(fields[1]))
            sums.add(("swift " + command, int(fields[2])))
            if len(fields) > 4:
                smallest_sums.append(float(fields[4]))
                if fields[6] != "-":
                    picks.add(("swift", tuple(int(x) for x in fields[6].split(","))))

        for repeat in range(repeats):
            swift("sweep")
            fields = timed("numpy-sorted", lambda: sorted_tallies(p, thresholds, meant, strict))
            sums.add(("numpy sorted", int(fields[0].sum())))
            smallest_sums.append(float(fields[4].sum()))
            swift("sweep-cv")
            fields, chosen = timed("numpy-sorted-cv", lambda: numpy_sorted_cv(p, thresholds, meant, strict, fold_count, folds, default_at))
            sums.add(("numpy sorted cv", int(fields[0].sum())))
            picks.add(("numpy", tuple(chosen)))
            if repeat < 3:
                correct = timed("numpy-grid", lambda: numpy_grid(p, thresholds, meant, strict))
                sums.add(("numpy grid", int(correct.sum())))
                for command in ("sorted", "general", "e2e-sorted", "e2e-general"):
                    swift(command)
        server.stdin.write("quit\n")
        server.stdin.flush()
        server.wait()

    if len({value for _, value in sums}) != 1:
        sys.exit(f"tune peer: the sums of correct decisions differ: {sorted(sums)}")
    if max(smallest_sums) - min(smallest_sums) > 1e-12 * max(smallest_sums):
        sys.exit(f"tune peer: the sums of smallest margins differ: {sorted(set(smallest_sums))}")
    if len({value for _, value in picks}) != 1:
        sys.exit(f"tune peer: the folds' picks differ: {sorted(picks)}")
    decisions = traces * points

    def row(name, key, note):
        middle, low, high = median_range(times[key])
        processor, processor_low, processor_high = median_range(cpu[key])
        rate = decisions / middle
        return (f"| {name} | {middle * 1e3:.2f} ms ({low * 1e3:.2f}–{high * 1e3:.2f}) "
                f"| {processor * 1e3:.2f} ms ({processor_low * 1e3:.2f}–{processor_high * 1e3:.2f}) "
                f"| {rate / 1e6:,.0f} M/s | {len(times[key])} | {note} |")

    print(f"## Tune sweep — {traces:,} traces × {points:,} thresholds (D1, swipe-dismiss), numpy {np.__version__}")
    print("")
    print("| sweep | wall, median (range) | CPU, median (range) | decision-equivalents/s (wall) | repeats | what it computes |")
    print("|---|---:|---:|---:|---:|---|")
    print(row("PanTrace `StatisticSweep`, one thread", "sweep", "every score field per threshold, exact sums"))
    print(row("numpy sorted method, one thread", "numpy-sorted", "argsort + searchsorted + prefix sums: the five fields"))
    print(row("PanTrace `StatisticSweep` + 5-fold CV + tie rule", "sweep-cv", "the same, per-fold tallies, tie rule per fold"))
    print(row("numpy sorted method + 5-fold CV + tie rule", "numpy-sorted-cv", "the same in numpy"))
    print(row("plain numpy, traces × thresholds (issue 17's peer)", "numpy-grid", "every pair, chunks of 256 thresholds"))
    print(row("PanTrace `Tuner.run`, one thread, sorted", "sorted", "every report field, best/equal points, CV, breakdown, misjudged"))
    print(row("PanTrace `Tuner.run`, one thread, per-decision", "general", "the same, every pair decided"))
    print(row("`Tuner.run` from the corpus, every core, sorted", "e2e-sorted", "admission + sweep + findings"))
    print(row("`Tuner.run` from the corpus, every core, per-decision", "e2e-general", "the same on the general path"))
    median = {key: median_range(times[key])[0] for key in keys}
    median_cpu = {key: median_range(cpu[key])[0] for key in keys}
    print("")
    print(f"Ratio (numpy time / PanTrace time, same run, goal ≥ 1×): sweep **{median['numpy-sorted'] / median['sweep']:.2f}×** wall, "
          f"**{median_cpu['numpy-sorted'] / median_cpu['sweep']:.2f}×** CPU; with 5-fold CV and the tie rule "
          f"**{median['numpy-sorted-cv'] / median['sweep-cv']:.2f}×** wall, **{median_cpu['numpy-sorted-cv'] / median_cpu['sweep-cv']:.2f}×** CPU. "
          f"Whole `Tuner.run` against numpy's sorted sweep with CV: {median['numpy-sorted-cv'] / median['sorted']:.2f}× wall. "
          f"Sum of correct decisions over every threshold, every side: {sums.pop()[1]:,}; folds' picks: {picks.pop()[1]}.")


if __name__ == "__main__":
    main()
