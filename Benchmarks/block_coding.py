#!/usr/bin/env python3
"""What the sample columns would cost coded in blocks, as Parquet codes them, against Rice codes.

Parquet's DELTA_BINARY_PACKED decodes fast because every value of a block has the same bit
width: no per-value branch, no unary prefix. `.pantrace` files Rice-code each value
(docs/FORMAT.md §4), which adapts to every value's size and costs a data-dependent step per
value. This script measures, on the synthetic benchmark corpus (`pantrace synth --seed 2026
--rate 120`, as size_floor.py), what the five tick columns would cost in bytes a sample:

- Rice: each gesture's column at its best prediction order (0-3, or the velocity predictor
  then an order for the translation columns, as the writer chooses) and best Rice parameter;
- blocks of B values (16, 32, 64), frame of reference: each block stores its minimum (about a
  byte) and a 6-bit width, then every value less the minimum in that width;
- patched frame of reference (PFOR, blocks of 32): a narrower width, and the values that do
  not fit stored apart (a 5-bit index and their high bits each, 5 bits for the count).

Only the columns' residuals are counted (not the first values, headers, phases or framing,
which are the same in every scheme), so the figures compare the codings, not whole files.
Add the difference to a file's bytes a sample (size_floor.py) to see where a format using
the block coding would land against the floor.

Usage: .venv-bench/bin/python Benchmarks/block_coding.py [--count N]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import size_floor as sf  # noqa: E402


def zigzag(r):
    return ((r << 1) ^ (r >> 63)).astype(np.uint64)


def rice_bits(r):
    """Bits of the Rice codes of `r` at the best parameter (a unary quotient, a stop bit, k bits)."""
    z = zigzag(r)
    mean = float(z.mean()) if len(z) else 0.0
    guess = max(0, int(np.log2(mean + 1)))
    return min(int(((z >> np.uint64(k)).astype(np.int64) + 1 + k).sum()) for k in range(max(0, guess - 3), guess + 4))


def block_bits(r, size):
    """Frame-of-reference blocks of `size` values: a minimum (8 bits), a width (6 bits), the values."""
    total = 0
    for i in range(0, len(r), size):
        block = r[i:i + size]
        total += 14 + (int(block.max()) - int(block.min())).bit_length() * len(block)
    return total


def pfor_bits(r, size=32):
    """Patched frame of reference: the best width for each block, exceptions stored apart."""
    total = 0
    for i in range(0, len(r), size):
        block = r[i:i + size]
        lengths = sorted((int(x) - int(block.min())).bit_length() for x in block)
        widest = lengths[-1]
        best = None
        for width in range(widest + 1):
            exceptions = sum(1 for n in lengths if n > width)
            cost = 14 + width * len(block) + (5 + exceptions * (5 + widest - width) if exceptions else 0)
            best = cost if best is None else min(best, cost)
        total += best
    return total


def candidates(cols, column):
    """The residuals the writer may choose from for one gesture's column."""
    out = [sf.residuals(cols[column], order)[order:] for order in range(4)]
    if column in ("tx", "ty"):
        _, rest = sf.predicted(cols, column)
        out += [sf.residuals(rest, order)[order:] for order in range(3) if len(rest) > order]
    return [r for r in out if len(r)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="gestures (default 10000, as size_floor.py)")
    parser.add_argument("--pantrace", default=".build/release/pantrace")
    args = parser.parse_args()
    if not os.access(args.pantrace, os.X_OK):
        sys.exit(f"block_coding.py: {args.pantrace} is missing: build it with swift build -c release first")
    with tempfile.TemporaryDirectory(prefix="pantrace-blocks-") as tmp:
        subprocess.run([args.pantrace, "synth", "-o", os.path.join(tmp, "jl"), "--count", str(args.count), "--seed", "2026",
                        "--rate", "120", "--format", "jsonl"], check=True, stdout=subprocess.DEVNULL)
        traces = sf.read_jsonl_corpus(os.path.join(tmp, "jl"))
    n = sum(len(p) for _, p, _, _ in traces)
    schemes = {"Rice, per value (the format today)": rice_bits,
               "blocks of 16, frame of reference": lambda r: block_bits(r, 16),
               "blocks of 32, frame of reference (Parquet's miniblock)": lambda r: block_bits(r, 32),
               "blocks of 64, frame of reference": lambda r: block_bits(r, 64),
               "blocks of 32, patched frame of reference": pfor_bits}
    totals = dict.fromkeys(schemes, 0)
    for _, _, cols, _ in traces:
        for column in sf.COLUMNS:
            residuals = candidates(cols, column)
            for name, bits in schemes.items():
                totals[name] += min(bits(r) for r in residuals)
    rice = totals["Rice, per value (the format today)"]
    print(f"{len(traces)} gestures, {n} samples; the five tick columns' residuals only")
    print("| coding | bytes a sample | more than Rice |")
    print("|---|---:|---:|")
    for name, bits in totals.items():
        print(f"| {name} | {bits / 8 / n:.3f} | {(bits - rice) / 8 / n:+.3f} |")


if __name__ == "__main__":
    main()
