#!/usr/bin/env python3
"""How close `.pantrace` files are to the floor the corpus itself sets, and to strong peers.

Makes the synthetic benchmark corpus with `pantrace synth` (the same gestures as CodecBench:
seed 2026, 120 Hz, default noise), then prints, each as a ratio to the PanTrace files:

- the floor: for every column, the empirical entropy of its residuals at the best fixed
  prediction order (0-3, one order for the whole corpus), times the number of values; the
  phases as the entropy of each file's phase-run pattern and of its sample count. Nothing a
  file must also say (metadata, framing) is counted, so no per-file format reaches it;
- zstd level 19 over JSON Lines of the same grid values, one file per gesture, without and
  with a dictionary trained on another seed's gestures (the dictionary itself not counted);
- Parquet (pyarrow): every sample in one file, integer ticks, DELTA_BINARY_PACKED + zstd,
  and BYTE_STREAM_SPLIT + zstd;
- a zstd column file: each column of every sample (file index, phase, and the five tick
  columns as their first differences, int64 little-endian), zstd level 19 each;
- the same gestures in one corpus file (`pantrace convert FOLDER X.pantraces`, docs/FORMAT.md
  §11), and its per-gesture overhead;
- decode speed: PanTrace's reader over every file (CodecBench --decode-folder, one thread,
  files in memory) and over the corpus file (CodecBench --decode-corpus) against pyarrow's
  and polars' readers of the Parquet file (one thread, from memory), runs interleaved,
  medians with their ranges.

Usage: .venv-bench/bin/python Benchmarks/size_floor.py [--count N] [--repeats R]
Needs the pinned packages of Benchmarks/requirements.txt (`make .venv-bench/pinned` makes
.venv-bench) and release builds of `pantrace` and `CodecBench`.
"""

import argparse
import gzip
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter

import numpy as np

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # one thread, as every other reader here; read at import
import polars as pl  # noqa: E402
import pyarrow as pa
import pyarrow.parquet as pq
import zstandard

PHASES = {"began": 0, "changed": 1, "ended": 2, "cancelled": 3}
COLUMNS = ["t", "tx", "ty", "vx", "vy"]


def ticks(value, scale):
    """`(value * scale).rounded()` as the writer rounds: half away from zero."""
    scaled = value * scale
    return int(math.floor(abs(scaled) + 0.5)) * (1 if scaled >= 0 else -1)


def read_jsonl_corpus(folder):
    """Every gesture of `folder` as (header, phases, {column: ticks}), snapped to its grid."""
    traces = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            lines = [json.loads(line) for line in f if line.strip()]
        header, samples = lines[0], lines[1:]
        grid = header["grid"]
        scale = {"t": 1e9 / grid["time_tick_ns"], "tx": grid["position_per_pt"], "ty": grid["position_per_pt"],
                 "vx": grid["velocity_per_pt_s"], "vy": grid["velocity_per_pt_s"]}
        columns = {c: [ticks(s[c], scale[c]) for s in samples] for c in COLUMNS}
        phases = [PHASES[s["phase"]] for s in samples]
        traces.append((header, phases, columns, scale))
    return traces


def residuals(values, order):
    """Order-d differences; the first values at the orders their history allows (as PanTrace)."""
    v = np.asarray(values, dtype=np.int64)
    out = np.empty_like(v)
    for i in range(min(order, len(v))):
        out[i] = np.diff(v[: i + 1], n=i)[0] if i > 0 else v[0]
    if len(v) > order:
        out[order:] = np.diff(v, n=order)
    return out


def entropy_bits(values):
    """Empirical entropy of `values` (one pooled histogram) times their count, in bits."""
    _, counts = np.unique(values, return_counts=True)
    p = counts / counts.sum()
    return float(-(counts * np.log2(p)).sum())


# The standard grid's velocity-prediction multiplier (docs/FORMAT.md §4.2).
VELOCITY_M = 549_756


def predicted(cols, c):
    """Translation column `c` as the format's velocity predictor leaves it (FORMAT §4.2): the
    first value, then x[i] - x[i-1] - step(v[i-1], v[i], t[i] - t[i-1])."""
    x = np.asarray(cols[c], dtype=np.int64)
    v = np.asarray(cols["v" + c[1]], dtype=np.int64)
    t = np.asarray(cols["t"], dtype=np.int64)
    step = ((v[:-1] + v[1:]) * np.diff(t) * VELOCITY_M + (1 << 39)) >> 40
    return x[:1], np.diff(x) - step


def floor_bits(traces):
    """The floor in bits, and per column (best order, bits a value). Translation columns may
    also take the format's own velocity predictor (FORMAT §4.2) before an order, as the
    writer does: order "v0"…"v3"."""
    report = {}
    total = 0.0
    n = sum(len(p) for _, p, _, _ in traces)
    for c in COLUMNS:
        best = None
        for order in range(4):
            pooled = np.concatenate([residuals(cols[c], order) for _, _, cols, _ in traces])
            bits = entropy_bits(pooled)
            if best is None or bits < best[1]:
                best = (order, bits)
            if c in ("tx", "ty"):
                firsts, rest = zip(*(predicted(cols, c) for _, _, cols, _ in traces))
                bits = entropy_bits(np.concatenate(firsts)) + entropy_bits(
                    np.concatenate([residuals(r, order) for r in rest if len(r)]))
                if bits < best[1]:
                    best = (f"v{order}", bits)
        report[c] = (best[0], best[1] / n)
        total += best[1]
    patterns = Counter()
    lengths = Counter()
    for _, phases, _, _ in traces:
        runs = []
        for p in phases:
            if not runs or runs[-1] != p:
                runs.append(p)
        patterns[tuple(runs)] += 1
        lengths[len(phases)] += 1
    for counter in (patterns, lengths):
        counts = np.array(list(counter.values()), dtype=np.float64)
        phase_bits = float(-(counts * np.log2(counts / counts.sum())).sum())
        total += phase_bits
    report["phases"] = (None, (total - sum(report[c][1] * n for c in COLUMNS)) / n)
    return total, report


def shortest(x):
    """Python's repr is the shortest round-trip spelling, as Swift's description is."""
    r = repr(float(x))
    return r[:-2] if r.endswith(".0") else r


def jsonl_bytes(header, phases, columns, scale):
    """The gesture as `pantrace convert` spells JSON Lines: grid values, sorted keys."""
    names = {v: k for k, v in PHASES.items()}
    lines = [json.dumps(header, sort_keys=True, separators=(",", ":"))]
    for i, phase in enumerate(phases):
        fields = {"phase": names[phase]}
        for c in COLUMNS:
            fields[c] = columns[c][i] / scale[c]
        lines.append("{" + ",".join(
            f'"{k}":' + (f'"{v}"' if isinstance(v, str) else shortest(v)) for k, v in sorted(fields.items())) + "}")
    return ("\n".join(lines) + "\n").encode()


def parquet_buffer(traces, encoding="DELTA_BINARY_PACKED"):
    """Every sample in one Parquet file: integer ticks, DELTA_BINARY_PACKED (or `encoding`), zstd."""
    file_index, phase = [], []
    cols = {c: [] for c in COLUMNS}
    for index, (_, phases, columns, _) in enumerate(traces):
        file_index += [index] * len(phases)
        phase += phases
        for c in COLUMNS:
            cols[c] += columns[c]
    table = pa.table({"file": pa.array(file_index, pa.int32()), "phase": pa.array(phase, pa.int32()),
                      **{c: pa.array(cols[c], pa.int64()) for c in COLUMNS}})
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd", use_dictionary=False,
                   column_encoding={name: encoding for name in table.column_names},
                   write_statistics=False)
    return sink.getvalue(), table.num_rows


def parquet_split_buffer(traces):
    """The same table as parquet_buffer, BYTE_STREAM_SPLIT + zstd (no delta)."""
    data, _ = parquet_buffer(traces, encoding="BYTE_STREAM_SPLIT")
    return data


def zstd_columns(traces):
    """Bytes of a column file: every column end to end over the corpus, the tick columns as
    first differences, each int64 little-endian and compressed with zstd level 19."""
    total = 0
    compressor = zstandard.ZstdCompressor(level=19)
    file_index = np.concatenate([np.full(len(p), i, dtype=np.int64) for i, (_, p, _, _) in enumerate(traces)])
    phase = np.concatenate([np.asarray(p, dtype=np.int64) for _, p, _, _ in traces])
    total += len(compressor.compress(np.diff(file_index, prepend=0).astype("<i8").tobytes()))
    total += len(compressor.compress(phase.astype("<i8").tobytes()))
    for c in COLUMNS:
        values = np.concatenate([np.asarray(cols[c], dtype=np.int64) for _, _, cols, _ in traces])
        total += len(compressor.compress(np.diff(values, prepend=0).astype("<i8").tobytes()))
    return total


def header_length(payload):
    """Bytes of the header payload at the start of an inflated chunk 0 (versions 2 and 3)."""
    pos = 8

    def skip(count):
        nonlocal pos
        pos += count

    def varint():
        nonlocal pos
        result, shift = 0, 0
        while True:
            b = payload[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if b < 0x80:
                return result
            shift += 7

    def string():
        length = varint()
        header_length.strings += length + 1
        skip(length)

    version = varint()
    if version >= 3:
        flags = varint()
        if flags & 1 == 0:
            varint(), varint(), varint()
    else:
        varint(), varint(), varint()
    header_length.fixed = pos
    header_length.strings = 0
    while True:
        tag = varint()
        if tag == 0:
            return pos
        if tag in (1, 2, 3, 8, 9, 10):  # strings
            string()
        elif tag in (5, 6, 12):  # one byte
            skip(1)
        elif tag == 11:
            varint()
        elif tag == 4:
            for _ in range(3):
                n = varint()
                if n == 1:
                    skip(8)
        elif tag == 7:
            for _ in range(varint()):
                string()
        elif tag == 13:  # version 3: tags, each a known-tag code or a string
            for _ in range(varint()):
                code = varint()
                if code == 0:
                    string()
        else:
            raise ValueError(f"unknown metadata tag {tag}")


def pantrace_sizes(folder, parts=None):
    """Total bytes, files, and the per-file overhead: gzip framing plus the header payload.
    `parts`, if given, is filled with the overhead's parts in bytes: gzip framing, the fixed
    header (magic, version, grid), the metadata's strings (ids, tags, notes) and the rest."""
    total = overhead = files = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".pantrace"):
            continue
        data = open(os.path.join(folder, name), "rb").read()
        d = zlib.decompressobj(16 + 15)
        first = d.decompress(data)
        member = len(data) - len(d.unused_data)
        inflated = len(first)
        # Members after the first (the live layout) count their own framing too.
        rest = d.unused_data
        framing = member - inflated
        while rest:
            d = zlib.decompressobj(16 + 15)
            chunk = d.decompress(rest)
            framing += len(rest) - len(d.unused_data) - len(chunk)
            rest = d.unused_data
        total += len(data)
        length = header_length(first)
        overhead += framing + length
        files += 1
        if parts is not None:
            fixed = header_length.fixed
            strings = header_length.strings
            for key, value in (("gzip framing", framing), ("magic, version, grid", fixed),
                               ("metadata strings", strings), ("other metadata", length - fixed - strings)):
                parts[key] = parts.get(key, 0) + value
    return total, files, overhead


def median_range(values, digits=2):
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="gestures in the corpus (default 10000)")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved decode runs each (default 5)")
    parser.add_argument("--pantrace", default=".build/release/pantrace")
    parser.add_argument("--codecbench", default=".build/release/CodecBench")
    parser.add_argument("--real", default="recordings/real", help="a folder of real recordings for the overhead line")
    parser.add_argument("--callgrind", action="store_true", help="also count decode instructions under valgrind (slow)")
    args = parser.parse_args()
    for binary in (args.pantrace, args.codecbench):
        if not os.access(binary, os.X_OK):
            sys.exit(f"size_floor.py: {binary} is missing: build it with swift build -c release first")

    with tempfile.TemporaryDirectory(prefix="pantrace-floor-") as tmp:
        def synth(folder, seed, fmt, count):
            subprocess.run([args.pantrace, "synth", "-o", os.path.join(tmp, folder), "--count", str(count),
                            "--seed", str(seed), "--rate", "120", "--format", fmt],
                           check=True, stdout=subprocess.DEVNULL)
            return os.path.join(tmp, folder)

        pt = synth("pt", 2026, "pantrace", args.count)
        traces = read_jsonl_corpus(synth("jl", 2026, "jsonl", args.count))
        training = read_jsonl_corpus(synth("train", 2027, "jsonl", min(args.count, 2000)))
        n = sum(len(p) for _, p, _, _ in traces)
        print(f"corpus: {len(traces)} gestures from `pantrace synth --seed 2026 --rate 120`, {n} samples, "
              f"{n / len(traces):.1f} a gesture")

        floor, per_column = floor_bits(traces)
        floor_bps = floor / 8 / n
        total, files, overhead = pantrace_sizes(pt)
        pt_bps = total / n
        docs = [jsonl_bytes(*t) for t in traces]
        plain = sum(len(zstandard.ZstdCompressor(level=19).compress(d)) for d in docs)
        dictionary = zstandard.train_dictionary(16 * 1024, [jsonl_bytes(*t) for t in training], level=19)
        with_dict = zstandard.ZstdCompressor(level=19, dict_data=dictionary)
        dict_total = sum(len(with_dict.compress(d)) for d in docs)
        gz = sum(len(gzip.compress(d, 6, mtime=0)) for d in docs)
        parquet, rows = parquet_buffer(traces)
        assert rows == n
        parquet_split = parquet_split_buffer(traces)
        columns_zstd = zstd_columns(traces)
        corpus = os.path.join(tmp, "pt.pantraces")
        subprocess.run([args.pantrace, "convert", pt, corpus], check=True, stdout=subprocess.DEVNULL)
        corpus_bytes = os.path.getsize(corpus)

        print("\nfloor, per column: " + ", ".join(
            f"{c} order {o} {b:.2f} bits" if o is not None else f"{c} {b:.3f} bits"
            for c, (o, b) in per_column.items()) + " (a sample)")
        print("\n| what (synthetic corpus) | bytes a sample | × the floor | PanTrace ÷ it |")
        print("|---|---:|---:|---:|")
        rows_out = [
            ("floor: entropy of the best fixed-order residuals", floor_bps),
            (".pantrace, one file a gesture", pt_bps),
            (".pantraces, every gesture in one corpus file (packed)", corpus_bytes / n),
            ("zstd -19 JSON Lines, one file a gesture", plain / n),
            ("zstd -19 JSON Lines + 16 KiB trained dictionary (not counted)", dict_total / n),
            ("gzip -6 JSON Lines, one file a gesture", gz / n),
            ("Parquet, every sample in one file (DELTA_BINARY_PACKED + zstd)", len(parquet) / n),
            ("Parquet, every sample in one file (BYTE_STREAM_SPLIT + zstd)", len(parquet_split) / n),
            ("zstd -19 column file: each column's first differences, int64", columns_zstd / n),
        ]
        for label, bps in rows_out:
            print(f"| {label} | {bps:.2f} | {bps / floor_bps:.2f} | {pt_bps / bps:.2f} |")
        print(f"\n.pantrace per-file overhead (gzip framing + header payload): {overhead / files:.1f} B a file, "
              f"{overhead / total * 100:.0f} % of the bytes; samples {(total - overhead) / n:.2f} B a sample")
        print(f".pantraces per-gesture overhead (corpus bytes less the sample payloads, a gesture): "
              f"{(corpus_bytes - (total - overhead)) / files:.1f} B, {(corpus_bytes - (total - overhead)) / corpus_bytes * 100:.0f} % of the bytes")
        print(f"corpus size goal (within 1.2× of the floor): {corpus_bytes / n / floor_bps:.3f}× -> "
              f"{'met' if corpus_bytes / n <= 1.2 * floor_bps else 'not met'}")
        for label, parts_folder in (("synthetic corpus", pt),):
            parts = {}
            pantrace_sizes(parts_folder, parts)
            print(f"  of which, a file: " + ", ".join(f"{k} {v / files:.1f} B" for k, v in parts.items()))
        if os.path.isdir(args.real):
            # The bundled real flings are version 2 files; `pantrace convert` rewrites them in
            # the version this build writes, under the same names.
            converted = os.path.join(tmp, "real")
            os.makedirs(converted)
            for name in sorted(os.listdir(args.real)):
                if name.endswith(".pantrace"):
                    subprocess.run([args.pantrace, "convert", os.path.join(args.real, name), os.path.join(converted, name)],
                                   check=True, stdout=subprocess.DEVNULL)
            for label, folder in (("as bundled", args.real), ("rewritten by this build", converted)):
                parts = {}
                rt, rf, ro = pantrace_sizes(folder, parts)
                print(f"{args.real} {label}: {rf} files, {rt / rf:.0f} B a file, per-file overhead {ro / rf:.1f} B a file "
                      f"({ro / rt * 100:.0f} %): " + ", ".join(f"{k} {v / rf:.1f} B" for k, v in parts.items()))
            real_corpus = os.path.join(tmp, "real.pantraces")
            subprocess.run([args.pantrace, "convert", converted, real_corpus], check=True, stdout=subprocess.DEVNULL)
            rc = os.path.getsize(real_corpus)
            print(f"{args.real} rewritten, in one corpus file: {rc} B, {rc / rf:.0f} B a gesture, per-gesture overhead "
                  f"{(rc - (rt - ro)) / rf:.1f} B (the files' {ro / rf:.1f} B)")
        print(f"size goal (within 1.2× of the floor): {pt_bps / floor_bps:.3f}× -> "
              f"{'met' if pt_bps <= 1.2 * floor_bps else 'not met'}")
        if os.path.isdir(args.real):
            print(f"overhead goal (under 40 B a file on the real flings): {ro / rf:.1f} B -> {'met' if ro / rf < 40 else 'not met'}")

        # Decode: interleaved runs of PanTrace's reader and pyarrow's, one thread each.
        pa.set_cpu_count(1)
        pa.set_io_thread_count(1)

        def pyarrow_rate():
            # As CodecBench measures: one untimed read, then reads for at least a second.
            assert pq.read_table(pa.BufferReader(parquet), use_threads=False).num_rows == n
            runs, start = 0, time.perf_counter()
            while runs == 0 or time.perf_counter() - start < 1.0:
                pq.read_table(pa.BufferReader(parquet), use_threads=False)
                runs += 1
            return n * runs / (time.perf_counter() - start) / 1e6

        def polars_rate():
            assert pl.read_parquet(io.BytesIO(parquet), use_pyarrow=False).height == n
            runs, start = 0, time.perf_counter()
            while runs == 0 or time.perf_counter() - start < 1.0:
                pl.read_parquet(io.BytesIO(parquet), use_pyarrow=False)
                runs += 1
            return n * runs / (time.perf_counter() - start) / 1e6

        def pantrace_rate(mode="--decode-folder"):
            out = subprocess.run([args.codecbench, mode, corpus if mode == "--decode-corpus" else pt],
                                 check=True, capture_output=True, text=True).stdout
            line = [l for l in out.splitlines() if l.startswith("decode-folder:")][0]
            fields = dict(f.split("=") for f in line.split()[1:])
            assert int(fields["samples"]) == n, line
            return float(fields["msamples_per_s"])

        ours, joined, theirs, in_corpus, polars = [], [], [], [], []
        for _ in range(args.repeats):
            ours.append(pantrace_rate())
            theirs.append(pyarrow_rate())
            in_corpus.append(pantrace_rate("--decode-corpus"))
            polars.append(polars_rate())
            joined.append(pantrace_rate("--decode-joined"))
        ratios = [a / b for a, b in zip(ours, theirs)]
        joined_ratios = [a / b for a, b in zip(joined, theirs)]
        corpus_ratios = [a / b for a, b in zip(in_corpus, theirs)]
        strongest = [max(a, b) for a, b in zip(theirs, polars)]
        corpus_vs_strongest = [a / b for a, b in zip(in_corpus, strongest)]
        print(f"\ndecode, M samples/s, one thread, medians of {args.repeats} interleaved runs (range):")
        print("| reader | M samples/s | ÷ pyarrow, run by run |")
        print("|---|---:|---:|")
        print(f"| PanTrace, {files} files from memory, into one reused array | {median_range(ours)} | {median_range(ratios)} |")
        print(f"| PanTrace, the same samples as one {n}-sample file, into one reused array | {median_range(joined)} | "
              f"{median_range(joined_ratios)} |")
        print(f"| PanTrace, the same {files} gestures in one corpus file from memory | {median_range(in_corpus)} | "
              f"{median_range(corpus_ratios)} |")
        print(f"| pyarrow {pa.__version__} read_table, one Parquet file from memory | {median_range(theirs)} | 1 |")
        print(f"| polars {pl.__version__} read_parquet, the same file from memory | {median_range(polars)} | "
              f"{median_range([a / b for a, b in zip(polars, theirs)])} |")
        print(f"decode goal (corpus ≥ 1× the strongest reader, run by run): {median_range(corpus_vs_strongest)} -> "
              f"{'met' if statistics.median(corpus_vs_strongest) >= 1 else 'not met'}")

        if args.callgrind:
            # Instruction counts repeat exactly where times do not: each decoder runs 1 and 3
            # passes under callgrind, and the difference is two passes of decoding alone.
            parquet_path = os.path.join(tmp, "corpus.parquet")
            with open(parquet_path, "wb") as f:
                f.write(parquet)
            reader_script = ("import sys, pyarrow as pa, pyarrow.parquet as pq\n"
                             "pa.set_cpu_count(1); pa.set_io_thread_count(1)\n"
                             "buf = open(sys.argv[1], 'rb').read()\n"
                             "for _ in range(int(sys.argv[2])): pq.read_table(pa.BufferReader(buf), use_threads=False)\n")

            def instructions(command, env=None):
                out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                                     capture_output=True, text=True, env={**os.environ, **(env or {})})
                line = [l for l in out.stderr.splitlines() if "refs:" in l][0]
                return int(line.split("refs:")[1].replace(",", "").strip())

            packed = [instructions([args.codecbench, "--decode-corpus", corpus], {"PANTRACE_ROUNDS": str(r)}) for r in (1, 3)]
            ours = [instructions([args.codecbench, "--decode-folder", pt], {"PANTRACE_ROUNDS": str(r)}) for r in (1, 3)]
            theirs = [instructions([sys.executable, "-c", reader_script, parquet_path, str(r)]) for r in (1, 3)]
            a, b = (ours[1] - ours[0]) / (2 * n), (theirs[1] - theirs[0]) / (2 * n)
            c = (packed[1] - packed[0]) / (2 * n)
            print(f"callgrind, instructions a sample decoded: PanTrace files {a:.0f}, PanTrace corpus {c:.0f}, "
                  f"pyarrow {b:.0f} (pyarrow ÷ corpus {b / c:.2f})")


if __name__ == "__main__":
    main()
