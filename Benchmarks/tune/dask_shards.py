"""`pantrace tune` in shards on Dask's distributed scheduler, against one whole run (issue 24).

Usage: .venv-bench/bin/python Benchmarks/tune/dask_shards.py [--pantrace .build/release/pantrace]
       [--count N] [--shards K] [--workers W] [--repeats R]
(`make bench` makes .venv-bench from the pinned Benchmarks/requirements.txt, dask[distributed]
among them, and builds the release pantrace.)

Synthesizes N labelled swipes (`pantrace synth --seed 24`), cuts the sorted file list into K
contiguous shards, starts a `distributed.LocalCluster` of W worker processes (one thread
each) and runs, in turns:

- `whole`: `pantrace tune FILES… --json` in one process on every core.
- `sharded`: one Dask task per shard, each `pantrace tune SHARD… --partial shard-i.json
  --threads 1` as a subprocess, gathered, then `pantrace tune merge shard-*.json --json`.

The merged report must equal the whole one byte for byte (every run), else the script
fails. Prints the median wall time of each side over R turns with the range, the time of
the shards alone and of the merge, and the load average at the start.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

from dask.distributed import Client, LocalCluster

PRESET = ["--preset", "swipe-dismiss", "--grid", "threshold=0.05:0.95:0.001", "--grid", "velocity=recorded,lsq2"]


def median_range(values):
    ordered = sorted(values)
    n = len(ordered)
    middle = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return middle, ordered[0], ordered[-1]


def run(command):
    done = subprocess.run(command, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"dask_shards: {' '.join(command[:3])} … exited {done.returncode}: {done.stderr.decode()[-500:]}")
    return done.stdout


def tune_shard(pantrace, files, partial):
    """One Dask task: a shard's partial, written by a pantrace subprocess."""
    start = time.perf_counter()
    run([pantrace, "tune", *files, *PRESET, "--threads", "1", "--partial", partial, "--force"])
    return partial, time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pantrace", default=".build/release/pantrace")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    pantrace = os.path.abspath(arguments.pantrace)
    if not os.access(pantrace, os.X_OK):
        raise SystemExit(f"dask_shards: {pantrace}: not an executable; build it with `swift build -c release --product pantrace`")
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="pantrace-dask-") as folder:
        corpus = os.path.join(folder, "corpus")
        run([pantrace, "synth", "-o", corpus, "--count", str(arguments.count), "--seed", "24", "--kind", "swipe-down"])
        files = sorted(glob.glob(os.path.join(corpus, "*.pantrace")))
        size = -(-len(files) // arguments.shards)
        shards = [files[i : i + size] for i in range(0, len(files), size)]
        print(
            f"dask_shards: {len(files)} synthetic swipes, {len(shards)} shards, {arguments.workers} Dask workers, "
            f"grid {' '.join(PRESET[1:])}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
        )
        with LocalCluster(n_workers=arguments.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                wholes, sharded, shard_times, merges = [], [], [], []
                for turn in range(arguments.repeats):
                    start = time.perf_counter()
                    whole = run([pantrace, "tune", *files, *PRESET, "--json"])
                    wholes.append(time.perf_counter() - start)

                    start = time.perf_counter()
                    partials = [os.path.join(folder, f"shard-{i}.json") for i in range(len(shards))]
                    futures = [client.submit(tune_shard, pantrace, shard, partial, pure=False) for shard, partial in zip(shards, partials)]
                    results = client.gather(futures)
                    shards_done = time.perf_counter()
                    merged = run([pantrace, "tune", "merge", *[path for path, _ in results], "--json"])
                    end = time.perf_counter()
                    sharded.append(end - start)
                    shard_times.append(shards_done - start)
                    merges.append(end - shards_done)
                    if merged != whole:
                        raise SystemExit(f"dask_shards: turn {turn}: the merged report differs from the whole run's")
        for name, values in [("whole", wholes), ("sharded", sharded), ("  shards", shard_times), ("  merge", merges)]:
            middle, low, high = median_range(values)
            print(f"  {name:<8} {middle:8.3f} s  (range {low:.3f}–{high:.3f}, {len(values)} turns)")
        print(f"dask_shards: merged report equals the whole run's byte for byte ({len(whole)} bytes), every turn")


if __name__ == "__main__":
    sys.exit(main())
