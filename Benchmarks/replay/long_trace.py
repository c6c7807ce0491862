"""Writes a long, slow swipe down as a .jsonl trace: MINUTES of finger-down at RATE Hz.

The finger wanders down and back (a slow sine, peak 600 pt) and lifts at 700 pt, so the
replay's frames cover the whole drag. Deterministic: the same arguments give the same bytes.

    python3 Benchmarks/replay/long_trace.py MINUTES OUT.jsonl [--rate 60]
"""

import argparse
import json
import math


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("minutes", type=float)
    parser.add_argument("out")
    parser.add_argument("--rate", type=float, default=60)
    args = parser.parse_args()
    count = int(args.minutes * 60 * args.rate)
    header = {
        "grid": {"position_per_pt": 100, "time_tick_ns": 1000, "velocity_per_pt_s": 100},
        "metadata": {
            "created": "2026-01-01T00:00:00Z", "id": f"long-{args.minutes:g}min", "intent": "finish",
            "screen": {"height": 844, "scale": 3, "width": 390}, "source": "synthetic", "tags": ["swipe-down"],
            "velocity": "recorded",
        },
        "pantrace": 1,
    }
    period = max(count / args.rate / 3, 1.0)
    with open(args.out, "x") as out:
        out.write(json.dumps(header, sort_keys=True, separators=(",", ":")) + "\n")
        for i in range(count + 1):
            t = i / args.rate
            phase = "began" if i == 0 else ("ended" if i == count else "changed")
            ty = 700.0 if i == count else 300 * (1 - math.cos(2 * math.pi * t / period))
            vy = 300 * 2 * math.pi / period * math.sin(2 * math.pi * t / period)
            row = {"phase": phase, "t": round(t, 6), "tx": 0, "ty": round(ty, 2), "vx": 0, "vy": round(vy if i < count else 900, 2)}
            out.write(json.dumps(row, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
