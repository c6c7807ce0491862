"""`pantrace tune` end to end against numpy + pyarrow on a Parquet export (issue 24, Tune).

Usage:
    .venv-bench/bin/python Benchmarks/tune/end_to_end.py [--sizes 10000,100000] [--repeats 3]
        [--pantrace .build/release/pantrace] [--cache build/tune-e2e] [--seed 1]
        [--grid threshold=0.05:0.95:0.001]

(`make bench` makes .venv-bench from the pinned Benchmarks/requirements.txt.)

For each size N, untimed and cached under --cache (never committed):
1. `pantrace synth -o corpus.pantraces --count N --seed S --kind swipe-down`;
2. `pantrace synth -o jsonl --format jsonl` with the same seed and options: the same gestures
   as JSON Lines, before they are snapped to the .pantrace grid (`pantrace convert` of each
   gesture, one process a file, is too slow for 10^6 files);
3. a Parquet export, written by pyarrow from those JSON Lines snapped as a .pantrace stores
   them, in the corpus's order: one row per sample, with the gesture's columns (index, name,
   id, intent, tags, source, screen) and every sample field (t, phase, tx, ty, vx, vy);
4. the check that the export is the corpus: for every gesture, its fold hash (an FNV-1a hash
   of the id and every sample's bytes), id, intent, tags, source and order as
   `pantrace tune --partial` reports them. The JSON Lines are then deleted.

Then, timed and interleaved, each run a child process measured alike (wall clock, user + system
CPU and peak RSS from GNU time):
- `pantrace tune corpus.pantraces --preset swipe-dismiss --grid GRID --json`;
- the peer (this script with --peer): pyarrow reads the Parquet (the columns it needs,
  strings as dictionaries, numpy views of the rest) and numpy computes what tune computes, as
  docs/TUNE.md and docs/MODEL.md describe it and Sources/PanTune does it: the
  release state of every gesture (last `changed` progress, recorded velocity), admission
  (off-axis, no progress), the D1 decision, the T1a completion time and velocity
  discontinuity, the sorted threshold sweep with every sum exact and rounded once (as
  tune's ExactSum and FixedSum do), the tie rule, the equal points, the axes with no effect,
  the edge, the Clopper–Pearson intervals (tune's own bisection), the 5 folds by tune's
  FNV-1a fold hash, the breakdown by tag and source, the notes, the misjudged list with its
  reasons and the improvement, and writes the whole report as JSON.

After timing, the peer's JSON is compared with tune's field by field, every float exactly
(tune does not round the JSON; both sides parse to the same doubles); any difference fails
the script with the path of the field. The peer covers what this grid exercises: the
`swipe-dismiss` preset, its recorded velocity, one numeric `threshold` axis strictly inside
(0, 1) (no `warnings`), and corpora without unreadable or unreplayable gestures; it refuses
anything else rather than printing a report it did not compute.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

# The Clopper–Pearson intervals must be `tune`'s to the bit, so numpy's float64 log and exp
# must be libm's (`check_libm`). On a CPU with AVX-512, numpy 2.4 computes them with its own
# SIMD code (the X86_V4 dispatch target, SVML), which differs in the last bit; dispatching to
# the X86_V3 (AVX2) target instead makes them libm's. numpy reads this once, at import. Other
# kernels then run at AVX2 rather than AVX-512 (set the variable to "" to see the difference).
os.environ.setdefault("NPY_DISABLE_CPU_FEATURES", "X86_V4")

import numpy as np

PRESET = "swipe-dismiss"
DEFAULT_GRID = "threshold=0.05:0.95:0.001"
# swipe-dismiss's defaults (Sources/TransitionEngine/Presets/PresetName+Defaults.swift):
# p = ty / (0.5·H) clamped, finish iff p > 0.5 on the last `changed` progress, a release
# without `changed` cancels, T1a with completionSpeed 1 − p0, D = 1.5 s.
DEFAULT_THRESHOLD = 0.5
TRAVEL = 0.5
DURATION = 1.5
MINIMUM_SPEED = 1e-3
MAXIMUM_COMPLETION = 10.0
MINIMUM_PEAK_PROGRESS = 0.05
FOLDS = 5
SEED = 1
MAXIMUM_GROUPS = 16
MAXIMUM_TALLIES = 8_000_000
MAXIMUM_LISTED_POINTS = 100_000
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


# ---------------------------------------------------------------------------------------------
# Formatting, as Swift prints (Decision.format, TuningResult.text / percent / fixed)


def swift_rounded(x):
    """Swift's `.rounded()`: to nearest, ties away from zero."""
    if not math.isfinite(x):
        return x
    floor = math.floor(abs(x))
    result = floor + 1 if abs(x) - floor >= 0.5 else floor
    return math.copysign(float(result), x)


def swift_description(x):
    """Swift's `"\\(double)"` for the values reports hold: the shortest round-trip digits."""
    text = repr(float(x))
    if "e" in text:
        mantissa, exponent = text.split("e")
        sign = "-" if exponent.startswith("-") else "+"
        digits = exponent.lstrip("+-")
        text = f"{mantissa}e{sign}{digits.zfill(2)}"
    return text


def decision_format(value, digits=2):
    if not math.isfinite(value):
        return swift_description(value)
    scale = 1.0
    for _ in range(digits):
        scale *= 10
    rounded = swift_rounded(value * scale) / scale
    if rounded == swift_rounded(rounded) and abs(rounded) < 1e15:
        return str(int(rounded))
    return swift_description(rounded)


def format_pair(first, second):
    digits = 2
    while digits < 6 and first != second and decision_format(first, digits) == decision_format(second, digits):
        digits += 1
    return decision_format(first, digits), decision_format(second, digits)


def value_text(value):
    if isinstance(value, str):
        return value
    if value == swift_rounded(value) and abs(value) < 1e15:
        return str(int(value))
    return swift_description(value)


def fixed(value, digits):
    text = "%.*f" % (digits, value)
    if text.startswith("-") and all(c in "0." for c in text[1:]):
        return text[1:]
    return text


def percent(fraction):
    return fixed(fraction * 100, 1) + "%"


# ---------------------------------------------------------------------------------------------
# The grid (Sources/PanTune/Grid/GridAxis.swift)


def parse_grid(spec):
    key, _, rng = spec.partition("=")
    parts = [part.strip(" ") for part in rng.split(":")]
    if key != "threshold" or len(parts) != 3:
        sys.exit(f"tune e2e peer: the peer reproduces one numeric threshold axis FROM:TO:STEP, not {spec!r}")
    start, stop, step = (float(part) for part in parts)
    count = int(math.floor((stop - start) / step + 1e-9)) + 1
    decimals = 0
    for part in parts:
        if "e" in part or "E" in part:
            decimals = None
            break
        written = len(part) - part.index(".") - 1 if "." in part else 0
        if written > 15:
            decimals = None
            break
        decimals = max(decimals, written)
    values = []
    for index in range(count):
        value = start + float(index) * step
        if decimals is not None:
            scale = 1.0
            for _ in range(decimals):
                scale *= 10
            value = swift_rounded(value * scale) / scale
        values.append(value)
    if not all(0 < value < 1 for value in values):
        sys.exit("tune e2e peer: thresholds must lie strictly inside (0, 1) (the peer does not reproduce `warnings`)")
    if count < 2:
        sys.exit("tune e2e peer: the threshold axis needs at least two values (the sorted sweep)")
    return key, np.array(values, dtype=np.float64)


# ---------------------------------------------------------------------------------------------
# Exact sums: tune adds every margin, completion time and discontinuity exactly and rounds
# once (ExactSum, FixedSum). Here: the values as integers of one unit (the lowest bit any of
# them has), split in 31-bit limbs so numpy's int64 prefix sums cannot overflow, and the
# prefix sums at the points needed put together as Python integers, rounded once by Python's
# correctly rounded integer division.

LIMB = 31


class ExactPrefix:
    """Exact prefix sums of non-negative doubles, read at chosen prefix lengths."""

    def __init__(self, values, extra_exponents=()):
        values = np.ascontiguousarray(values, dtype=np.float64)
        if values.size and (values.min() < 0 or not np.isfinite(values).all()):
            raise ValueError("exact prefix sums take finite non-negative values")
        mantissa, exponent = np.frexp(values)
        integer = (mantissa * 2.0**53).astype(np.int64)
        exponent = exponent.astype(np.int64) - 53
        nonzero = integer != 0
        lows = list(extra_exponents)
        if nonzero.any():
            # Drop trailing zero bits so the unit is as coarse as the values allow.
            trailing = np.zeros_like(integer)
            work = integer.copy()
            for bit in (32, 16, 8, 4, 2, 1):
                mask = nonzero & ((work & ((1 << bit) - 1)) == 0)
                work[mask] >>= bit
                trailing[mask] += bit
            integer = np.where(nonzero, work, 0)
            exponent = np.where(nonzero, exponent + trailing, 0)
            lows.append(int(exponent[nonzero].min()))
        self.unit = min(lows) if lows else 0
        shift = np.where(nonzero, exponent - self.unit, 0)
        top = int((shift + 53).max()) if values.size else 0
        self.limbs = max(1, -(-top // LIMB))
        self.prefix = []
        mask = (1 << LIMB) - 1
        for limb in range(self.limbs):
            low = limb * LIMB
            # Bits [low, low + 31) of integer · 2^shift.
            right = low - shift
            part = np.where(
                right >= 0,
                np.right_shift(integer, np.clip(right, 0, 63)) * (right < 64),
                np.left_shift(integer, np.clip(-right, 0, 63)) * (-right < 63),
            ) & mask
            sums = np.zeros(values.size + 1, dtype=np.int64)
            np.cumsum(part, out=sums[1:])
            self.prefix.append(sums)

    def at(self, lengths):
        """The exact sums of the first `lengths[i]` values, as integers of 2^unit."""
        lengths = np.asarray(lengths)
        total = [0] * lengths.size
        for limb in reversed(range(self.limbs)):
            column = self.prefix[limb][lengths].tolist()
            total = [(t << LIMB) + c for t, c in zip(total, column)]
        return total


def exact_integer(value):
    """A double as (integer, exponent)."""
    numerator, denominator = float(value).as_integer_ratio()
    return numerator, -(denominator.bit_length() - 1)


def rounded(integer, unit):
    """integer · 2^unit, rounded once to the nearest double."""
    if unit >= 0:
        return float(integer << unit)
    return integer / (1 << -unit)


# ---------------------------------------------------------------------------------------------
# Clopper–Pearson, as BinomialInterval.swift computes it: bisection to 1e-12 on the binomial
# sum, each term exp of a log built from summed log factorials (libm's log, log1p and exp:
# numpy's float64 log and exp are libm's on a CPU without AVX-512, which `check_libm` checks).


class Binomial:
    def __init__(self, trials):
        self.n = trials
        logs = np.log(np.arange(1, trials + 1, dtype=np.float64))
        self.log_factorials = np.zeros(trials + 1)
        np.cumsum(logs, out=self.log_factorials[1:])

    def log_terms(self, indices, log_p, log_q):
        f = self.log_factorials
        n = self.n
        i = indices.astype(np.float64)
        return f[n] - f[indices] - f[n - indices] + i * log_p + (n - i) * log_q

    def cumulative(self, k, p):
        n = self.n
        if p <= 0:
            return 1.0
        if p >= 1:
            return 1.0 if k >= n else 0.0
        log_p, log_q = math.log(p), math.log1p(-p)
        mode = min(k, int(math.floor(float(n + 1) * p)))
        cutoff = float(self.log_terms(np.array([mode]), log_p, log_q)[0]) - 80
        # Only terms within e^-80 of the largest count; they lie around the mode. Read a
        # window wide enough that both its ends are below the cutoff (else the whole range).
        spread = int(60 * math.sqrt(n * p * (1 - p))) + 64
        low, high = max(0, mode - spread), min(k, mode + spread)
        window = np.arange(low, high + 1)
        exponents = self.log_terms(window, log_p, log_q)
        if (low > 0 and exponents[0] > cutoff) or (high < k and exponents[-1] > cutoff):
            window = np.arange(0, k + 1)
            exponents = self.log_terms(window, log_p, log_q)
        kept = exponents[exponents > cutoff]
        if kept.size == 0:
            return 0.0
        total = float(np.cumsum(np.exp(kept))[-1])
        return min(total, 1.0)

    def solve(self, k, target):
        lower, upper = 0.0, 1.0
        while upper - lower > 1e-12:
            middle = (lower + upper) / 2
            if self.cumulative(k, middle) > target:
                lower = middle
            else:
                upper = middle
        return (lower + upper) / 2

    def interval(self, correct, level=0.95):
        if self.n == 0:
            return 0.0, 1.0
        tail = (1 - level) / 2
        low = 0.0 if correct == 0 else self.solve(correct - 1, 1 - tail)
        high = 1.0 if correct == self.n else self.solve(correct, tail)
        return low, high


def check_libm():
    """numpy's float64 log and exp must be libm's (math's), bit for bit, for the intervals."""
    rng = np.random.default_rng(7)
    xs = np.concatenate([rng.uniform(1e-300, 1e6, 20000), np.arange(1, 20001, dtype=np.float64)])
    es = rng.uniform(-745, 10, 20000)
    if np.any(np.log(xs) != np.array([math.log(x) for x in xs])) or np.any(np.exp(es) != np.array([math.exp(e) for e in es])):
        sys.exit("tune e2e peer: numpy's float64 log/exp differ from libm's here; the intervals would not be tune's")


# ---------------------------------------------------------------------------------------------
# Reading the Parquet export, one row group (whole gestures) at a time, keeping per gesture
# only what the report needs, so memory follows the gestures, not their samples.

COLUMNS = ["gesture", "name", "id", "intent", "tags", "source", "screen_width", "screen_height", "phase", "t", "tx", "ty", "vx", "vy"]


class Codes:
    """Strings of many row groups as one set of integer codes."""

    def __init__(self):
        self.names = []
        self.index = {}

    def of(self, dictionary_array):
        """Global codes of a pyarrow DictionaryArray (or of a plain array, encoded first)."""
        if not hasattr(dictionary_array, "indices"):
            dictionary_array = dictionary_array.dictionary_encode()
        values = dictionary_array.dictionary.to_pylist()
        local = [self.index.setdefault(value, len(self.index)) for value in values]
        self.names.extend([None] * (len(self.index) - len(self.names)))
        for value, code in zip(values, local):
            self.names[code] = value
        indices = dictionary_array.indices.to_numpy(zero_copy_only=False)
        return np.asarray(local, dtype=np.int64)[indices] if local else np.zeros(0, dtype=np.int64)


def column_numpy(table, name):
    column = table.column(name)
    return column.chunk(0).to_numpy() if column.num_chunks == 1 else column.to_numpy()


def dictionary_column(table, name):
    import pyarrow as pa

    column = table.column(name)
    if column.num_chunks != 1:
        column = pa.chunked_array([column.combine_chunks()])
    return column.chunk(0)


def gesture_stats(table, first, codes, label, distance_of):
    """Per gesture of one row group: what admission, the decision, the completion, the folds
    and the report read."""
    import pyarrow as pa

    gesture = column_numpy(table, "gesture")
    starts = np.concatenate([[0], np.flatnonzero(np.diff(gesture)) + 1])
    count = starts.size
    if gesture[0] != first or np.any(np.diff(gesture[starts]) != 1):
        sys.exit(f"tune e2e peer: rows are not grouped by gesture {first}, {first + 1}, … in order")
    total_rows = gesture.size
    row_gesture = np.repeat(np.arange(count), np.diff(np.concatenate([starts, [total_rows]])))
    row_index = np.arange(total_rows)
    phase = dictionary_column(table, "phase")
    phase_names = phase.dictionary.to_pylist()
    phase_codes = phase.indices.to_numpy(zero_copy_only=False)
    terminal = np.isin(phase_codes, [i for i, v in enumerate(phase_names) if v in ("ended", "cancelled")])
    changed_rows = np.isin(phase_codes, [i for i, v in enumerate(phase_names) if v == "changed"])
    t, tx, ty, vy = (column_numpy(table, name) for name in ("t", "tx", "ty", "vy"))

    # The release: the first `ended`/`cancelled` sample (GestureTrack).
    big = np.iinfo(np.int64).max
    release = np.minimum.reduceat(np.where(terminal, row_index, big), starts)
    if np.any(release == big) or np.any(release == starts):
        sys.exit("tune e2e peer: a gesture without a release (or released at its first sample): unreplayable traces are not reproduced")
    if np.any(t[release] - t[starts] > 3600.0):
        sys.exit("tune e2e peer: a gesture longer than an hour: unreplayable traces are not reproduced")
    width = column_numpy(table, "screen_width")[starts]
    height = column_numpy(table, "screen_height")[starts]
    if np.any(~((width >= 1) & (width <= 100000) & (height >= 1) & (height <= 100000))):
        sys.exit("tune e2e peer: a screen outside 1…100000 points: unreplayable traces are not reproduced")
    distance = distance_of(width, height)
    in_track = row_index <= release[row_gesture]
    last_changed = np.maximum.reduceat(np.where(changed_rows & in_track, row_index, -1), starts)
    has_changed = last_changed >= starts

    # Admission (GestureFit) over the samples up to the release, under p = ty / L clamped.
    progress_rows = np.minimum(np.maximum(ty / distance[row_gesture], 0.0), 1.0)
    along = np.maximum.reduceat(np.where(in_track, np.abs(ty), 0.0), starts)
    across = np.maximum.reduceat(np.where(in_track, np.abs(tx), 0.0), starts)
    peak = np.maximum.reduceat(np.where(in_track, progress_rows, 0.0), starts)
    off_axis = along < across
    no_progress = ~off_axis & (peak < MINIMUM_PEAK_PROGRESS)

    intent = codes["intent"].of(dictionary_column(table, "intent"))[starts]
    name = dictionary_column(table, "name").take(pa.array(starts))
    names = name.dictionary.take(name.indices).to_pylist() if hasattr(name, "indices") else name.to_pylist()
    known = np.array([codes["intent"].names[c] != "unknown" for c in intent.tolist()], dtype=bool)
    misfits = []
    for g in np.flatnonzero(known & (off_axis | no_progress)).tolist():
        track = slice(starts[g], release[g] + 1)
        xs, ys = tx[track], ty[track]
        extreme_x = float(xs[int(np.argmax(np.abs(xs)))])
        extreme_y = float(ys[int(np.argmax(np.abs(ys)))])
        verdict = "off_axis" if off_axis[g] else "no_progress"
        misfits.append({"file": f"{label}#{names[g]}", "verdict": verdict, "reason": misfit_reason(
            verdict, float(along[g]), float(across[g]), float(peak[g]), float(distance[g]), extreme_x, extreme_y)})

    # The release state (recorded velocity): the decision reads the last `changed` progress.
    shown = np.where(has_changed, np.minimum(np.maximum(ty[np.maximum(last_changed, 0)] / distance, 0.0), 1.0), 0.0)

    # The fold hash over the id and every sample.
    ids = dictionary_column(table, "id")
    id_codes_local = ids.indices.to_numpy(zero_copy_only=False)[starts]
    id_values = ids.dictionary
    offsets = np.frombuffer(id_values.buffers()[1], dtype=np.int32, count=len(id_values) + 1, offset=id_values.offset * 4).astype(np.int64)
    id_data = np.frombuffer(id_values.buffers()[2], dtype=np.uint8) if id_values.buffers()[2] is not None else np.zeros(0, np.uint8)
    samples = {"starts": starts, "t": t, "tx": tx, "ty": ty, "vx": column_numpy(table, "vx"), "vy": vy}
    hashes = fold_hashes(samples, id_data, offsets[id_codes_local], offsets[id_codes_local + 1] - offsets[id_codes_local])
    id_strings = id_values.take(pa.array(id_codes_local)).to_pylist()

    # Tags and source, as global codes.
    tags = table.column("tags").take(pa.array(starts)).combine_chunks()
    tag_codes = codes["tag"].of(tags.flatten())
    lengths = tags.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
    tag_owner = np.repeat(np.arange(count), lengths) + first
    source = codes["source"].of(dictionary_column(table, "source"))[starts]
    return {
        "known": known, "off_axis": off_axis, "no_progress": no_progress, "has_changed": has_changed, "shown": shown,
        "distance": distance, "axis_velocity": vy[release], "intent": intent, "hash": hashes, "source": source,
        "tag_owner": tag_owner, "tag": tag_codes, "names": names, "ids": id_strings, "misfits": misfits,
    }


def read_export(path, label, distance_of):
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path, read_dictionary=["name", "id", "intent", "source", "phase", "tags.list.element"])
    codes = {"intent": Codes(), "tag": Codes(), "source": Codes()}
    parts = []
    first = 0
    for group in range(parquet.num_row_groups):
        table = parquet.read_row_group(group, columns=COLUMNS)
        if table.num_rows == 0:
            continue
        part = gesture_stats(table, first, codes, label, distance_of)
        first += part["known"].size
        parts.append(part)
    if not parts:
        sys.exit(f"tune e2e peer: {path}: no gestures")
    merged = {}
    for key in parts[0]:
        if isinstance(parts[0][key], list):
            merged[key] = [item for part in parts for item in part[key]]
        else:
            merged[key] = np.concatenate([part[key] for part in parts])
    return merged, codes

# ---------------------------------------------------------------------------------------------
# The fold hash (TraceSubsets.foldHash): 64-bit FNV-1a from the offset basis XOR seed 1, over
# the id's UTF-8 bytes and then each sample's time, tx, ty, vx, vy as little-endian doubles.
# Bytewise and sequential within a gesture, so it runs across gestures: one numpy step per
# byte position, over the gestures long enough to have it.


def fold_hashes(rows, id_data, id_offsets, id_lengths):
    starts = rows["starts"]
    total_rows = rows["t"].size
    counts = np.diff(np.concatenate([starts, [total_rows]]))
    prime = np.uint64(FNV_PRIME)
    hashes = np.full(starts.size, np.uint64(FNV_OFFSET ^ SEED), dtype=np.uint64)
    with np.errstate(over="ignore"):
        order = np.argsort(-id_lengths, kind="stable")
        by_length = hashes[order]
        offsets = id_offsets[order]
        lengths = id_lengths[order]
        for position in range(int(lengths.max()) if lengths.size else 0):
            active = int(np.searchsorted(-lengths, -position, side="left"))
            by_length[:active] ^= id_data[offsets[:active] + position].astype(np.uint64)
            by_length[:active] *= prime
        hashes[order] = by_length
        samples = np.empty((total_rows, 5), dtype="<f8")
        for column, name in enumerate(("t", "tx", "ty", "vx", "vy")):
            samples[:, column] = rows[name]
        sample_bytes = samples.view(np.uint8).reshape(total_rows, 40)
        order = np.argsort(-counts, kind="stable")
        by_count = hashes[order]
        first = starts[order]
        ordered_counts = counts[order]
        for sample in range(int(ordered_counts.max())):
            active = int(np.searchsorted(-ordered_counts, -sample, side="left"))
            # The sample's 40 bytes of every active gesture, one contiguous row a byte.
            block = np.ascontiguousarray(sample_bytes[first[:active] + sample].T)
            part = by_count[:active]
            for byte in range(40):
                np.bitwise_xor(part, block[byte], out=part)
                np.multiply(part, prime, out=part)
        hashes[order] = by_count
    return hashes


# ---------------------------------------------------------------------------------------------
# The report


def combine(parts):
    """Σ integer·2^unit over parts, as one (integer, unit)."""
    unit = min(u for _, u in parts)
    return sum(i << (u - unit) for i, u in parts), unit


class Sweep:
    """The sorted threshold sweep of one set of traces (tune's ThresholdSweep, in numpy).

    `compared` traces decide `s > θ`; the others (no `changed` before the release) cancel
    with margin 0 whatever θ is."""

    def __init__(self, statistic, meant, compared, finish_time, cancel_time, finish_gap, cancel_gap, exact=True):
        self.n = statistic.size
        order = np.argsort(statistic[compared], kind="stable")
        self.s = statistic[compared][order]
        self.nc = self.s.size
        meant_c = meant[compared][order]
        self.finish_before = np.zeros(self.nc + 1, dtype=np.int64)
        np.cumsum(meant_c, out=self.finish_before[1:])
        fixed = ~compared
        self.fixed_count = int(fixed.sum())
        self.fixed_meant_finish = int(meant[fixed].sum())
        if not exact:
            return
        self.s_prefix = ExactPrefix(self.s)
        self.s_total = self.s_prefix.at([self.nc])[0]
        self.parts = {}
        for key, finish, cancel in (("time", finish_time, cancel_time), ("gap", finish_gap, cancel_gap)):
            finish_prefix = ExactPrefix(finish[compared][order])
            cancel_prefix = ExactPrefix(cancel[compared][order])
            fixed_prefix = ExactPrefix(cancel[fixed])
            self.parts[key] = (
                finish_prefix, finish_prefix.at([self.nc])[0], cancel_prefix, (fixed_prefix.at([self.fixed_count])[0], fixed_prefix.unit)
            )

    def counts(self, thetas):
        """Correct decisions and smallest margin at each θ."""
        failing = np.searchsorted(self.s, thetas, side="right")
        below = np.searchsorted(self.s, thetas, side="left")
        false_cancels = self.finish_before[failing] + self.fixed_meant_finish
        false_finishes = (self.nc - failing) - (self.finish_before[self.nc] - self.finish_before[failing])
        correct = self.n - false_cancels - false_finishes
        with np.errstate(invalid="ignore"):
            above = np.where(below < self.nc, np.abs(self.s[np.minimum(below, max(self.nc - 1, 0))] - thetas) if self.nc else np.inf, np.inf)
            under = np.where(below > 0, np.abs(self.s[np.maximum(below - 1, 0)] - thetas) if self.nc else np.inf, np.inf)
        smallest = np.minimum(above, under)
        if self.fixed_count:
            smallest = np.minimum(smallest, 0.0)
        return correct, false_finishes, false_cancels, failing, below, smallest

    def scores(self, thetas):
        correct, false_finishes, false_cancels, failing, below, smallest = self.counts(thetas)
        n = float(self.n)
        prefix_s = self.s_prefix.at(below)
        unit_s = self.s_prefix.unit
        margins = []
        for theta, b, p in zip(thetas.tolist(), below.tolist(), prefix_s):
            t_int, t_unit = exact_integer(theta)
            total, unit = combine([(self.s_total - 2 * p, unit_s), (t_int * (2 * b - self.nc), t_unit)])
            margins.append(rounded(total, unit) / n)
        means = {}
        for key, (finish_prefix, finish_total, cancel_prefix, (fixed_total, fixed_unit)) in self.parts.items():
            finishes = finish_prefix.at(failing)
            cancels = cancel_prefix.at(failing)
            values = []
            for f, c in zip(finishes, cancels):
                total, unit = combine([(c, cancel_prefix.unit), (finish_total - f, finish_prefix.unit), (fixed_total, fixed_unit)])
                values.append(rounded(total, unit) / n)
            means[key] = values
        return {
            "correct": correct.tolist(),
            "false_finishes": false_finishes.tolist(),
            "false_cancels": false_cancels.tolist(),
            "mean_margin": margins,
            "min_margin": smallest.tolist(),
            "mean_discontinuity_pt_s": means["gap"],
            "mean_completion_s": means["time"],
        }


def score_dict(scores, index, n):
    correct = scores["correct"][index]
    return {
        "traces": n,
        "correct": correct,
        "accuracy": correct / n if n else 0.0,
        "false_finishes": scores["false_finishes"][index],
        "false_cancels": scores["false_cancels"][index],
        "flip_prone": 0,
        "mean_margin": scores["mean_margin"][index],
        "min_margin": scores["min_margin"][index],
        "mean_discontinuity_pt_s": scores["mean_discontinuity_pt_s"][index],
        "mean_completion_s": scores["mean_completion_s"][index],
    }


def default_index(values, value):
    """TieRule.index(of:on:): where the default falls on the axis, in grid steps."""
    hits = np.flatnonzero(values == value)
    if hits.size:
        return float(hits[0])
    nearest = 0
    for index, candidate in enumerate(values.tolist()):
        if abs(candidate - value) < abs(values[nearest] - value):
            nearest = index
    if nearest + 1 < values.size and values[nearest] < value < values[nearest + 1]:
        return nearest + (value - values[nearest]) / (values[nearest + 1] - values[nearest])
    if nearest > 0 and values[nearest - 1] < value < values[nearest]:
        return nearest - 1 + (value - values[nearest - 1]) / (values[nearest] - values[nearest - 1])
    return float(nearest)


def choose(correct, margins, m, default_at):
    """TieRule.choose on one numeric axis: (best, equal members, finalists count, step)."""
    correct = np.asarray(correct)
    margins = np.asarray(margins)
    most = correct.max()
    equal = np.flatnonzero(correct == most)
    widest = margins[equal].max()
    finalists = equal[margins[equal] == widest]
    whole = finalists.size == m
    middle_aim = None if whole else (int(finalists.min()) + int(finalists.max())) / 2
    span = float(max(1, m - 1))
    best, best_middle, best_defaults, middle_ties, default_ties = -1, math.inf, math.inf, 0, 0
    for point in finalists.tolist():
        middle = 0.0 if middle_aim is None else 0.0 + abs(float(point) - middle_aim) / span
        near = 0.0 + abs(float(point) - default_at) / span
        if best < 0 or middle < best_middle - 1e-12:
            best, best_middle, best_defaults, middle_ties, default_ties = point, middle, near, 1, 1
        elif abs(middle - best_middle) <= 1e-12:
            middle_ties += 1
            if near < best_defaults - 1e-12:
                best, best_defaults, default_ties = point, near, 1
            elif abs(near - best_defaults) <= 1e-12:
                default_ties += 1
    if equal.size == 1:
        step = "accuracy"
    elif finalists.size == 1:
        step = "min_margin"
    elif middle_ties == 1:
        step = "middle"
    elif default_ties == 1:
        step = "defaults"
    else:
        step = "grid_order"
    return best, equal, int(finalists.size), step


def direction_words(axis, sign):
    name = {("x", 1): "right", ("x", -1): "left", ("y", 1): "down", ("y", -1): "up"}[(axis, sign)]
    return name, ("+" if sign > 0 else "\u2212") + axis


def misfit_reason(verdict, along, across, peak, travel, extreme_x, extreme_y):
    """GestureFit.explanation for swipe-dismiss (a drag down, +y)."""

    def points(value):
        return decision_format(value, 0) + " pt"

    recorded = direction_words("x", 1 if extreme_x >= 0 else -1) if abs(extreme_x) >= abs(extreme_y) else direction_words("y", 1 if extreme_y >= 0 else -1)
    drag = f"a drag down (+y) over {points(travel)}"
    if verdict == "off_axis":
        ratio = f" ({decision_format(across / along, 1)}× as far across)" if along > 0 else ""
        return (f"does not fit: it moves mostly across the preset's axis, {points(along)} along y and {points(across)} across{ratio}; "
                f"the preset is driven by {drag}, the recording drags {recorded[0]} ({recorded[1]})")
    return (f"does not fit: it never reaches a meaningful progress, peak {decision_format(peak, 3)} "
            f"(at least {decision_format(MINIMUM_PEAK_PROGRESS, 2)} needed); the preset is driven by {drag}, "
            f"the recording drags {recorded[0]} ({recorded[1]}) {points(max(along, across))}")


def peer_report(parquet, corpus_label, grid_spec):
    """What `pantrace tune CORPUS --preset swipe-dismiss --grid GRID --json` prints, as a dict."""
    key, thetas = parse_grid(grid_spec)
    m = thetas.size
    gestures, codes = read_export(parquet, corpus_label, lambda width, height: np.maximum(TRAVEL * height, 1e-9))
    intent_names = np.array(codes["intent"].names, dtype=object)
    known = gestures["known"]
    off_axis, no_progress = gestures["off_axis"], gestures["no_progress"]
    kept = known & ~off_axis & ~no_progress
    kept_index = np.flatnonzero(kept)
    n = kept_index.size
    if n == 0:
        sys.exit("tune e2e peer: nothing to tune (tune's error is not reproduced)")
    names, ids = gestures["names"], gestures["ids"]

    def file_of(g):
        return f"{corpus_label}#{names[g]}"

    not_fitting = gestures["misfits"]
    changed = gestures["has_changed"][kept_index]
    L = gestures["distance"][kept_index]
    shown = gestures["shown"][kept_index]
    statistic = shown
    axis_velocity = gestures["axis_velocity"][kept_index]
    intent = intent_names[gestures["intent"]]
    meant = intent[kept_index] == "finish"

    # T1a completion (PercentDrivenCompletion, speed 1 − p0, D = 1.5 s) and the velocity
    # discontinuity L·R'(p0)·q'(0⁺) − v (TransitionMetrics), per outcome.
    speed = np.maximum(1 - shown, MINIMUM_SPEED)
    finish_time = np.where(shown < 1 - MINIMUM_SPEED, DURATION, (np.abs(1 - shown) * DURATION) / speed)
    cancel_time = (np.abs(0 - shown) * DURATION) / speed
    # CompletionTrajectory bounds every completion to [0, 10 s].
    finish_time = np.minimum(np.maximum(0.0, finish_time), MAXIMUM_COMPLETION)
    cancel_time = np.minimum(np.maximum(0.0, cancel_time), MAXIMUM_COMPLETION)
    with np.errstate(divide="ignore", invalid="ignore"):
        finish_v0 = np.where(finish_time > 0, (1 - shown) / finish_time, 0.0)
        cancel_v0 = np.where(cancel_time > 0, (0 - shown) / cancel_time, 0.0)
    finish_gap = np.abs(L / 1.0 * 1.0 * finish_v0 - axis_velocity)
    cancel_gap = np.abs(L / 1.0 * 1.0 * cancel_v0 - axis_velocity)

    # Folds and groups (TraceSubsets).
    hashes = gestures["hash"][kept_index]
    fold_count = min(FOLDS, n) if n >= 2 else 0
    folds = (hashes % np.uint64(fold_count)).astype(np.int64) if fold_count else np.zeros(n, dtype=np.int64)
    position_of = np.full(known.size, -1, dtype=np.int64)
    position_of[kept_index] = np.arange(n)
    labels = {}
    tag_position = position_of[gestures["tag_owner"]]
    # Each tag once per trace (a tag may repeat), members in trace order.
    pairs = np.unique(gestures["tag"][tag_position >= 0] * np.int64(n) + tag_position[tag_position >= 0])
    pair_tag, pair_position = pairs // n, pairs % n
    for code in np.unique(pair_tag).tolist():
        labels[("tag", codes["tag"].names[code])] = pair_position[pair_tag == code]
    sources = gestures["source"][kept_index]
    for code in np.unique(sources).tolist():
        labels[("source", codes["source"].names[code])] = np.flatnonzero(sources == code)
    qualified = [(kind, value, members) for (kind, value), members in labels.items() if 2 <= len(members) < n]
    qualified.sort(key=lambda entry: (-len(entry[2]), entry[0], entry[1]))
    groups_left_out = max(0, len(qualified) - MAXIMUM_GROUPS)
    qualified = qualified[:MAXIMUM_GROUPS]
    subset_count = fold_count + len(qualified)
    detailed = subset_count > 0 and m <= MAXIMUM_TALLIES // subset_count

    # The sweep.
    sweep = Sweep(statistic, meant, changed, finish_time, cancel_time, finish_gap, cancel_gap)
    scores = sweep.scores(thetas)
    defaults = sweep.scores(np.array([DEFAULT_THRESHOLD]))
    default_at = default_index(thetas, DEFAULT_THRESHOLD)
    best, equal, after_margin, step = choose(scores["correct"], scores["min_margin"], m, default_at)
    best_theta = float(thetas[best])
    best_score = score_dict(scores, best, n)
    default_score = score_dict(defaults, 0, n)

    # Decisions at the best point and at the defaults, per trace.
    finish_best = changed & (statistic > best_theta)
    finish_default = changed & (statistic > DEFAULT_THRESHOLD)
    right_best = finish_best == meant
    right_default = finish_default == meant
    fixed_count = int(np.sum(right_best & ~right_default))
    broken = int(np.sum(~right_best & right_default))
    misjudged = []
    margins_best = np.where(changed, np.abs(statistic - best_theta), 0.0)
    for position in np.flatnonzero(~right_best).tolist():
        g = int(kept_index[position])
        decided_finish = bool(finish_best[position])
        if changed[position]:
            value, limit = format_pair(float(statistic[position]), best_theta)
            symbol = ">" if decided_finish else "≤"
            reason = f"progress {value} {symbol} {limit} → {'finish' if decided_finish else 'cancel'}"
        else:
            reason = "no changed callback before the release → cancel"
        misjudged.append({
            "file": file_of(g), "trace": ids[g], "intent": intent[g],
            "decision": "finish" if decided_finish else "cancel", "reason": reason, "margin": float(margins_best[position]),
            "progress_at_release": float(statistic[position]), "velocity_pt_s": float(axis_velocity[position]),
        })

    # Findings.
    decision_fields = ("correct", "false_finishes", "false_cancels", "mean_margin", "min_margin")
    no_effect = [key] if all(len(set(scores[field])) == 1 for field in decision_fields) else []
    edges = []
    if m >= 3 and not no_effect:
        if best_theta == thetas.min():
            edges.append({"key": key, "side": "low", "value": best_theta, "at_limit": best_theta <= 0})
        elif best_theta == thetas.max():
            edges.append({"key": key, "side": "high", "value": best_theta, "at_limit": best_theta >= 1})
    binomial = Binomial(n)
    best_low, best_high = binomial.interval(best_score["correct"])
    default_low, default_high = binomial.interval(default_score["correct"])

    cross = None
    breakdown = []
    notes_detail = None
    if detailed:
        fold_sweeps = [Sweep(statistic[folds == f], meant[folds == f], changed[folds == f], None, None, None, None, exact=False)
                       for f in range(fold_count)]
        fold_tallies = [fold.counts(thetas) for fold in fold_sweeps]
        default_tallies = [fold.counts(np.array([DEFAULT_THRESHOLD]))[0][0] for fold in fold_sweeps]
        total_correct = np.asarray(scores["correct"])
        per_fold = []
        for f in range(fold_count):
            others = [fold_tallies[o][5] for o in range(fold_count) if o != f]
            smallest = np.minimum.reduce(others) if others else np.full(m, np.inf)
            pick, _, _, _ = choose(total_correct - fold_tallies[f][0], smallest, m, default_at)
            held = int(np.sum(folds == f))
            correct_f = int(fold_tallies[f][0][pick])
            per_fold.append({"fold": f, "traces": held, "values": {key: float(thetas[pick])}, "correct": correct_f,
                             "accuracy": correct_f / held if held else 0.0, "defaults_correct": int(default_tallies[f])})
        cv_correct = sum(fold["correct"] for fold in per_fold)
        cv_traces = sum(fold["traces"] for fold in per_fold)
        cv_accuracy = cv_correct / cv_traces if cv_traces else 0.0
        cv_defaults = sum(fold["defaults_correct"] for fold in per_fold) / cv_traces if cv_traces else 0.0
        cv_low, cv_high = Binomial(cv_traces).interval(cv_correct)
        cross = {"folds": fold_count, "seed": SEED, "stratified": False, "correct": cv_correct, "traces": cv_traces,
                 "accuracy": cv_accuracy, "ci": {"low": cv_low, "high": cv_high}, "defaults_accuracy": cv_defaults,
                 "gain_over_defaults": cv_accuracy - cv_defaults, "per_fold": per_fold}
        for kind, value, members in qualified:
            members = np.asarray(members)
            group = Sweep(statistic[members], meant[members], changed[members], None, None, None, None, exact=False)
            correct_g, _, _, _, _, smallest_g = group.counts(thetas)
            own, own_equal, _, _ = choose(correct_g, smallest_g, m, default_at)
            traces_g = members.size
            best_correct = int(correct_g[best])
            defaults_correct = int(group.counts(np.array([DEFAULT_THRESHOLD]))[0][0])
            breakdown.append({
                "kind": kind, "value": value, "traces": traces_g, "best_correct": best_correct,
                "best_accuracy": best_correct / float(max(traces_g, 1)), "defaults_correct": defaults_correct,
                "defaults_accuracy": defaults_correct / float(max(traces_g, 1)),
                "own_best": {"values": {key: float(thetas[own])}, "correct": int(correct_g[own]),
                             "accuracy": int(correct_g[own]) / float(max(traces_g, 1)), "equal_points": int(own_equal.size)},
            })
    elif subset_count == 0:
        notes_detail = "cross-validation needs at least 2 traces"
    else:
        notes_detail = (f"cross-validation and the breakdown are left out: {m} points × {subset_count} folds and groups "
                        f"is more than {MAXIMUM_TALLIES} tallies; sweep a coarser grid for them")

    # Notes (TuningResult.notes).
    notes = []
    chosen = f"{key}={value_text(best_theta)}"
    if equal.size > 1:
        taken = [float(thetas[i]) for i in equal.tolist()]
        if len(taken) == 1:
            described = value_text(taken[0])
        else:
            span = f"{value_text(min(taken))}…{value_text(max(taken))}"
            described = f"any ({span})" if len(taken) == m else f"{span} ({len(taken)} of {m} values)"
        phrase = {"accuracy": "accuracy", "min_margin": "the largest minimum margin", "middle": "the middle of the equal range",
                  "defaults": "the nearest to the defaults' values", "grid_order": "grid order (nothing else separates them)"}[step]
        notes.append(f"{equal.size} points are equally good ({best_score['correct']}/{n} correct): {key} {described}; "
                     f"the tie rule chose {chosen} by {phrase}")
    if no_effect:
        notes.append(f"{no_effect[0]} changes no decision on this grid: every value decides every trace alike")
    for edge in edges:
        notes.append(f"the best {edge['key']}={value_text(edge['value'])} is at the {edge['side']} end of the grid and of the parameter's allowed range"
                     if edge["at_limit"] else
                     f"the best {edge['key']}={value_text(edge['value'])} is on the {edge['side']} edge of the grid: a wider grid may do better")
    interval = (f"accuracy {percent(best_score['accuracy'])} ({best_score['correct']}/{n}), 95% interval {percent(best_low)}–{percent(best_high)} "
                f"(exact binomial); defaults {percent(default_score['accuracy'])}, {percent(default_low)}–{percent(default_high)}")
    if best_low <= default_high and best_score["correct"] > default_score["correct"]:
        interval += "; the intervals overlap"
    notes.append(interval)
    if cross is not None:
        gain = (cross["accuracy"] - cross["defaults_accuracy"]) * 100
        notes.append(f"cross-validated ({fold_count} folds, seed {SEED}): tuned on the other folds, "
                     f"{percent(cross['accuracy'])} ({cross['correct']}/{cross['traces']}) on held-out traces vs the defaults' "
                     f"{percent(cross['defaults_accuracy'])} ({'+' if gain >= 0 else ''}{fixed(gain, 1)} points); "
                     f"the best point's {percent(best_score['accuracy'])} was chosen on the traces it is scored on")
    if notes_detail:
        notes.append(notes_detail)
    if groups_left_out > 0:
        notes.append(f"{groups_left_out} more tags or sources not broken down (the {MAXIMUM_GROUPS} largest are)")

    taken = [float(thetas[i]) for i in equal.tolist()]
    results = None
    if m <= MAXIMUM_LISTED_POINTS:
        results = []
        for index, theta in enumerate(thetas.tolist()):
            point = score_dict(scores, index, n)
            point["point"] = index
            point["values"] = {key: theta}
            results.append(point)
    best_point = dict(best_score, point=best, values={key: best_theta})
    return {
        "preset": PRESET,
        "grid": {"axes": [{"key": key, "values": thetas.tolist()}], "points": m, **({"results": results} if results is not None else {})},
        "traces": {"tuned": n, "finish": int(meant.sum()), "cancel": int(n - meant.sum())},
        "excluded": {
            "unknown_intent": int(np.sum(~known)), "off_axis": int(np.sum(known & off_axis)), "no_progress": int(np.sum(known & no_progress)),
            "wrong_way": 0, "not_fitting": not_fitting, "unreadable": [], "unreplayable": [],
        },
        "best": best_point,
        "defaults": dict(default_score, values={key: DEFAULT_THRESHOLD}),
        "improvement": {
            "accuracy": best_score["accuracy"] - default_score["accuracy"], "correct": best_score["correct"] - default_score["correct"],
            "fixed": fixed_count, "broken": broken,
            "false_finishes": best_score["false_finishes"] - default_score["false_finishes"],
            "false_cancels": best_score["false_cancels"] - default_score["false_cancels"],
            "min_margin": best_score["min_margin"] - default_score["min_margin"],
            "mean_discontinuity_pt_s": best_score["mean_discontinuity_pt_s"] - default_score["mean_discontinuity_pt_s"],
        },
        "misjudged": misjudged,
        "warnings": [],
        "equal_points": {
            "count": int(equal.size), "correct": best_score["correct"], "accuracy": best_score["accuracy"], "is_box": True,
            "after_margin": after_margin, "decided_by": step,
            "axes": [{"key": key, "values": taken, "count": len(taken), "whole_axis": len(taken) == m, "low": min(taken), "high": max(taken)}],
        },
        "no_effect_axes": no_effect,
        "edge": edges,
        "accuracy_ci": {"method": "clopper-pearson", "level": 0.95, "best": {"low": best_low, "high": best_high},
                        "defaults": {"low": default_low, "high": default_high}},
        "cv_accuracy": cross,
        "breakdown": breakdown,
        "notes": notes,
    }


# ---------------------------------------------------------------------------------------------
# Comparison: every field, floats exactly


def differences(ours, theirs, path="$", found=None, limit=20):
    found = [] if found is None else found
    if len(found) >= limit:
        return found
    if isinstance(theirs, dict) and isinstance(ours, dict):
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours:
                found.append(f"{path}.{key}: in tune's report, not reproduced by the peer")
            elif key not in theirs:
                found.append(f"{path}.{key}: in the peer's report, not in tune's")
            else:
                differences(ours[key], theirs[key], f"{path}.{key}", found, limit)
    elif isinstance(theirs, list) and isinstance(ours, list):
        if len(ours) != len(theirs):
            found.append(f"{path}: {len(ours)} items in the peer's, {len(theirs)} in tune's")
        for index, (a, b) in enumerate(zip(ours, theirs)):
            differences(a, b, f"{path}[{index}]", found, limit)
    elif isinstance(theirs, bool) or isinstance(ours, bool) or theirs is None or ours is None:
        if ours is not theirs and ours != theirs:
            found.append(f"{path}: peer {ours!r}, tune {theirs!r}")
    elif isinstance(theirs, (int, float)) and isinstance(ours, (int, float)):
        if float(ours) != float(theirs) or (isinstance(theirs, int) and not isinstance(theirs, bool) and isinstance(ours, float) and not float(ours).is_integer()):
            found.append(f"{path}: peer {ours!r}, tune {theirs!r}")
    elif ours != theirs:
        found.append(f"{path}: peer {ours!r}, tune {theirs!r}")
    return found


def count_fields(value):
    if isinstance(value, dict):
        return sum(count_fields(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_fields(v) for v in value) or 1
    return 1


# ---------------------------------------------------------------------------------------------
# Setup (untimed, cached): the corpus, its gestures as JSON Lines, the Parquet export

BATCH = 10_000


def run(command, cwd=None):
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"tune e2e: `{' '.join(command)}` failed with status {result.returncode}: {result.stderr.strip()[-2000:]}")
    return result.stdout


def snap(values, scale):
    """What a .pantrace file gives back for `values`: integer ticks (value · scale).rounded(),
    ties away from zero (SampleGrid), read back as Double(ticks) / scale."""
    scaled = values * scale
    whole = np.trunc(scaled)
    ticks = np.where(np.abs(scaled - whole) >= 0.5, whole + np.sign(scaled), whole)
    # The file stores integer ticks, so a value that rounds to -0 reads back as +0.
    return (ticks + 0.0) / scale


def write_parquet(jsonl_folder, names, out_path):
    """The Parquet export: one row per sample, the gesture's columns beside every sample field."""
    import io

    import pyarrow as pa
    import pyarrow.json as pj
    import pyarrow.parquet as pq

    sample_schema = pa.schema([
        ("phase", pa.string()), ("t", pa.float64()), ("tx", pa.float64()), ("ty", pa.float64()),
        ("vx", pa.float64()), ("vy", pa.float64()), ("x", pa.float64()), ("y", pa.float64()), ("touches", pa.int64()),
    ])
    options = pj.ParseOptions(explicit_schema=sample_schema, unexpected_field_behavior="error")
    writer = None
    checked = False
    grid = None
    for batch_start in range(0, len(names), BATCH):
        batch = names[batch_start:batch_start + BATCH]
        lines, counts, metadata = [], [], []
        for name in batch:
            with open(os.path.join(jsonl_folder, name + ".jsonl"), "rb") as f:
                data = f.read()
            header, _, body = data.partition(b"\n")
            head = json.loads(header)
            if head.get("pantrace") != 1:
                sys.exit(f"tune e2e: {name}.jsonl: not a pantrace JSON Lines file")
            if grid is None:
                grid = head["grid"]
            elif head["grid"] != grid:
                sys.exit(f"tune e2e: {name}.jsonl: a grid other than the first file's")
            body_lines = [line for line in body.split(b"\n") if line.strip()]
            lines.extend(body_lines)
            counts.append(len(body_lines))
            metadata.append(head["metadata"])
        samples = pj.read_json(io.BytesIO(b"\n".join(lines) + b"\n"), parse_options=options)
        if not checked:
            # pyarrow's JSON reader must give the doubles Python's (correctly rounded) parser gives.
            for row, line in enumerate(lines[:5000]):
                expected = json.loads(line)
                for field in ("t", "tx", "ty", "vx", "vy"):
                    if float(expected[field]) != samples.column(field)[row].as_py():
                        sys.exit(f"tune e2e: pyarrow read {field} of {line!r} as {samples.column(field)[row].as_py()!r}")
            checked = True
        repeat = np.repeat(np.arange(len(batch)), counts)

        def per_row(values, kind):
            return pa.array(values, type=kind).take(pa.array(repeat))

        screens = [meta["screen"] for meta in metadata]
        columns = {
            "gesture": pa.array(repeat + batch_start, type=pa.int32()),
            "name": per_row(batch, pa.string()),
            "id": per_row([meta["id"] for meta in metadata], pa.string()),
            "intent": per_row([meta["intent"] for meta in metadata], pa.string()),
            "tags": per_row([meta.get("tags", []) for meta in metadata], pa.list_(pa.string())),
            "source": per_row([meta["source"] for meta in metadata], pa.string()),
            "screen_width": per_row([float(s["width"]) for s in screens], pa.float64()),
            "screen_height": per_row([float(s["height"]) for s in screens], pa.float64()),
        }
        for field in sample_schema.names:
            columns[field] = samples.column(field).combine_chunks()
        for field, scale in (("t", 1e9 / grid["time_tick_ns"]), ("tx", grid["position_per_pt"]), ("ty", grid["position_per_pt"]),
                             ("x", grid["position_per_pt"]), ("y", grid["position_per_pt"]),
                             ("vx", grid["velocity_per_pt_s"]), ("vy", grid["velocity_per_pt_s"])):
            values = columns[field].to_numpy(zero_copy_only=False)
            columns[field] = pa.array(snap(values, float(scale)), type=pa.float64(), mask=columns[field].is_null().to_numpy(zero_copy_only=False))
        table = pa.table(columns)
        if writer is None:
            writer = pq.ParquetWriter(out_path + ".partial", table.schema)
        writer.write_table(table, row_group_size=table.num_rows)
    writer.close()
    os.replace(out_path + ".partial", out_path)


def prepare(pantrace, cache, count, seed):
    """The cached inputs for `count` gestures; returns the folder."""
    folder = os.path.join(cache, f"swipe-down-{count}-seed{seed}")
    os.makedirs(folder, exist_ok=True)
    synth = ["synth", "--count", str(count), "--seed", str(seed), "--kind", "swipe-down"]
    corpus = os.path.join(folder, "corpus.pantraces")
    if not os.path.exists(corpus):
        print(f"setup: pantrace synth {count} gestures into {corpus}", file=sys.stderr)
        partial = os.path.join(folder, "corpus.partial.pantraces")
        if os.path.exists(partial):
            os.remove(partial)
        run([pantrace, *synth, "-o", partial])
        os.replace(partial, corpus)
    parquet = os.path.join(folder, "gestures.parquet")
    if os.path.exists(parquet):
        return folder
    jsonl = os.path.join(folder, "jsonl")
    if not os.path.isdir(jsonl):
        # The same gestures as JSON Lines: `synth --format jsonl` with the same seed and options
        # draws the same gestures; `check_same` checks them against `pantrace convert` of the
        # corpus's own gestures.
        print(f"setup: pantrace synth --format jsonl into {jsonl}", file=sys.stderr)
        partial = jsonl + ".partial"
        if os.path.isdir(partial):
            run(["rm", "-rf", partial])
        run([pantrace, *synth, "--format", "jsonl", "-o", partial])
        os.replace(partial, jsonl)
    # The corpus's order: synth writes gesture i as synth-SEED-i (zero-padded to five digits,
    # so past 99,999 the names no longer sort in that order); `check_same` checks it.
    names = sorted((name[:-len(".jsonl")] for name in os.listdir(jsonl) if name.endswith(".jsonl")),
                   key=lambda name: (int(name.rsplit("-", 1)[1]) if name.rsplit("-", 1)[-1].isdigit() else -1, name))
    if len(names) != count:
        sys.exit(f"tune e2e: {jsonl} holds {len(names)} gestures, not {count}")
    print(f"setup: writing {parquet}", file=sys.stderr)
    write_parquet(jsonl, names, parquet + ".unchecked")
    check_same(pantrace, folder, parquet + ".unchecked")
    os.replace(parquet + ".unchecked", parquet)
    # The JSON Lines were only the way in (several GB at 10^6 gestures).
    run(["rm", "-rf", jsonl])
    return folder


def check_same(pantrace, folder, parquet):
    """The Parquet export holds the corpus's gestures, every sample to the bit: for every tuned
    gesture, `pantrace tune --partial` (docs/TUNE.md) names its file, id, intent, tags, source
    and fold hash, an FNV-1a hash over the id and every byte of every sample's time,
    translation and velocity as the corpus decodes them; the same hash of the Parquet rows
    must agree, as must the rest."""
    import pyarrow.parquet as pq

    print("setup: checking the export against `pantrace tune --partial` of the corpus", file=sys.stderr)
    partial = os.path.join(folder, "check.partial.json")
    if os.path.exists(partial):
        os.remove(partial)
    run([pantrace, "tune", "corpus.pantraces", "--preset", PRESET, "--grid", DEFAULT_GRID, "--partial", "check.partial.json"], cwd=folder)
    with open(partial) as f:
        expected = json.load(f)["gestures"]
    os.remove(partial)
    gestures, codes = read_export(parquet, "corpus.pantraces", lambda width, height: np.maximum(TRAVEL * height, 1e-9))
    by_file = {f"corpus.pantraces#{name}": index for index, name in enumerate(gestures["names"])}
    if len(expected) != int(np.sum(gestures["known"] & ~gestures["off_axis"] & ~gestures["no_progress"])):
        sys.exit(f"tune e2e: tune admitted {len(expected)} gestures, the export's admission differs")
    order = [by_file.get(gesture["file"], -1) for gesture in expected]
    if order != sorted(order):
        sys.exit("tune e2e: the export's gestures are not in the corpus's order")
    tags_of = {}
    for owner, tag in zip(gestures["tag_owner"].tolist(), gestures["tag"].tolist()):
        tags_of.setdefault(owner, []).append(codes["tag"].names[tag])
    for gesture in expected:
        index = by_file.get(gesture["file"])
        if index is None:
            sys.exit(f"tune e2e: {gesture['file']} is not in the export")
        mine = {
            "fold_hash": f"{int(gestures['hash'][index]):016x}", "id": gestures["ids"][index],
            "intent": codes["intent"].names[gestures["intent"][index]], "source": codes["source"].names[gestures["source"][index]],
            "tags": tags_of.get(index, []),
        }
        for key, value in mine.items():
            if gesture[key] != value:
                sys.exit(f"tune e2e: {gesture['file']}: {key} is {value!r} in the export, {gesture[key]!r} in the corpus")
    rows = pq.ParquetFile(parquet).metadata.num_rows
    print(f"setup: {len(expected):,} gestures ({rows:,} samples) of the export hash as the corpus's do", file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# Timing


def measured(command, stdout_path, cwd):
    """Wall time, user + system CPU and peak RSS (KiB) of one child. CPU and peak RSS come from
    /usr/bin/time (GNU time), a small parent: the rusage of a child forked straight from this
    script would count this script's own pages in the child's peak."""
    with open(stdout_path, "wb") as out, tempfile.NamedTemporaryFile("r") as usage, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        status = subprocess.call(["/usr/bin/time", "-f", "%U %S %M", "-o", usage.name, *command], stdout=out, stderr=err, cwd=cwd)
        wall = time.perf_counter() - start
        err.seek(0)
        message = err.read().decode(errors="replace").strip()
        fields = usage.read().split()
    if status != 0:
        sys.exit(f"tune e2e: `{' '.join(command)}` exited {status}: {message[-2000:]}")
    user, system, peak = float(fields[-3]), float(fields[-2]), int(fields[-1])
    return wall, user + system, peak


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000", help="gesture counts, comma-separated (default 10000; the note's table: 100000,1000000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pantrace", default=".build/release/pantrace")
    parser.add_argument("--cache", default="build/tune-e2e", help="where the corpora and exports are kept between runs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--grid", default=DEFAULT_GRID)
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    arguments = parser.parse_args()

    if arguments.peer:
        # The timed peer: read the Parquet, compute, print the report as JSON.
        report = peer_report(arguments.peer, arguments.label, arguments.grid)
        sys.stdout.write(json.dumps(report, sort_keys=True))
        return

    check_libm()
    pantrace = os.path.abspath(arguments.pantrace)
    if not os.access(pantrace, os.X_OK):
        sys.exit(f"tune e2e: {arguments.pantrace} is not there; build it with `swift build -c release --product pantrace`")
    sizes = [int(size) for size in arguments.sizes.split(",")]
    import pyarrow

    rows = []
    for size in sizes:
        folder = prepare(pantrace, os.path.abspath(arguments.cache), size, arguments.seed)
        tune = [pantrace, "tune", "corpus.pantraces", "--preset", PRESET, "--grid", arguments.grid, "--json"]
        peer = [sys.executable, os.path.abspath(__file__), "--peer", "gestures.parquet", "--label", "corpus.pantraces", "--grid", arguments.grid]
        times = {"pantrace": [], "peer": []}
        loads = [load_average()]
        for repeat in range(arguments.repeats):
            order = [("pantrace", tune), ("peer", peer)]
            if repeat % 2:
                order.reverse()
            for side, command in order:
                times[side].append(measured(command, os.path.join(folder, f"{side}.json"), folder))
        loads.append(load_average())
        with open(os.path.join(folder, "pantrace.json")) as f:
            theirs = json.load(f)
        with open(os.path.join(folder, "peer.json")) as f:
            ours = json.load(f)
        found = differences(ours, theirs)
        if found:
            print(f"tune e2e: at {size:,} gestures the peer's report differs from `pantrace tune --json`:", file=sys.stderr)
            for line in found:
                print("  " + line, file=sys.stderr)
            sys.exit(1)
        fields = count_fields(theirs)
        summary = {side: tuple(median([run[i] for run in times[side]]) for i in range(3)) for side in times}
        rows.append((size, summary, times, fields, theirs, loads))
        print(f"{size:,} gestures: every field equal ({fields:,} values; tuned {theirs['traces']['tuned']:,}, "
              f"{len(theirs['misjudged']):,} misjudged, best threshold {theirs['best']['values']['threshold']}); "
              f"pantrace {summary['pantrace'][0]:.2f} s, peer {summary['peer'][0]:.2f} s", file=sys.stderr)

    print(f"## `tune` end to end against numpy + pyarrow on Parquet (numpy {np.__version__}, pyarrow {pyarrow.__version__})")
    print("")
    print(f"`pantrace tune corpus.pantraces --preset {PRESET} --grid {arguments.grid} --json` against the peer on the same "
          f"gestures; every field of the report checked equal, floats exactly. Medians of {arguments.repeats} interleaved runs; "
          "CPU (user + system) and peak RSS from GNU time.")
    print("")
    print("| gestures | samples/gesture | pantrace wall | pantrace CPU | pantrace peak RSS | peer wall | peer CPU | peer peak RSS | ratio peer/pantrace, wall (CPU) | load average (before → after) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for size, summary, times, fields, theirs, loads in rows:
        parquet = os.path.join(os.path.abspath(arguments.cache), f"swipe-down-{size}-seed{arguments.seed}", "gestures.parquet")
        import pyarrow.parquet as pq

        samples = pq.ParquetFile(parquet).metadata.num_rows
        p, q = summary["pantrace"], summary["peer"]
        print(f"| {size:,} | {samples / size:.1f} | {p[0]:.2f} s | {p[1]:.2f} s | {p[2] / 1024:.0f} MiB | {q[0]:.2f} s | {q[1]:.2f} s | "
              f"{q[2] / 1024:.0f} MiB | **{q[0] / p[0]:.2f}×** ({q[1] / p[1]:.2f}×) | {loads[0]} → {loads[1]} |")
    print("")
    print("Ratio ≥ 1 means PanTrace is at least as fast as the peer (goal: ≥ 1× at 10⁵ and 10⁶ gestures).")


if __name__ == "__main__":
    main()
