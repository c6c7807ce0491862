#!/usr/bin/env python3
"""Transcribes FloatingPanel's targetState test rows into PanTrace's fixture table.

Usage: scripts/transcribe-floatingpanel-vectors.py CoreTests.swift > \
       Tests/PanTraceCLITests/Fixtures/detents/floatingpanel-targetState.tsv

CoreTests.swift is `Tests/CoreTests.swift` of scenee/FloatingPanel (MIT); the table was made
from commit 7efcc769. Each `test_targetState_*` function gives a layout (its anchors, laid out
on the 375 x 667 view of `showForTest()` in `Tests/TestSupports.swift`), an optional
`FloatingPanelProjectableBehavior`, and blocks of `fpc.move(to:)` followed by
`assertTargetState` rows (position, velocity, expected state). The table resolves every
position to points and every state to its index among the layout's anchors sorted by
coordinate, as `sortedAnchorStatesByCoordinate` sorts them.
"""
import re
import sys

HEIGHT = 667.0
# Anchor positions (surfaceLocation.y) on the 375 x 667 view.
BOTTOM = {"full": 20.0, "half": HEIGHT - 250.0, "tip": HEIGHT - 60.0, "hidden": HEIGHT}
TOP = {"tip": 60.0, "half": 250.0, "full": HEIGHT}  # FloatingPanelTop2BottomTestLayout
LAYOUTS = {
    "test_targetState_1positions": (BOTTOM, ["full"]),
    "test_targetState_2positions": (BOTTOM, ["full", "half"]),
    "test_targetState_2positionsWithHidden": (BOTTOM, ["full", "hidden"]),
    "test_targetState_3positionsWithHidden": (BOTTOM, ["full", "half", "hidden"]),
    "test_targetState_3positionsWithHiddenWithoutFull": (BOTTOM, ["half", "tip", "hidden"]),
}


def layout_of(test):
    if test in LAYOUTS:
        return LAYOUTS[test]
    if test.endswith("_bottomEdge"):
        return TOP, ["tip", "half", "full"]
    return BOTTOM, ["full", "half", "tip"]


def main(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    test = None
    state = None
    projects = False
    print("# FloatingPanel targetState vectors, transcribed by scripts/transcribe-floatingpanel-vectors.py")
    print("# from scenee/FloatingPanel@7efcc769 Tests/CoreTests.swift (MIT License: LICENSE-FloatingPanel.txt beside this file).")
    print("# Positions are surfaceLocation.y on a 375 x 667 view; detents are the anchors sorted by coordinate.")
    print("test\tline\tdetents\tprojectMomentum\tstart\tposition\tvelocity\texpected")
    for number, line in enumerate(lines, start=1):
        m = re.search(r"func (test_targetState_\w+)\(\)", line)
        if m:
            test, state, projects = m.group(1), None, False
            continue
        if test is None:
            continue
        if re.search(r"func test_(?!targetState)", line):
            test = None
            continue
        if "FloatingPanelProjectableBehavior()" in line:
            projects = True
        m = re.search(r"fpc\.move\(to: \.(\w+)", line)
        if m:
            state = m.group(1)
            continue
        m = re.match(r"\s*\(#line, (.+?), CGPoint\(x: 0\.0, y: (-?[\d.]+)\), \.(\w+)\)", line)
        if not m:
            continue
        positions, names = layout_of(test)
        expr, velocity, expected = m.group(1), float(m.group(2)), m.group(3)
        if expr == "fpc.surfaceView.frame.minY":
            position = positions[state]
        else:
            e = re.fullmatch(r"(full|half|tip|hidden)Pos(?: ([+-]) ([\d.]+))?", expr)
            if not e:
                sys.exit(f"{path}:{number}: cannot read the position {expr!r}")
            position = positions[e.group(1)]
            if e.group(2):
                position += float(e.group(3)) * (1 if e.group(2) == "+" else -1)
        ordered = sorted(names, key=lambda name: positions[name])
        detents = ",".join(f"{positions[name]:g}" for name in ordered)
        print(f"{test}\t{number}\t{detents}\t{'on' if projects else 'off'}\t{ordered.index(state)}"
              f"\t{position:g}\t{velocity:g}\t{ordered.index(expected)}")


if __name__ == "__main__":
    main(sys.argv[1])
