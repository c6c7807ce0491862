"""What a person waits for in the viewer, measured in a real headless Chromium against a
release `pantrace serve` on the bundled recordings:

- page load → full timeline: from navigation start to the timeline holding every point of the
  replay (the `series` drawn), for an address opened paused (`#recording=…&t=…`);
- slider → re-decided frame: from the `input` event of the threshold slider to the stage
  drawing the first frame of the reloaded replay (the 150 ms debounce of a moving slider
  included, since a person waits for it too).

Both are read with `performance.now()` in the page (a MutationObserver on the stage's and the
timeline's data attributes), so WebDriver's own round trips are not counted. Each figure is
the median over the recordings, with the range.

    .venv/bin/python Benchmarks/viewer/latency.py [--pantrace .build/release/pantrace] [--count 12]
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]

LOAD_JS = """
const done = arguments[arguments.length - 1];
const t = document.getElementById('timeline');
const ready = () => window.pantrace?.store.series.whole && Number(t.dataset.frames) >= window.pantrace.store.series.whole.points.length;
const finish = () => done({ms: performance.now(), points: Number(t.dataset.frames)});
if (ready()) finish();
else new MutationObserver((_, o) => { if (ready()) { o.disconnect(); finish(); } }).observe(t, {attributes: true});
"""

SLIDER_JS = """
const done = arguments[arguments.length - 1];
const stage = document.getElementById('stage');
const slider = document.getElementById('param-threshold');
const before = stage.dataset.load;
const start = performance.now();
new MutationObserver((_, o) => {
  if (stage.dataset.load !== before && stage.dataset.seq) { o.disconnect(); requestAnimationFrame(() => done(performance.now() - start)); }
}).observe(stage, {attributes: true});
slider.value = String(Math.min(Number(slider.max), Number(slider.value) + Number(slider.step) * 7));
slider.dispatchEvent(new Event('input', {bubbles: true}));
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pantrace", default=os.environ.get("PANTRACE", str(ROOT / ".build" / "release" / "pantrace")))
    parser.add_argument("--count", type=int, default=12)
    args = parser.parse_args()
    recordings = sorted(p.relative_to(ROOT / "recordings").as_posix() for p in (ROOT / "recordings" / "synthetic").rglob("*.pantrace"))
    recordings = recordings[:: max(1, len(recordings) // args.count)][: args.count]
    state = tempfile.mkdtemp(prefix="pantrace-bench-state-")
    server = subprocess.Popen([args.pantrace, "serve", "--port", "0", "--recordings", str(ROOT / "recordings"), "--web", str(ROOT / "web")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, "XDG_STATE_HOME": state})
    url = server.stdout.readline().split("open ", 1)[1].strip()
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(20)
    loads, sliders = [], []
    try:
        for recording in recordings:
            preset = "best" if "edge-back" in recording else "swipe-dismiss"
            driver.get("about:blank")
            driver.get(f"{url}#recording={recording}&preset={preset}&t=0.1")
            loads.append(driver.execute_async_script(LOAD_JS)["ms"])
            WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.body.dataset.playing") == "false")
            sliders.append(driver.execute_async_script(SLIDER_JS))
    finally:
        driver.quit()
        server.terminate()
        server.wait()
    report = {
        "recordings": len(recordings),
        "page_load_to_full_timeline_ms": {"median": statistics.median(loads), "min": min(loads), "max": max(loads)},
        "slider_to_redecided_frame_ms": {"median": statistics.median(sliders), "min": min(sliders), "max": max(sliders),
                                         "of_which_debounce_ms": 150},
    }
    print(f"viewer, {len(recordings)} bundled recordings, headless Chromium, release pantrace serve on 127.0.0.1:")
    print(f"  page load -> full timeline:     median {report['page_load_to_full_timeline_ms']['median']:.0f} ms "
          f"(range {min(loads):.0f}-{max(loads):.0f})")
    print(f"  slider -> re-decided frame:     median {report['slider_to_redecided_frame_ms']['median']:.0f} ms "
          f"(range {min(sliders):.0f}-{max(sliders):.0f}; 150 ms of it is the slider's debounce)")
    json.dump(report, sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
