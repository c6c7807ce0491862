"""Readouts, compare and watch-only pages in a real Chromium against a real `pantrace serve`, on
a 1280 × 900 desktop with a mouse and a 390 × 844 touch phone (docs/VIEWER.md, "Readouts",
"Compare with", "Watch only"): the values at the playhead, the timeline's crosshair and range
measure read off the series the server sent (and never seeking), both settings' thresholds and
"same curve" when comparing, what a page without the token says where it is refused, and
server errors in plain words."""
import json

import pytest
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_timeline import client_x, drag, scroll_into_view, tap, timeline
from test_viewer import EDGE_RECORDING, RECORDING, settled, state, wait

# Every message the page sends from now on, kept in the page (the readout must send none).
RECORD_SENT_JS = """
const store = window.pantrace.store;
window.sent = [];
if (!store.sendRecorded) {
  const send = store.send.bind(store);
  store.send = (message) => { window.sent.push(message); return send(message); };
  store.sendRecorded = true;
}
"""

# What the chart draws (the store's frame series) and the readout's text, in one script.
READOUT_JS = """
const el = document.getElementById('timeline-readout');
const row = (kind) => { const r = el.querySelector('.readout-row.' + kind); return r ? {...r.dataset} : null; };
const frames = window.pantrace.store.series.frames.map((f) => ({time: f.time, phase: f.phase, progress: f.progress,
  drawn: f.rendered_progress, down: Boolean(f.gesture) && !['completing', 'finished', 'cancelled'].includes(f.phase),
  vx: f.gesture ? f.gesture.velocity.x : null, vy: f.gesture ? f.gesture.velocity.y : null}));
const crosshair = document.getElementById('chart-crosshair');
return {cursor: row('cursor'), range: row('range'), frames, axis: window.pantrace.replay.timeline.model.axis,
        crosshair: crosshair ? Number(crosshair.dataset.time) : null, sent: window.sent || []};
"""


def readout(d):
    return d.execute_script(READOUT_JS)


def value_at(frames, t, axis):
    """The value on the chart's straight segments at `t` (web/readout.mjs valueAt, written again)."""
    t = min(frames[-1]["time"], max(frames[0]["time"], t))
    i = max(k for k, f in enumerate(frames) if f["time"] <= t + 1e-9)
    a, b = frames[i], frames[min(i + 1, len(frames) - 1)]
    u = (t - a["time"]) / (b["time"] - a["time"]) if b["time"] > a["time"] else 0
    lerp = lambda key: a[key] + (b[key] - a[key]) * u
    down = a["down"] and (u < 1e-9 or b["down"])
    v = "v" + axis
    return {"progress": lerp("progress"), "drawn": lerp("drawn"), "velocity": (a[v] + (b[v] - a[v]) * u) if down else None,
            "phase": a["phase"]}


def mean_velocity(frames, t0, t1, axis):
    """The time mean of the velocity curve over [t0, t1] where the finger is down (trapezoids)."""
    points = [(t0, value_at(frames, t0, axis)["velocity"])]
    points += [(f["time"], f["v" + axis] if f["down"] else None) for f in frames if t0 + 1e-9 < f["time"] < t1 - 1e-9]
    points += [(t1, value_at(frames, t1, axis)["velocity"])]
    area = covered = 0.0
    for (ta, va), (tb, vb) in zip(points, points[1:]):
        if va is None or vb is None:
            continue
        area += (va + vb) / 2 * (tb - ta)
        covered += tb - ta
    return area / covered if covered else None


def close(a, b, tolerance=1e-9):
    return abs(float(a) - float(b)) <= tolerance


def plot_point(d, fraction):
    """Client coordinates at `fraction` of the plot's width, halfway down the chart, and the time there."""
    t = timeline(d)
    x = client_x(t, t["plot"]["x"] + t["plot"]["width"] * fraction)
    y = t["box"]["top"] + t["box"]["height"] / 2
    return x, y, t["from"] + (t["to"] - t["from"]) * fraction, (t["to"] - t["from"]) / t["plot"]["width"]


def open_paused(d, url, at=0.1):
    d.get(f"{url}#recording={EDGE_RECORDING}&preset=best&t={at}")
    wait(d, lambda d: (s := settled(d)) and abs(float(s["time"]) - at) < 0.02 and timeline(d)["frames"] > 40, message=f"paused at {at}")
    d.execute_script(RECORD_SENT_JS)
    return state(d)


def no_sideways_scroll(d):
    width = d.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"{width[0]} px of content in {width[1]} px"


def long_press(d, x, y):
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(d, mouse=finger)
    actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pause(0.7).pointer_up()
    actions.perform()


def test_the_crosshair_reads_the_series_where_the_pointer_is_and_does_not_seek(server, device):
    """A mouse hovers; a finger holds still (a long press: a tap or a drag would seek)."""
    d = device.driver
    before = open_paused(d, server.url)
    scroll_into_view(d, "timeline")
    x, y, at, per_px = plot_point(d, 0.4)
    if device.touch:
        long_press(d, x, y)
    else:
        actions = ActionBuilder(d)
        actions.pointer_action.move_to_location(int(x), int(y))
        actions.perform()
    r = wait(d, lambda d: (r := readout(d))["cursor"] and r, message="the readout shows the values at the pointer")
    cursor = r["cursor"]
    t = float(cursor["time"])
    assert abs(t - at) <= 2 * per_px, f"the crosshair is at {t:.4f} s, the pointer at {at:.4f} s"
    assert close(r["crosshair"], t), "the crosshair line is drawn at the readout's time"
    want = value_at(r["frames"], t, r["axis"])
    assert close(cursor["progress"], want["progress"]) and close(cursor["drawn"], want["drawn"]), (cursor, want)
    assert want["velocity"] is not None and close(cursor["velocity"], want["velocity"]), (cursor, want)
    assert cursor["phase"] == want["phase"] == "interactive"
    # The text says the same, rounded.
    text = d.find_element(By.CSS_SELECTOR, "#timeline-readout .readout-row.cursor").text
    assert f"{t:.3f} s" in text and "progress" in text and "velocity" in text
    # Nothing was sent: the playhead stays where it was, for this page and every other.
    assert not r["sent"], r["sent"]
    s = state(d)
    assert s["body"]["playhead"] == before["body"]["playhead"] and s["body"]["playing"] == "false"
    device.screenshot(f"40-readout-crosshair-{device.name}")
    no_sideways_scroll(d)


def test_a_tap_seek_after_a_long_press_leaves_no_crosshair_at_the_old_time(server, device):
    """On a phone: a long press pins a crosshair; a tap elsewhere then seeks, and the crosshair
    (which read the old time) goes, so no value beside the new playhead reads another time."""
    if not device.touch:
        pytest.skip("a finger's long press and tap: the phone's case")
    d = device.driver
    before = open_paused(d, server.url)
    scroll_into_view(d, "timeline")
    x, y, _, _ = plot_point(d, 0.3)
    long_press(d, x, y)
    wait(d, lambda d: readout(d)["cursor"], message="the long press pinned a crosshair")
    x2, _, at2, per_px = plot_point(d, 0.7)
    tap(d, x2, y, True)
    wait(d, lambda d: state(d)["body"]["playhead"] != before["body"]["playhead"], message="the tap seeked")
    assert not readout(d)["cursor"], "a crosshair still reads the long press's time"


def test_a_range_measure_gives_the_differences_between_two_times(server, device):
    """Shift-drag with a mouse; on a phone, the measure button, then a drag."""
    d = device.driver
    before = open_paused(d, server.url)
    scroll_into_view(d, "timeline")
    x0, y, t0, per_px = plot_point(d, 0.15)
    x1, _, t1, _ = plot_point(d, 0.55)
    if device.touch:
        d.find_element(By.ID, "timeline-measure").click()
        assert d.find_element(By.ID, "timeline-measure").get_attribute("aria-pressed") == "true"
        drag(d, [(x0, y), (x0 + 20, y), ((x0 + x1) / 2, y), (x1, y)], touch=True)
    else:
        mouse = lambda kind, x, buttons: d.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1, "modifiers": 8})
        mouse("mousePressed", x0, 1)
        for k in range(1, 9):
            mouse("mouseMoved", x0 + (x1 - x0) * k / 8, 1)
        mouse("mouseReleased", x1, 0)
    r = wait(d, lambda d: (r := readout(d))["range"] and r, message="the range is measured")
    m = r["range"]
    start, end = (float(v) for v in m["span"].split(","))
    assert abs(start - t0) <= 2 * per_px and abs(end - t1) <= 2 * per_px, (start, end, t0, t1)
    frames, axis = r["frames"], r["axis"]
    a, b = value_at(frames, start, axis), value_at(frames, end, axis)
    assert close(m["dt"], end - start)
    assert close(m["progress"], b["progress"] - a["progress"]) and close(m["drawn"], b["drawn"] - a["drawn"])
    assert close(m["velocity"], mean_velocity(frames, start, end, axis), 1e-6), (m["velocity"], mean_velocity(frames, start, end, axis))
    assert float(m["progress"]) > 0.05, "the gesture moved between the two times"
    assert d.find_element(By.ID, "chart-measure").is_displayed()
    text = d.find_element(By.CSS_SELECTOR, "#timeline-readout .readout-row.range").text
    assert "Δt" in text and "Δprogress" in text and "mean velocity" in text
    assert not r["sent"], r["sent"]
    assert state(d)["body"]["playhead"] == before["body"]["playhead"]
    device.screenshot(f"41-readout-range-{device.name}")
    no_sideways_scroll(d)
    # "clear" sits on the row's first line, beside its title, never wrapped onto a line of its own.
    title_top, clear_top = d.execute_script("""
        const row = document.querySelector('#timeline-readout .readout-row.range');
        return [row.querySelector('.readout-title').getBoundingClientRect().top, row.querySelector('.readout-clear').getBoundingClientRect().top];""")
    assert abs(title_top - clear_top) < 8, (title_top, clear_top)
    # Clearing it leaves the hint.
    d.find_element(By.CSS_SELECTOR, "#timeline-readout .readout-clear").click()
    wait(d, lambda d: not readout(d)["range"] and not d.find_elements(By.ID, "chart-measure"))


def test_the_keyboard_moves_a_readout_cursor_and_measures_on_the_focused_timeline(server, browser):
    d = browser.driver
    before = open_paused(d, server.url, at=0.2)
    svg = d.find_element(By.ID, "timeline")
    d.execute_script("arguments[0].focus()", svg)
    playhead = float(before["body"]["playhead"])
    svg.send_keys(Keys.ARROW_RIGHT)
    r = wait(d, lambda d: (r := readout(d))["cursor"] and r)
    assert close(r["cursor"]["time"], playhead + 1 / 60, 1e-6), "one frame after the playhead"
    svg.send_keys(Keys.SHIFT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    r = wait(d, lambda d: (r := readout(d))["range"] and r)
    assert close(r["range"]["dt"], 3 / 60, 1e-6), r["range"]
    svg.send_keys(Keys.ESCAPE)
    wait(d, lambda d: not (r := readout(d))["range"] and not r["cursor"])
    # The arrows moved the cursor, not the player.
    assert not readout(d)["sent"]
    assert state(d)["body"]["playhead"] == before["body"]["playhead"]


def test_the_values_at_the_playhead_sit_beside_the_stage(server, device):
    d = device.driver
    open_paused(d, server.url, at=0.2)
    cells = lambda: d.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('#readout .readout-cell')].map((c) => [c.dataset.key, c.dataset.value]))")
    c = wait(d, lambda d: (c := cells()).get("time") and c)
    s = state(d)
    assert close(c["time"], s["time"])
    r = readout(d)
    want = value_at(r["frames"], float(c["time"]), r["axis"])
    assert close(c["progress"], want["progress"]) and close(c["drawn"], want["drawn"])
    stage_phase = d.execute_script("return document.getElementById('stage').dataset.phase")
    assert close(c["velocity"], want["velocity"]) and c["phase"] == stage_phase == want["phase"]
    assert c["translation"] != "", "the finger is down at 0.2 s"
    assert d.find_element(By.ID, "readout").is_displayed()
    if not device.touch:
        # It follows the playhead: a step forward.
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait(d, lambda d: close(cells()["time"], float(c["time"]) + 1 / 60, 1e-6))
    else:
        bottom = lambda element_id: d.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().bottom", element_id)
        d.execute_script("window.scrollTo(0, 0)")
        assert bottom("decision") <= 844, "the decision stays in the first screen"
    device.screenshot(f"42-readout-playhead-{device.name}")
    no_sideways_scroll(d)


def thresholds(d):
    return d.execute_script("""
        return {lines: [...document.querySelectorAll('#timeline line.threshold')].map((l) => ({which: l.dataset.which, value: Number(l.dataset.value)})),
                labels: [...document.querySelectorAll('#timeline text.threshold-label')].map((t) => ({which: t.dataset.which, text: t.textContent})),
                same: document.getElementById('timeline').dataset.sameCurve,
                sameLabel: document.getElementById('chart-same-curve')?.textContent ?? null};""")


def compare_with_defaults(d, url, threshold):
    """The swipe down under `swipe-dismiss` with `threshold`, compared with the defaults (0.5);
    its progress at the release is 0.61, so 0.6 decides as 0.5 does and 0.9 does not."""
    d.get(f"{url}#recording={RECORDING}&preset=swipe-dismiss&p.threshold={threshold}&t=0.1&cmp=defaults")
    box = d.find_element(By.ID, "compare-box")
    wait(d, lambda d: settled(d) and box.get_attribute("data-ready") == "true" and timeline(d)["compare"]
         and box.get_attribute("data-same") in ("true", "false"), message="the comparison is drawn")
    return box


def test_compare_draws_both_thresholds_labelled_and_says_when_the_curves_are_the_same(server, device):
    d = device.driver
    default = 0.5
    # Above the progress at the release: the other decision, another curve.
    box = compare_with_defaults(d, server.url, 0.9)
    wait(d, lambda d: len(thresholds(d)["lines"]) == 2)
    th = thresholds(d)
    assert sorted((l["which"], l["value"]) for l in th["lines"]) == sorted([("a", 0.9), ("b", default)]), th
    labels = {l["which"]: l["text"] for l in th["labels"]}
    assert "0.9" in labels["a"] and "A" in labels["a"], labels
    assert f"{default:g}" in labels["b"] and "B" in labels["b"], labels
    assert box.get_attribute("data-decision-a") != box.get_attribute("data-decision-b")
    assert th["same"] == "false" and th["sameLabel"] is None and not d.find_element(By.ID, "compare-same").is_displayed()
    # The legend's key for each line is drawn with that line's colour and dash.
    styles = d.execute_script("""
        const style = (el) => { const s = getComputedStyle(el); return [s.stroke, s.strokeDasharray, s.opacity, s.strokeWidth]; };
        const key = (k) => document.querySelector('#legend [data-key="' + k + '"] .swatch line');
        return {a: [style(key('threshold')), style(document.querySelector('#timeline line.threshold[data-which="a"]'))],
                b: [style(key('compare-threshold')), style(document.getElementById('chart-compare-threshold'))],
                curve: [style(key('compare')), style(document.querySelector('#timeline path.compare-progress'))],
                drawnKeys: [...document.querySelectorAll('#legend .key')].filter((k) => !k.hidden).map((k) => k.dataset.key)};""")
    for name in ("a", "b", "curve"):
        assert styles[name][0] == styles[name][1], f"the {name} key differs from its line: {styles[name]}"
    assert "compare-threshold" in styles["drawnKeys"]
    scroll_into_view(d, "timeline")
    device.screenshot(f"43-compare-two-thresholds-{device.name}")
    no_sideways_scroll(d)

    # Under it, like the default: the same decision, one curve, and the page says so.
    box = compare_with_defaults(d, server.url, 0.6)
    wait(d, lambda d: thresholds(d)["same"] == "true", message="same curve")
    th = thresholds(d)
    assert sorted(l["value"] for l in th["lines"]) == sorted([0.6, default]), "both thresholds still drawn"
    assert th["sameLabel"] and "same curve" in th["sameLabel"]
    same = d.find_element(By.ID, "compare-same")
    scroll_into_view(d, "compare-box")
    assert same.is_displayed() and "same curve" in same.text
    assert box.get_attribute("data-decision-a") == box.get_attribute("data-decision-b")
    scroll_into_view(d, "timeline")
    device.screenshot(f"44-compare-same-curve-{device.name}")
    no_sideways_scroll(d)


def test_a_watch_only_page_says_what_it_cannot_do_where_it_is_tried(server, device):
    d = device.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.1")
    wait(d, lambda d: settled(d) and timeline(d)["frames"] > 40)
    # The watcher: the same view without the token.
    d.get(server.url.split("?")[0] + f"#recording={EDGE_RECORDING}&preset=best")
    wait(d, lambda d: state(d)["body"]["canControl"] == "false" and timeline(d)["frames"] > 40 and state(d)["seq"])
    d.execute_script(RECORD_SENT_JS)
    playhead = state(d)["body"]["playhead"]

    # The Record tab: no pad, and it says why and how to get control.
    d.find_element(By.ID, "tab-record").click()
    status = d.find_element(By.ID, "record-status")
    wait(d, lambda d: "only watches" in status.text)
    assert "can't record" in status.text and "?token=" in status.text and "pantrace serve printed" in status.text
    assert "ready: drag on the phone" not in status.text
    assert not d.find_element(By.ID, "pad").is_displayed()
    assert d.find_element(By.ID, "pad-watch").is_displayed()
    device.screenshot(f"45-watch-only-record-{device.name}")
    no_sideways_scroll(d)

    # Space: no scrolling, and a message.
    d.find_element(By.ID, "tab-replay").click()
    d.execute_script("""
        window.spaces = [];
        window.addEventListener('keydown', (e) => { if (e.key === ' ') window.spaces.push(e.defaultPrevented); });
        document.activeElement?.blur(); window.scrollTo(0, 0);""")
    if device.touch:
        assert d.execute_script("return document.documentElement.scrollHeight > innerHeight"), "the phone's page scrolls"
    d.find_element(By.TAG_NAME, "body").send_keys(" ")
    toast = d.find_element(By.ID, "toast")
    wait(d, lambda d: toast.is_displayed() and "only watches" in toast.text)
    assert "can't play" in toast.text and "?token=" in toast.text
    assert d.execute_script("return window.spaces") == [True], "Space did not reach the page's scrolling"
    assert d.execute_script("return window.scrollY") == 0
    device.screenshot(f"46-watch-only-space-{device.name}")

    # A click or a tap on the timeline: a note under it, and the values there.
    scroll_into_view(d, "timeline")
    x, y, at, per_px = plot_point(d, 0.6)
    tap(d, x, y, device.touch)
    note = d.find_element(By.ID, "timeline-note")
    wait(d, lambda d: note.is_displayed() and "can't move the playhead" in note.text)
    assert "?token=" in note.text
    r = wait(d, lambda d: (r := readout(d))["cursor"] and r)
    assert abs(float(r["cursor"]["time"]) - at) <= 2 * per_px
    assert not [m for m in r["sent"] if m["type"] != "compare"], r["sent"]
    assert state(d)["body"]["playhead"] == playhead
    device.screenshot(f"47-watch-only-timeline-{device.name}")
    no_sideways_scroll(d)

    # What is local still works: zoom, compare, the readout.
    d.find_element(By.TAG_NAME, "body").send_keys("+")
    wait(d, lambda d: timeline(d)["zoomed"] == "true")
    scroll_into_view(d, "compare")
    Select(d.find_element(By.ID, "compare")).select_by_value("defaults")
    wait(d, lambda d: d.find_element(By.ID, "compare-box").get_attribute("data-ready") == "true")


def test_server_errors_reach_a_person_as_plain_sentences(server, browser):
    d = browser.driver
    d.get(server.url)
    wait(d, lambda d: state(d)["body"].get("load"))
    toast = d.find_element(By.ID, "toast")
    # A pointer event with no recording armed (what a wedged pad used to show as protocol text).
    d.execute_script("window.pantrace.store.send({type: 'pointer', t_ms: 1, x: 10, y: 10, phase: 'move', pointer: 1})")
    wait(d, lambda d: toast.is_displayed() and toast.text)
    assert "press on the pad to record again" in toast.text, toast.text
    for protocol_text in ("invalid", "not recording", "send record first"):
        assert protocol_text not in toast.text
    logged = [e["message"] for e in browser.drain_log() if "pantrace serve answered pointer with invalid: " in e["message"]]
    assert logged, "the server's own words are in the console"
    said = logged[0].split("with invalid: ", 1)[1].rstrip('"').strip()
    assert said and said not in toast.text, (said, toast.text)
    # A page without the token that asks anyway.
    d.get(server.url.split("?")[0])
    wait(d, lambda d: state(d)["body"]["canControl"] == "false" and state(d)["body"].get("load"))
    d.execute_script("window.pantrace.store.send({type: 'pause'})")
    toast = d.find_element(By.ID, "toast")
    wait(d, lambda d: toast.is_displayed() and "only watches" in toast.text)
    assert "forbidden" not in toast.text and "?token=" in toast.text
