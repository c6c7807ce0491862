"""Target trials on the record pad, in a real Chromium with touch input: the page asks for a
detent ("move the sheet from peek to half"), a scripted person drags the sheet there, the
server settles it with the chosen library and saves it labelled with the target; then
`pantrace tune` reads the saved trials through every sheet library and `--emit` prints each
library's code. PANTRACE_TRIALS sets how many: 30 in `make test`, 300 (a session) in
`make test-trials`, which also writes each library's report to build/trials/."""
import json
import os
import random
import shutil
import subprocess
import time

from selenium.webdriver.common.by import By

from conftest import BINARY, ROOT
from test_accessibility import axe, describe
from test_viewer import wait

TRIALS = int(os.environ.get("PANTRACE_TRIALS", "30"))
REPORTS = ROOT / "build" / "trials"
SEED = 11
LIBRARIES = ["floatingpanel", "vaul", "mdc-bottomsheet", "compose-anchored", "m3-sheet", "flutter-sheet", "gorhom", "css-scroll-snap"]
LANGUAGES = {"floatingpanel": "swift", "vaul": "json", "mdc-bottomsheet": "kotlin", "compose-anchored": "kotlin", "m3-sheet": "kotlin",
             "flutter-sheet": "dart", "gorhom": "js", "css-scroll-snap": "css"}
GRIDS = {"floatingpanel": ["redirectionalProgress=0.3:0.7:0.1", "projectMomentum=on,off"], "vaul": ["velocityThreshold=0.2:0.8:0.1"],
         "mdc-bottomsheet": ["significantVelocity=300:900:150"], "compose-anchored": ["positionalFraction=0.3:0.7:0.1"],
         "m3-sheet": ["positionalThreshold=24:88:16"], "flutter-sheet": ["velocityTolerance=5,50,200,800"],
         "gorhom": ["projection=0:0.4:0.05"], "css-scroll-snap": ["snapStopAlways=on,off"]}


def person_drag(driver, rect, screen, trial, detents, rng):
    """One person's try at a trial, as touch events at 120 Hz with their own timestamps
    (Chrome DevTools' Input.dispatchTouchEvent: the page reads each event's time, so the
    velocities are the finger's, not the driver's pace). The finger lands on the sheet's top
    bar and moves it toward the target: half the time a quick flick over part of the way, else
    a slower drag over most of it that may rest before it lifts."""
    k = rect["height"] / screen["height"]
    start, target = detents[trial["start"]], detents[trial["target"]]
    gap = target - start
    flick = rng.random() < 0.5
    share = rng.uniform(0.25, 0.6) if flick else rng.uniform(0.7, 1.1)
    moves = rng.randint(6, 12) if flick else rng.randint(24, 48)
    rest = 0.0 if flick else rng.choice([0.0, 0.0, 0.05, 0.15])
    y0 = start + 28
    y1 = min(max(y0 + gap * share, 8), screen["height"] - 8)
    x = rect["x"] + screen["width"] * rng.uniform(0.35, 0.65) * k
    t0 = time.time()

    def touch(kind, y, t):
        points = [] if kind == "touchEnd" else [{"x": x, "y": rect["y"] + y * k, "id": 1}]
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": t})

    touch("touchStart", y0, t0)
    for i in range(1, moves + 1):
        u = i / moves
        e = u if flick else u * u * (3 - 2 * u)
        touch("touchMove", y0 + (y1 - y0) * e, t0 + i / 120)
    touch("touchEnd", y1, t0 + moves / 120 + rest + 0.004)


def test_target_trials_are_saved_labelled_and_tune_through_every_library(server, browser, tmp_path):
    d = browser.driver
    d.get(f"{server.url}&trial-seed={SEED}#tab=record")
    pad = wait(d, lambda d: (p := d.find_element(By.ID, "pad")).is_displayed() and p)
    d.find_element(By.ID, "trials-on").click()
    prompt = d.find_element(By.ID, "trials-prompt")
    wait(d, lambda d: prompt.text.startswith("Trial 1 of 300: move the sheet from "), message="the first trial is asked")
    sheet = d.find_element(By.ID, "sheet")
    assert sheet.is_displayed()
    screen = {"width": 390, "height": 844}
    detents = d.execute_script("return window.pantrace.trials.request({width: 390, height: 844, scale: 3}).sheet.detents")
    assert detents == [101, 422, 692]
    rect = d.execute_script("const r = document.getElementById('pad').getBoundingClientRect(); return {x: r.x, y: r.y, height: r.height}")
    rng = random.Random(SEED)
    tally = d.find_element(By.ID, "trials-tally")
    for n in range(TRIALS):
        trial = d.execute_script("return window.pantrace.trials.plan.current")
        assert trial["index"] == n
        person_drag(d, rect, screen, trial, detents, rng)
        wait(d, lambda d: tally.get_attribute("data-saved") == str(n + 1), timeout=15, message=f"trial {n + 1} saved")
        if n in (0, 1):
            # The sheet rests where the server's library settled it (held there before the next start).
            wait(d, lambda d: sheet.get_attribute("data-settled") is not None
                 and sheet.get_attribute("data-top") == sheet.get_attribute("data-settled"), message="the sheet settles")
            browser.screenshot(f"7{n}-target-trial-settled")
    d.execute_script("document.getElementById('trials').scrollIntoView({block: 'center'})")
    browser.screenshot("72-target-trials-done")
    # The trials' controls, prompt, last settle and tally, checked by axe-core like every tab.
    d.execute_script("window.scrollTo(0, 0)")
    violations = axe(d)
    assert not violations, describe(violations)
    assert prompt.text.startswith(f"Trial {TRIALS + 1} of 300") or prompt.text.startswith("All 300 trials done")
    saved = sorted((server.recordings / "live").glob("trial-*.pantrace"))
    assert len(saved) == TRIALS

    # Every library tunes the same saved trials; the four rates add up to every one.
    for library in LIBRARIES:
        grid = [a for g in GRIDS[library] for a in ("--grid", g)]
        run = subprocess.run([str(BINARY), "tune", str(server.recordings / "live"), "--preset", library, *grid, "--json"],
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, (library, run.stderr)
        report = json.loads(run.stdout)
        best = report["best"]
        assert best["gestures"] == TRIALS and sum(best[k] for k in ("hit", "skip", "stuck", "wrong")) == TRIALS, (library, best)
        assert [s["start"] for s in report["by_start"]] == [0, 1, 2], (library, report["by_start"])
        assert report["cross_validation"]["gestures"] == TRIALS
        if TRIALS >= 300:
            REPORTS.mkdir(parents=True, exist_ok=True)
            text = subprocess.run([str(BINARY), "tune", str(server.recordings / "live"), "--preset", library, *grid],
                                  capture_output=True, text=True, timeout=300).stdout
            (REPORTS / f"{library}.txt").write_text(text)
            print(f"{library}: best {report['values']} hit {best['hit_rate']:.3f} skip {best['skip_rate']:.3f} stuck {best['stuck_rate']:.3f} "
                  f"wrong {best['wrong_rate']:.3f}; defaults hit {report['defaults']['hit_rate']:.3f}; "
                  f"cross-validated {report['cross_validation']['hit_rate']:.3f}")
        code = subprocess.run([str(BINARY), "tune", str(server.recordings / "live"), "--preset", library, *grid, "--emit", LANGUAGES[library]],
                              capture_output=True, text=True, timeout=300)
        assert code.returncode == 0, (library, code.stderr)
        (tmp_path / f"{library}.{LANGUAGES[library]}").write_text(code.stdout)
        if LANGUAGES[library] == "json":
            assert "props" in json.loads(code.stdout)
        elif LANGUAGES[library] == "js" and shutil.which("node"):
            module = tmp_path / f"{library}.mjs"
            module.write_text(code.stdout)
            assert subprocess.run(["node", "--check", str(module)], capture_output=True).returncode == 0
        else:
            assert code.stdout.startswith(("// Generated by pantrace", "/*")), (library, code.stdout[:80])
