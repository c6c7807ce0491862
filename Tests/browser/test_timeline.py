"""The timeline and what surrounds it, in a real Chromium against a real `pantrace serve`, on a
desktop with a mouse and on a 390 × 844 touch phone: the whole replay drawn at once, seeking,
zoom and pan, markers, speeds, comparing two settings, the filmstrip, export and links, and
the states that used to fail silently (docs/VIEWER.md)."""
import base64
import json
import re

import pytest
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import ROOT, another_browser
from test_viewer import EDGE_RECORDING, RECORDING, settled, state, wait

TIMELINE_JS = """
const t = document.getElementById('timeline');
const plot = t.querySelector('rect.plot');
const box = t.getBoundingClientRect();
const p = plot ? plot.getBBox() : null;
return {frames: Number(t.dataset.frames || 0), from: Number(t.dataset.from), to: Number(t.dataset.to), zoomed: t.dataset.zoomed,
        markers: [...t.querySelectorAll('line.marker')].map((m) => m.classList[1]),
        compare: Boolean(document.getElementById('chart-compare')),
        box: {left: box.left, top: box.top, width: box.width, height: box.height},
        plot: p && {x: p.x, width: p.width}, viewWidth: t.viewBox.baseVal.width};
"""


def timeline(d):
    return d.execute_script(TIMELINE_JS)


def client_x(t, chart_x):
    """The client x of a chart x (the SVG's own units)."""
    return t["box"]["left"] + chart_x * t["box"]["width"] / t["viewWidth"]


def tap(driver, x, y, touch):
    """A click (mouse) or a tap (touch) at client coordinates."""
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    actions = ActionBuilder(driver, mouse=PointerInput(kind, "finger" if touch else "mouse"))
    actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
    actions.perform()


def drag(driver, points, touch):
    kind = interaction.POINTER_TOUCH if touch else interaction.POINTER_MOUSE
    actions = ActionBuilder(driver, mouse=PointerInput(kind, "finger" if touch else "mouse"), duration=16)
    actions.pointer_action.move_to_location(int(points[0][0]), int(points[0][1])).pointer_down()
    for x, y in points[1:]:
        actions.pointer_action.move_to_location(int(x), int(y))
    actions.pointer_action.pointer_up()
    actions.perform()


def scroll_into_view(d, element_id):
    d.execute_script("document.getElementById(arguments[0]).scrollIntoView({block: 'center'})", element_id)


def test_an_opened_link_draws_the_whole_replay_at_once(server, device):
    """A link opened paused sends two frames; the chart still shows every frame of the replay."""
    d = device.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.2")
    wait(d, lambda d: (s := settled(d)) and abs(float(s["time"]) - 0.2) < 0.02, message="opened paused at 0.2 s")
    wait(d, lambda d: timeline(d)["frames"] > 40, message="the whole replay, not the 2 frames sent")
    t = timeline(d)
    assert t["markers"] == ["touchDown", "release", "settle"], t["markers"]
    assert d.find_elements(By.ID, "chart-landing"), "the projected landing point before any release frame played"
    device.screenshot(f"20-opened-link-{device.name}")


def test_a_watcher_following_a_paused_page_sees_its_whole_chart(server, browser):
    """A watch-only page opens on its own view; once its person follows the page with control,
    it shows that page's whole replay at once, says so, and one click takes it back."""
    d = browser.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.3")
    wait(d, lambda d: settled(d))
    frames = timeline(d)["frames"]
    page = d.execute_script("return window.pantrace.store.page")
    with another_browser() as watcher:
        w = watcher.driver
        w.get(server.url.split("?")[0])
        wait(w, lambda w: w.execute_script("return document.querySelectorAll('#follow-page option').length") >= 2, message="a page to follow")
        assert state(w)["body"]["canControl"] == "false"
        Select(w.find_element(By.ID, "follow-page")).select_by_value(str(page))
        wait(w, lambda w: timeline(w)["frames"] == frames and frames > 40, message="the follower's chart is the leader's, whole")
        assert w.find_element(By.ID, "following-text").text == f"following page {page}: you see its view"
        watcher.screenshot("21-watcher-following-paused")
        w.find_element(By.ID, "follow-stop").click()
        wait(w, lambda w: not w.find_element(By.ID, "following").is_displayed(), message="stopped following")


def test_click_or_tap_and_drag_on_the_timeline_seeks(server, device):
    d = device.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.1")
    wait(d, lambda d: settled(d) and timeline(d)["frames"] > 40)
    scroll_into_view(d, "timeline")
    t = timeline(d)
    at = t["from"] + (t["to"] - t["from"]) * 0.75
    x = client_x(t, t["plot"]["x"] + t["plot"]["width"] * 0.75)
    y = t["box"]["top"] + t["box"]["height"] / 2
    tap(d, x, y, device.touch)
    wait(d, lambda d: (s := settled(d)) and abs(float(s["time"]) - at) < 0.03, message=f"seeked to {at:.3f}")
    drag(d, [(x, y), (x - 40, y), (client_x(t, t["plot"]["x"] + t["plot"]["width"] * 0.25), y)], device.touch)
    quarter = t["from"] + (t["to"] - t["from"]) * 0.25
    wait(d, lambda d: (s := settled(d)) and abs(float(s["time"]) - quarter) < 0.03, message="dragged to a quarter")


def test_wheel_zooms_about_the_cursor_keys_zoom_and_double_click_fits(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.1")
    wait(d, lambda d: settled(d) and timeline(d)["frames"] > 40)
    t = timeline(d)
    whole = (t["from"], t["to"])
    x = client_x(t, t["plot"]["x"] + t["plot"]["width"] / 2)
    y = t["box"]["top"] + t["box"]["height"] / 2
    d.execute_script("""
        const svg = document.getElementById('timeline');
        svg.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true}));
    """, x, y)
    wait(d, lambda d: timeline(d)["zoomed"] == "true")
    z = timeline(d)
    assert z["to"] - z["from"] < (whole[1] - whole[0]) / 2, "zoomed in about twofold or more"
    middle = (whole[0] + whole[1]) / 2
    assert z["from"] < middle < z["to"], "about the cursor"
    wait(d, lambda d: "z=" in state(d)["hash"], message="the address keeps the zoom")
    # Shift + wheel pans.
    d.execute_script("""
        const svg = document.getElementById('timeline');
        svg.dispatchEvent(new WheelEvent('wheel', {deltaY: 300, shiftKey: true, clientX: arguments[0], clientY: arguments[1], bubbles: true, cancelable: true}));
    """, x, y)
    wait(d, lambda d: timeline(d)["from"] > z["from"], message="panned later")
    # Double-click fits the whole replay; the keys zoom and fit too.
    actions = ActionBuilder(d)
    actions.pointer_action.move_to_location(int(x), int(y)).double_click()
    actions.perform()
    wait(d, lambda d: timeline(d)["zoomed"] == "false" and "z=" not in state(d)["hash"])
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys("+")
    wait(d, lambda d: timeline(d)["zoomed"] == "true")
    body.send_keys("0")
    wait(d, lambda d: timeline(d)["zoomed"] == "false")
    browser.screenshot("22-timeline-zoom")


def test_two_finger_pinch_zooms_on_a_phone(server):
    with another_browser(width=390, height=844, touch=True) as phone:
        d = phone.driver
        d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.1")
        wait(d, lambda d: settled(d) and timeline(d)["frames"] > 40)
        scroll_into_view(d, "timeline")
        t = timeline(d)
        cx = client_x(t, t["plot"]["x"] + t["plot"]["width"] / 2)
        y = int(t["box"]["top"] + t["box"]["height"] / 2)
        pa = PointerInput(interaction.POINTER_TOUCH, "a")
        actions = ActionBuilder(d, mouse=pa)
        pb = actions.add_pointer_input(interaction.POINTER_TOUCH, "b")
        pa.create_pointer_move(x=int(cx - 20), y=y, origin="viewport")
        pb.create_pointer_move(x=int(cx + 20), y=y, origin="viewport")
        pa.create_pointer_down()
        pb.create_pointer_down()
        for step in range(1, 9):
            pa.create_pointer_move(x=int(cx - 20 - step * 15), y=y, origin="viewport", duration=16)
            pb.create_pointer_move(x=int(cx + 20 + step * 15), y=y, origin="viewport", duration=16)
        pa.create_pointer_up(0)
        pb.create_pointer_up(0)
        actions.perform()
        wait(d, lambda d: timeline(d)["zoomed"] == "true", message="spreading two fingers zoomed in")
        phone.screenshot("23-phone-pinch")


def test_speeds_from_a_tenth_to_four_times(server, browser):
    d = browser.driver
    d.get(server.url)
    wait(d, lambda d: state(d)["body"].get("load"))
    values = [float(o.get_attribute("value")) for o in d.find_elements(By.CSS_SELECTOR, "#speed option")]
    for wanted in [0.1, 0.25, 0.5, 1, 2, 4]:
        assert wanted in values
    Select(d.find_element(By.ID, "speed")).select_by_value("0.1")
    wait(d, lambda d: d.find_element(By.ID, "speed").get_attribute("value") == "0.1")
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys("]")
    wait(d, lambda d: d.find_element(By.ID, "speed").get_attribute("value") == "0.25")


def test_compare_draws_both_settings_and_their_decisions(server, device):
    d = device.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&p.threshold=0.9&t=0.1")
    wait(d, lambda d: settled(d) and timeline(d)["frames"] > 40)
    scroll_into_view(d, "compare")
    Select(d.find_element(By.ID, "compare")).select_by_value("defaults")
    box = d.find_element(By.ID, "compare-box")
    wait(d, lambda d: box.get_attribute("data-ready") == "true" and timeline(d)["compare"], message="the comparison is drawn")
    a = d.find_element(By.ID, "compare-a").text
    b = d.find_element(By.ID, "compare-b").text
    assert "best · threshold 0.9" in a and "best · defaults" in b
    assert box.get_attribute("data-decision-a") in ("finish", "cancel") and box.get_attribute("data-decision-b") in ("finish", "cancel")
    assert "cmp=defaults" in state(d)["hash"]
    scroll_into_view(d, "timeline")
    device.screenshot(f"24-compare-{device.name}")
    # Another preset.
    Select(d.find_element(By.ID, "compare")).select_by_value("swipe-back")
    wait(d, lambda d: box.get_attribute("data-ready") == "true" and "swipe-back" in d.find_element(By.ID, "compare-b").text)
    # A reload of the link keeps the comparison.
    d.refresh()
    wait(d, lambda d: d.find_element(By.ID, "compare-box").get_attribute("data-ready") == "true" and timeline(d)["compare"])


def test_the_filmstrip_shows_four_moments_and_a_click_seeks(server, device):
    d = device.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.05")
    wait(d, lambda d: settled(d) and d.find_element(By.ID, "filmstrip").get_attribute("data-count") == "4")
    moments = [b.get_attribute("data-moment") for b in d.find_elements(By.CSS_SELECTOR, "#filmstrip button")]
    assert moments == ["touch_down", "release", "mid_completion", "settle"]
    release = d.find_element(By.CSS_SELECTOR, '#filmstrip button[data-moment="release"]')
    scroll_into_view(d, "filmstrip")
    release.click()
    at = float(release.get_attribute("data-time"))
    wait(d, lambda d: (s := settled(d)) and abs(float(s["time"]) - at) < 1e-3, message="seeked to the release frame")
    device.screenshot(f"25-filmstrip-{device.name}")


def test_export_svg_and_png_and_a_link_that_reopens_the_view(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.2&cmp=defaults&z=0.1,0.6")
    wait(d, lambda d: settled(d) and timeline(d)["zoomed"] == "true")
    t = timeline(d)
    assert abs(t["from"] - 0.1) < 1e-3 and abs(t["to"] - 0.6) < 1e-3, "the link's zoom"
    text = d.execute_script("""
        const m = await import('/export.view.mjs');
        return m.standaloneSVG(document.getElementById('timeline'));""")
    assert text.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in text and 'stroke="' in text
    # What the page shows, the export shows: the θ labels keep their halo under the text
    # (paint-order), and the band above the chart carries a title and the legend shown (the
    # comparison drawn first: the link names one, and its series comes when the server answers).
    wait(d, lambda d: timeline(d)["compare"] and not d.find_element(By.CSS_SELECTOR, '#legend .key[data-key="compare"]').get_attribute("hidden"),
         message="the comparison is drawn and in the legend")
    captioned = d.execute_script("""
        const m = await import('/export.view.mjs');
        return m.standaloneSVG(document.getElementById('timeline'), {title: 'the title', legend: document.getElementById('legend')});""")
    labels = re.findall(r'<text[^>]*class="threshold-label[^"]*"[^>]*>', captioned)
    assert labels and all('paint-order="stroke' in t for t in labels), labels  # θ of A (and of B when it differs)
    assert ">the title</text>" in captioned
    legend = d.execute_script("return [...document.querySelectorAll('#legend .key')].filter((k) => !k.hidden).map((k) => k.textContent.trim())")
    assert "compared" in legend and all(f">{key}</text>" in captioned for key in legend), legend
    (ROOT / "build" / "screenshots").mkdir(parents=True, exist_ok=True)
    (ROOT / "build" / "screenshots" / "export.svg").write_text(captioned)
    d.find_element(By.ID, "export-svg").click()
    wait(d, lambda d: d.find_element(By.ID, "timeline").get_attribute("data-exported"))
    d.find_element(By.ID, "export-png").click()
    wait(d, lambda d: int(d.find_element(By.ID, "timeline").get_attribute("data-exported-png") or 0) > 1000, message="a PNG was drawn")
    d.find_element(By.ID, "copy-link").click()
    link = wait(d, lambda d: d.find_element(By.ID, "copy-link").get_attribute("data-link"))
    with another_browser() as other:
        o = other.driver
        o.get(link)
        wait(o, lambda o: settled(o) and timeline(o)["zoomed"] == "true" and timeline(o)["compare"], message="the link reopens the view")
        s = state(o)
        assert s["body"]["recording"] == EDGE_RECORDING and abs(float(s["time"]) - 0.2) < 0.02


def test_watch_only_pages_show_only_controls_they_can_use(server):
    with another_browser() as watcher:
        d = watcher.driver
        d.get(server.url.split("?")[0] + "#tab=tune")
        wait(d, lambda d: state(d)["seq"] and d.find_elements(By.CSS_SELECTOR, "#tune-axes input"))
        for selector in ["#tune-axes input", "#tune-axes select", "#tune-run", "#play", "#scrub", "#params input", "#recording"]:
            for el in d.find_elements(By.CSS_SELECTOR, selector):
                assert not el.is_enabled(), f"{selector} is enabled on a watch-only page"
        assert d.find_element(By.ID, "compare").is_enabled(), "comparing changes nothing on the server"
        assert all(not b.is_enabled() for b in d.find_elements(By.CSS_SELECTOR, "#filmstrip button"))
        d.execute_script("window.pantrace.store.showTab('record')")
        assert not d.find_element(By.ID, "pad").is_displayed(), "no record pad it cannot use"


@pytest.mark.parametrize("preset", ["swipe-back", "swipe-dismiss", "drawer", "circle-reveal", "best", "uikit-percent"])
def test_no_preset_makes_the_page_scroll_sideways_at_1280(server, browser, preset):
    d = browser.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset={preset}")
    wait(d, lambda d: state(d)["body"].get("preset") == preset and timeline(d)["frames"] > 10)
    width = d.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"{preset}: {width[0]} px of content in {width[1]} px"


def test_on_a_phone_the_stage_and_its_controls_fit_one_screen(server):
    with another_browser(width=390, height=844, touch=True) as phone:
        d = phone.driver
        d.get(server.url)
        wait(d, lambda d: state(d)["body"].get("load"))
        bottom = lambda element_id: d.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().bottom", element_id)
        assert bottom("play") <= 844 and bottom("decision") <= 844, "transport and decision in the first screen"
        d.find_element(By.ID, "tab-record").click()
        wait(d, lambda d: d.find_element(By.ID, "pad").is_displayed())
        assert bottom("record-status") <= 844, "the record status right under the pad"
        phone.screenshot("26-phone-record")


def test_a_tune_cell_replays_exactly_what_the_sweep_scored_and_shows_what_it_left_out(server, browser):
    """A swipe-down preset swept over every labelled recording leaves the edge swipes out (they
    do not drive it): the page lists each with its reason, and a cell replays only the scored ones."""
    d = browser.driver
    d.get(f"{server.url}#tab=tune")
    wait(d, lambda d: d.find_element(By.ID, "tune-run").is_enabled() and d.find_elements(By.CSS_SELECTOR, "#tune-axes .axis-from"))
    Select(d.find_element(By.ID, "tune-preset")).select_by_value("swipe-dismiss")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#tune-axes .axis-from"))
    d.find_element(By.ID, "tune-run").click()
    heatmap = d.find_element(By.ID, "heatmap")
    wait(d, lambda d: int(heatmap.get_attribute("data-cells") or 0) > 3, message="the sweep finished")
    excluded = d.find_element(By.ID, "tune-excluded")
    assert excluded.is_displayed()
    count = int(excluded.get_attribute("data-count"))
    assert count > 0
    d.find_element(By.ID, "tune-excluded-summary").click()
    items = d.find_elements(By.CSS_SELECTOR, "#tune-excluded-list li")
    assert len(items) == count and all(" — " in li.text for li in items), "each left out with its reason"
    assert any("edge-back" in li.text for li in items)
    # How far to trust the best point: the accuracy's interval, cross-validation, per source.
    findings = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#tune-findings li")]
    assert any("interval" in f for f in findings) and any("cross-validated" in f for f in findings), findings
    browser.screenshot("27-tune-excluded")
    # A cell that is not the best: its queue holds exactly the recordings the cell scored.
    cell = next(c for c in d.find_elements(By.CSS_SELECTOR, "#heatmap rect.cell") if "best" not in (c.get_attribute("class") or ""))
    scored = int(cell.find_element(By.TAG_NAME, "title").get_attribute("textContent").split(":")[1].split("correct")[0].strip().split("/")[1])
    cell.click()
    queue = d.find_element(By.ID, "tune-queue")
    wait(d, lambda d: queue.is_displayed() and f"/{scored} ·" in queue.text, message=f"{scored} recordings queued")
    # Stop: the queue redraws its buttons as it moves on, so the click is made in the page.
    d.execute_script("document.querySelector('#tune-queue button:last-of-type')?.click()")


def test_while_recording_the_page_follows_the_finger_and_never_decides_before_the_release(server, device):
    d = device.driver
    d.get(f"{server.url}#tab=record")
    pad = wait(d, lambda d: (p := d.find_element(By.ID, "pad")).is_displayed() and p)
    box = d.execute_script("const r = document.getElementById('pad').getBoundingClientRect(); return [r.left + r.width / 2, r.top, r.height]")
    x, top, height = box
    points = [(x, top + height * (0.2 + i * 0.02)) for i in range(30)]
    # The finger goes down and moves, and stays down while the page is checked. Touch through
    # the DevTools protocol's Input.dispatchTouchEvent (what WebDriver's touch actions use),
    # since WebDriver lifts a touch at the end of each action sequence.
    if device.touch:
        send = lambda kind, p: d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": p[0], "y": p[1]}] if p else []})
        send("touchStart", points[0])
        for p in points[1:]:
            send("touchMove", p)
        lift = lambda: send("touchEnd", None)
    else:
        mouse = lambda kind, p: d.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": p[0], "y": p[1], "button": "left", "buttons": 1, "clickCount": 1})
        mouse("mousePressed", points[0])
        for p in points[1:]:
            mouse("mouseMoved", p)
        lift = lambda: mouse("mouseReleased", points[-1])
    status = d.find_element(By.ID, "record-status")
    wait(d, lambda d: status.get_attribute("data-state") == "capturing")
    wait(d, lambda d: int(status.text.split(" samples")[0].split("· ")[-1]) > 5, message="the counter follows the finger")
    outcome = d.find_element(By.ID, "decision-outcome").text
    assert "if released now" in outcome, f"before the release the box says {outcome!r}"
    assert d.find_element(By.ID, "decision").get_attribute("data-outcome") == "pending"
    assert timeline(d)["frames"] > 5, "the timeline draws the gesture so far"
    device.screenshot(f"28-mid-drag-{device.name}")
    lift()
    wait(d, lambda d: status.get_attribute("data-state") == "released")
    wait(d, lambda d: d.find_element(By.ID, "decision").get_attribute("data-outcome") in ("finish", "cancel"))
    # Saving: the player, the menu and the address name the saved file, not the unsaved one.
    d.find_element(By.ID, "label-cancel").click()
    wait(d, lambda d: d.find_element(By.ID, "record-save").is_enabled())
    d.find_element(By.ID, "record-save").click()
    wait(d, lambda d: status.get_attribute("data-state") == "saved")
    saved = status.text.split("saved as ")[1].strip()
    wait(d, lambda d: state(d)["body"].get("recording") == saved, message="the player shows the saved file")
    wait(d, lambda d: f"recording={saved}" in state(d)["hash"])
    assert d.execute_script("return document.getElementById('recording').value") == saved
    assert "unsaved" not in d.find_element(By.ID, "stage-title").text


def test_a_first_time_user_sees_a_gesture_being_decided_that_fills_the_timeline(server, browser):
    d = browser.driver
    d.get(server.url)
    wait(d, lambda d: timeline(d)["frames"] > 40 and d.find_elements(By.ID, "chart-landing"))
    s = state(d)
    assert "edge-back" in s["body"]["recording"] and s["body"]["preset"] == "best"
    series = d.execute_script("return window.pantrace.store.series.whole")
    t = timeline(d)
    gesture = (series["release"] - series["touch_down"]) / (t["to"] - t["from"])
    assert gesture > 0.3, f"the gesture fills {gesture:.0%} of the timeline"
    assert d.find_element(By.ID, "decision").get_attribute("data-outcome") in ("finish", "cancel")


def test_sliders_step_visibly_mark_changes_at_once_and_agree_with_the_reason(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.1")
    wait(d, lambda d: settled(d) and d.find_elements(By.ID, "param-threshold"))
    load = int(state(d)["body"]["load"])
    slider = d.find_element(By.ID, "param-threshold")
    row = d.find_element(By.CSS_SELECTOR, '.param[data-key="threshold"]')
    assert "changed" not in row.get_attribute("class")
    slider.send_keys(Keys.ARROW_RIGHT)
    # Marked at once, before the server has answered (the reload waits 150 ms for the slider to rest).
    assert "changed" in d.find_element(By.CSS_SELECTOR, '.param[data-key="threshold"]').get_attribute("class")
    assert abs(float(slider.get_attribute("value")) - 0.51) < 1e-9, "an arrow key moves a hundredth of 0…1"
    wait(d, lambda d: int(state(d)["body"]["load"]) > load, message="re-decided")
    shown = d.find_element(By.CSS_SELECTOR, '.param[data-key="threshold"] output').text
    assert shown == "0.51"
    wait(d, lambda d: "0.51" in d.find_element(By.ID, "decision-reason").text, message="the reason prints the slider's value")


def test_the_legend_lists_projected_only_for_a_projection(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss")
    wait(d, lambda d: state(d)["body"].get("preset") == "swipe-dismiss" and timeline(d)["frames"] > 10)
    projected = d.find_element(By.CSS_SELECTOR, '#legend [data-key="projected"]')
    wait(d, lambda d: not projected.is_displayed())
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best")
    wait(d, lambda d: d.find_element(By.CSS_SELECTOR, '#legend [data-key="projected"]').is_displayed())
