"""The `css-scroll-snap` preset against Chromium itself: recorded and synthetic flings performed by
chromedriver (W3C touch actions from `pantrace emit --to webdriver-touch`) on a page whose sheet is
a CSS `scroll-snap-type: y mandatory` scroller with four snap points (Tests/browser/snap/), with and
without `scroll-snap-stop: always`. The touches Chromium dispatched are read back from the page,
recorded with `pantrace record`, and `pantrace detents --presets css-scroll-snap` must predict the
snap point Chromium settled at.

Runs with `make test-snap` (PANTRACE_SNAP_ALL=1: every bundled real recording and 100 synthetic
swipes, each also mirrored, on both pages: more than 200 flings a page, about sixteen minutes). The
goal is 95 % (docs/DETENTS.md); the test holds the agreement to FLOOR, the goal, and prints
every miss with the rule's reason, so a change that loses agreement fails.
"""
import csv
import functools
import http.server
import json
import os
import pathlib
import random
import subprocess
import threading
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.command import Command

from conftest import BINARY, CHROMEDRIVER, CHROMIUM, ROOT

PAGE = ROOT / "Tests" / "browser" / "snap"
REPORT = ROOT / "build" / "snap-loop"
VIEWPORT = (400, 900)
# The page's snap offsets (scrollTop) and, as the sheet PanTrace replays, the sheet's top edge at
# each: 800 − offset, most expanded first.
SNAPS = [0, 200, 500, 800]
DETENTS = sorted(800 - s for s in SNAPS)
# The fling curve's pixels per inch (`--set pixelsPerInch`): Chromium's source says 96, but the
# flings Chromium 156 runs headless here end as if its curve were about 2.9 times shorter; 280 is
# measured on an earlier loop (docs/DETENTS.md), and this run is new data for it.
PIXELS_PER_INCH = 280
# Measured (docs/DETENTS.md): 97.3 % without snap-stop, 97.0 % with it, of 264 flings each, once
# the scroller stops at its ends while the finger goes on. The goal is 95 % for both.
FLOOR = {"plain": 0.95, "stop": 0.95}

pytestmark = pytest.mark.skipif(not os.environ.get("PANTRACE_SNAP_ALL"),
                                reason="the scroll-snap loop runs with make test-snap (PANTRACE_SNAP_ALL=1)")


@pytest.fixture(scope="module")
def page_url():
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(PAGE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/snap-sheet.html"
    server.shutdown()


@pytest.fixture(scope="module")
def gestures(tmp_path_factory):
    """(name, W3C actions, mirrored) for every gesture that fits the page."""
    folder = tmp_path_factory.mktemp("snap-gestures")
    subprocess.run([str(BINARY), "synth", "-o", str(folder / "synth"), "--count", "100", "--seed", "7", "--kind", "swipe-down"],
                   check=True, capture_output=True)
    files = sorted((ROOT / "recordings" / "real").glob("*.pantrace")) + sorted((folder / "synth").glob("*.pantrace"))
    made = []
    for path in files:
        emitted = subprocess.run([str(BINARY), "emit", str(path), "--to", "webdriver-touch"], capture_output=True, text=True, check=True)
        actions = json.loads(emitted.stdout)["actions"][0]["actions"]
        for mirrored in (False, True):
            placed = place(actions, mirrored)
            if placed is not None:
                made.append((path.name + (" (mirrored)" if mirrored else ""), placed))
    return made


def place(actions, mirrored):
    """The gesture moved (and mirrored) to fit the viewport, at x = 200; None when it cannot fit.
    Positions move by a constant, so every velocity is the recording's."""
    ys = [a["y"] for a in actions if a["type"] == "pointerMove"]
    first, span = ys[0], max(ys) - min(ys)
    if span > VIEWPORT[1] - 100:
        return None
    base = 50 + ((max(ys) - first) if mirrored else (first - min(ys)))
    placed = []
    for action in actions:
        action = dict(action)
        if action["type"] == "pointerMove":
            offset = action["y"] - first
            action["y"] = int(round(base + (-offset if mirrored else offset)))
            action["x"] = 200
        placed.append(action)
    return placed


def perform(driver, actions, start):
    driver.execute_script(f"window.pantraceReset({start})")
    time.sleep(0.15)
    driver.execute(Command.W3C_ACTIONS, {"actions": [{"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
                                                       "actions": actions}]})
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        state = driver.execute_script("return window.pantraceScroll()")
        if state["stillFrames"] > 20:
            break
        time.sleep(0.05)
    return state["top"], driver.execute_script("return window.pantraceTouches")


def predict(touches, start, folder, name, stop):
    """The preset's snap offset for the touches Chromium dispatched, or None with why."""
    if not touches or touches[0]["phase"] != "down":
        return None, "no touch reached the page"
    log = folder / f"{name}.csv"
    with open(log, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["t_ms", "x", "y", "phase", "pointer"])
        for touch in touches:
            out.writerow([repr(float(touch["t"])), repr(float(touch["x"])), repr(float(touch["y"])), touch["phase"], 0])
    subprocess.run([str(BINARY), "record", "--from", str(log), "-o", str(folder / name), "--screen", f"{VIEWPORT[0]}x{VIEWPORT[1]}",
                    "--scale", "1", "--slop", "15"], capture_output=True, text=True)
    recorded = sorted(folder.glob(f"{name}-*.pantrace"))
    if not recorded:
        return None, "the touches make no pan (within the slop)"
    arguments = [str(BINARY), "detents", str(recorded[0]), "--detents", ",".join(map(str, DETENTS)),
                 "--start", str(DETENTS.index(800 - start)), "--presets", "css-scroll-snap", "--json",
                 "--set", f"pixelsPerInch={PIXELS_PER_INCH}"]
    if stop:
        arguments += ["--set", "snapStopAlways=on"]
    result = subprocess.run(arguments, capture_output=True, text=True, check=True)
    verdict = json.loads(result.stdout)["presets"]["css-scroll-snap"]
    return 800 - DETENTS[verdict["detent"]], verdict["reason"]


@pytest.mark.parametrize("variant", ["plain", "stop"])
def test_css_scroll_snap_predicts_where_chromium_snaps(variant, page_url, gestures, tmp_path):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    rows = []
    try:
        driver.get(page_url + ("?stop=always" if variant == "stop" else ""))
        chooser = random.Random(31)
        for number, (name, actions) in enumerate(gestures):
            moves = [a["y"] for a in actions if a["type"] == "pointerMove"]
            # A finger moving up scrolls forward: start where there is room to go.
            start = chooser.choice([0, 200, 500] if moves[-1] < moves[0] else [200, 500, 800])
            end, touches = perform(driver, actions, start)
            predicted, reason = predict(touches, start, tmp_path, f"g{number}", variant == "stop")
            rows.append({"gesture": name, "start": start, "chromium": end, "predicted": predicted, "reason": reason})
    finally:
        driver.quit()
    REPORT.mkdir(parents=True, exist_ok=True)
    with open(REPORT / f"{variant}.csv", "w", newline="") as handle:
        out = csv.DictWriter(handle, fieldnames=list(rows[0].keys()))
        out.writeheader()
        out.writerows(rows)
    judged = [row for row in rows if row["predicted"] is not None]
    agree = sum(row["predicted"] == row["chromium"] for row in judged)
    print(f"\n{variant}: {agree} of {len(judged)} flings predicted ({agree / len(judged):.1%}); "
          f"{len(rows) - len(judged)} made no pan; report {REPORT / (variant + '.csv')}")
    for row in judged:
        if row["predicted"] != row["chromium"]:
            print(f"  miss: {row['gesture']} from {row['start']}: Chromium {row['chromium']}, predicted {row['predicted']} ({row['reason']})")
    assert len(judged) >= 200
    assert agree / len(judged) >= FLOOR[variant]
