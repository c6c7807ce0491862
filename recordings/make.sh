#!/usr/bin/env bash
# Remakes the bundled sample recordings (recordings/README.md says what they are).
#   recordings/make.sh            both sets
#   recordings/make.sh real       recordings/real/ only
#   recordings/make.sh synthetic  recordings/synthetic/ only
# Existing files are never overwritten: remove a set's folder first to remake it.
# PANTRACE (default .build/debug/pantrace, built if missing) and PANTRACE_SHARED (default
# ../shared, the folder holding testdata/velocity/) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."
PANTRACE=${PANTRACE:-.build/debug/pantrace}
SHARED=${PANTRACE_SHARED:-../shared}
VECTORS="$SHARED/testdata/velocity"
CREATED=2026-01-01T00:00:00Z
[ -x "$PANTRACE" ] || swift build --product pantrace
which=${1:-all}

make_real() {
    local logs
    logs=$(mktemp -d)
    trap 'rm -rf "$logs"' RETURN
    # 1. The platforms' recorded flings as raw pointer logs, one CSV per gesture, named
    #    <device>__<test>__<intent>.csv; positions and times exactly as in the vectors.
    python3 - "$VECTORS" "$logs" <<'PY'
import json, re, sys
vectors, out = sys.argv[1], sys.argv[2]

def ms(ns):
    return "%d.%06d" % divmod(ns, 1_000_000)

def intent(rows):
    # The rule (README): every fling here is vertical; a fling down finishes a swipe-down
    # dismiss, a fling up cancels it. Direction = lift position minus down position.
    downs = [r for r in rows if r[3] == "down"]
    lifts = [r for r in rows if r[3] in ("up", "cancel") and r[4] == downs[0][4]]
    dx, dy = lifts[-1][1] - downs[0][1], lifts[-1][2] - downs[0][2]
    assert abs(dy) > abs(dx), "not a vertical fling"
    return "finish" if dy > 0 else "cancel"

def write(name, rows):
    name = f"{name}__{intent(rows)}"
    with open(f"{out}/{name}.csv", "w") as f:
        f.write("t_ms,x,y,phase,pointer\n")
        for t, x, y, phase, pointer in rows:
            f.write(f"{ms(t)},{x!r},{y!r},{phase},{pointer}\n")

android = json.load(open(f"{vectors}/android_velocitytracker.json"))
for case in android["cases"]:
    group = case["group"]
    if not group.startswith("recorded_"):
        continue  # hand-made and exact-fit cases are not human gestures
    device = "android-" + group.removeprefix("recorded_")
    rows, down = [], set()
    for s in case["samples"]:
        if s.get("resampled"):
            continue  # predicted, not touched; Android's tracker skips them too
        if case["multi_pointer"]:
            now = {p["id"]: p for p in s["pointers"] if not p.get("resampled")}
            for pid in sorted(down - now.keys()):
                rows.append((s["t_ns"], last[pid]["x"], last[pid]["y"], "up", pid))
            for pid, p in sorted(now.items()):
                rows.append((s["t_ns"], p["x"], p["y"], "move" if pid in down else "down", pid))
            down, last = set(now), now
        else:
            rows.append((s["t_ns"], s["x"], s["y"], s["phase"], 0))
    write(f"{device}__{case['name']}", rows)

flutter = json.load(open(f"{vectors}/flutter_velocitytracker.json"))
for case in flutter["cases"]:
    if case["test"] != "Velocity tracker gives expected results":
        continue  # the interrupted case has an artificial gap
    number = int(re.search(r"#(\d+)", case["name"]).group(1))
    rows = [(s["t_ms"] * 1_000_000, s["x"], s["y"], s["phase"], 1) for s in case["samples"]]
    write(f"flutter__velocityEventData-{number:02d}", rows)
PY
    # 2. Each log through `pantrace record`, with the platform's estimator and screen.
    mkdir -p recordings/real
    for log in "$logs"/*.csv; do
        local base device test intent velocity screen scale
        base=$(basename "$log" .csv)
        device=${base%%__*}; rest=${base#*__}; test=${rest%%__*}; intent=${rest##*__}
        if [ "$device" = flutter ]; then
            velocity=flutter; screen=390x844; scale=3
        else
            velocity=lsq2; screen=1080x1920; scale=1
        fi
        "$PANTRACE" record --from "$log" -o "recordings/real/$device-$test" --intent "$intent" \
            --velocity "$velocity" --screen "$screen" --scale "$scale" --created "$CREATED" \
            --tag "$device" --tag "$test" --tag swipe-down
    done
}

make_synthetic() {
    # Two kinds × two rates × six scenarios × two gestures, each combination its own seed.
    local seed=1
    for kind in edge-back swipe-down; do
        for rate in 60 120; do
            for scenario in slow-complete slow-abort quick-flick flick-back hesitate-go overshoot-return; do
                "$PANTRACE" synth -o "recordings/synthetic/$kind-${rate}hz" --kind "$kind" --rate "$rate" \
                    --scenario "$scenario" --count 2 --seed "$seed" >/dev/null
                seed=$((seed + 1))
            done
        done
    done
    echo "wrote $(find recordings/synthetic -name '*.pantrace' | wc -l) synthetic gestures"
}

case "$which" in
    real) make_real ;;
    synthetic) make_synthetic ;;
    all) make_real; make_synthetic ;;
    *) echo "usage: recordings/make.sh [real|synthetic|all]" >&2; exit 2 ;;
esac
