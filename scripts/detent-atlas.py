#!/usr/bin/env python3
"""The detent atlas of docs/DETENTS.md: real gestures read as sheet drags, through every library.

Usage: scripts/detent-atlas.py [PANTRACE_BINARY]   (default: .build/debug/pantrace; `make atlas`)

Reads the bundled real recordings (recordings/real) and, when PANTRACE_SHARED (default ../shared
beside the clone) holds realdata/, imports its Android getevent and evemu captures with
`pantrace record` into a temporary folder, exactly as the capture tests do. Then runs
`pantrace detents --start auto --json` on one sheet (detents 80, 400, 600 pt: a map-style sheet on a
phone; flings are read as drags of it, upward ones from the bottom detent, downward ones from the
top) and prints Markdown: how often each pair of libraries settles differently, and on which kind of
gesture (by direction and by the speed UIKit's recognizer reported at the lift).
"""
import collections
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".build" / "debug" / "pantrace"
SHARED = pathlib.Path(os.environ.get("PANTRACE_SHARED") or ROOT.parent / "shared") / "realdata"
DETENTS = "80,400,600"


def record(log, out, options):
    out.mkdir(parents=True, exist_ok=True)
    result = subprocess.run([str(BINARY), "record", "--from", str(log), "-o", str(out) + "/"] + options,
                            capture_output=True, text=True)
    if result.returncode not in (0, 1, 3):
        sys.exit(f"record {log}: {result.stderr.strip()}")


def split(row, presets):
    """The libraries that leave the majority's outcome, with theirs ("none" when all agree)."""
    outcomes = {name: str(outcome_of(row, name)) for name in presets}
    majority = collections.Counter(outcomes.values()).most_common(1)[0][0]
    return " / ".join(f"{name}: {value}" for name, value in outcomes.items() if value != majority) or "none"


def outcome_of(row, name):
    verdict = row["presets"][name]
    return "closed" if verdict["detent"] == "dismissed" else verdict["detent"]


def main():
    sources = [str(ROOT / "recordings" / "real")]
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        if SHARED.is_dir():
            for log in sorted((SHARED / "android-emulator-getevent").glob("*.txt")):
                record(log, folder / "getevent" / log.stem, ["--format", "getevent", "--axis-range", "0:32767,0:32767",
                                                           "--screen", "411x731", "--scale", "2.625"])
            for log in sorted((SHARED / "evemu-touchscreens" / "orig").glob("*.events")):
                record(log, folder / "evemu" / log.stem, ["--format", "evemu", "--screen", "1280x800", "--scale", "1"])
            sources.append(str(folder))
        else:
            print(f"(no {SHARED}: the bundled recordings only)", file=sys.stderr)
        result = subprocess.run([str(BINARY), "detents", *sources, "--detents", DETENTS, "--start", "auto", "--json"],
                                capture_output=True, text=True)
        if result.returncode not in (0, 3):
            sys.exit(f"detents: {result.stderr.strip()}")
        rows = [json.loads(line) for line in result.stdout.splitlines()]
    presets = list(rows[0]["presets"].keys()) if rows else []
    presets.sort(key=lambda name: ["floatingpanel", "vaul", "mdc-bottomsheet", "compose-anchored", "m3-sheet",
                                   "flutter-sheet", "gorhom", "panmodal", "css-scroll-snap"].index(name))

    outcome = outcome_of

    def kind(row):
        direction = "up" if row["start"] == 2 else "down"
        speed = abs(row["presets"]["floatingpanel"]["velocity"])
        band = "slow (< 500 pt/s)" if speed < 500 else "medium (500–1500 pt/s)" if speed < 1500 else "fast (≥ 1500 pt/s)"
        return f"{direction}, {band}"

    print(f"{len(rows)} gestures; sheet: detents {DETENTS} pt, start auto\n")
    print("| | " + " | ".join(presets) + " |")
    print("|---|" + "---|" * len(presets))
    for a in presets:
        cells = []
        for b in presets:
            if a == b:
                cells.append("·")
            else:
                differ = sum(outcome(row, a) != outcome(row, b) for row in rows)
                cells.append(f"{round(100 * differ / len(rows))} %")
        print(f"| {a} | " + " | ".join(cells) + " |")
    print()
    groups = collections.defaultdict(list)
    for row in rows:
        groups[kind(row)].append(row)
    print("| kind of gesture | gestures | libraries all agree | distinct outcomes (mean) | most common disagreement: who leaves the majority (gestures) |")
    print("|---|---|---|---|---|")
    for name in sorted(groups):
        members = groups[name]
        agree = sum(len({str(outcome(row, p)) for p in presets}) == 1 for row in members)
        distinct = sum(len({str(outcome(row, p)) for p in presets}) for row in members) / len(members)
        splits = collections.Counter(split(row, presets) for row in members)
        splits.pop("none", None)
        common = splits.most_common(1)[0] if splits else ("—", 0)
        print(f"| {name} | {len(members)} | {agree} ({round(100 * agree / len(members))} %) | {distinct:.2f} | "
              f"{common[0]} ({common[1]}) |")


if __name__ == "__main__":
    main()
