"""A device streams a gesture into a real Chromium page, against a real `pantrace serve`: the
page chooses to watch it, sees the gesture on the stage through its own threshold as it
happens, then keeps it with a label (docs/PROTOCOL.md §4, docs/VIEWER.md "Devices")."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from websockets.sync.client import connect

from conftest import Browser
from test_accessibility import axe, describe
from test_viewer import RECORDING, open_with_threshold, state, wait


def answer(ws, kind):
    while True:
        m = json.loads(ws.recv(timeout=10))
        if m["type"] == kind:
            return m


def announce(ws):
    ws.send(json.dumps({"type": "source", "session": "browser-test-1", "name": "iPhone 15", "platform": "ios",
                        "screen": {"width": 390, "height": 844}, "scale": 3}))
    return answer(ws, "source_ready")


def pan_down(distance, steps=40, rest=10):
    """A slow pan down by `distance` points at 120 Hz that rests before it lifts, as UIKit's
    recognizer reports it (the same gesture as Tests/bridge/test_sources.py)."""
    samples = []
    for i in range(steps + rest + 2):
        ty = distance * min(i, steps) / steps
        state_ = "began" if i == 0 else ("ended" if i == steps + rest + 1 else "changed")
        samples.append({"seq": i + 1, "t": 100 + i / 120, "state": state_, "tx": 0.0, "ty": ty, "vx": 0.0,
                        "vy": distance / steps * 120 if 0 < i <= steps else 0.0})
    return samples


def send(ws, samples):
    ws.send(json.dumps({"type": "samples", "samples": samples}))
    return answer(ws, "ack")


def test_a_devices_live_gesture_is_on_the_stage_and_is_kept_with_a_label(server, browser):
    d = browser.driver
    d.get(f"{server.url}#tab=record&recording={RECORDING}&preset=swipe-dismiss&p.threshold=0.27")
    wait(d, lambda d: "p.threshold=0.27" in state(d)["hash"] and state(d)["body"].get("load"), message="the threshold is set")
    assert d.find_element(By.ID, "devices-empty").is_displayed()
    with connect(server.ws() + "&role=source") as device:
        ready = announce(device)
        row = wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'#devices li[data-source="{ready["source"]}"]'), message="listed")[0]
        assert "iPhone 15 (390×844 @3x)" in row.text and not d.find_element(By.ID, "devices-empty").is_displayed()
        header = d.find_element(By.ID, "device-live")
        assert header.text == "iPhone 15 (390×844 @3x) is connected"
        # The only device: the page watches it on its own; the person may stop, and watch again.
        pressed = lambda d: d.find_element(By.CSS_SELECTOR, "#devices li button").get_attribute("aria-pressed")
        wait(d, lambda d: pressed(d) == "true", message="the only device is watched on its own")
        d.find_element(By.CSS_SELECTOR, "#devices li button").click()
        wait(d, lambda d: pressed(d) == "false", message="the person stopped watching")
        d.find_element(By.CSS_SELECTOR, "#devices li button").click()
        wait(d, lambda d: pressed(d) == "true", message="and watches again")
        # By keyboard: the list is made anew at each press, and the focus stays on the device's
        # button (a new element), so a second press toggles it back.
        focused_source = "const a = document.activeElement; return a && a.matches('#devices li button') ? a.closest('li').dataset.source : null"
        d.execute_script("document.querySelector('#devices li button').focus()")
        d.switch_to.active_element.send_keys(Keys.SPACE)
        wait(d, lambda d: pressed(d) == "false", message="a key press stops watching")
        assert d.execute_script(focused_source) == str(ready["source"])
        d.execute_script("document.getElementById('devices').scrollIntoView({block: 'center'})")
        browser.screenshot("59-device-button-keeps-the-focus")
        d.switch_to.active_element.send_keys(Keys.ENTER)
        wait(d, lambda d: pressed(d) == "true", message="and the next watches again")
        assert d.execute_script(focused_source) == str(ready["source"])
        # Half the pan: the finger is still down, the stage shows it through this page's setting.
        samples = pan_down(0.38 * 422 + 10)
        send(device, samples[:30])
        wait(d, lambda d: header.text == "iPhone 15 (390×844 @3x) is live", message="the header says the device is live")
        wait(d, lambda d: "live" in d.find_element(By.ID, "stage-title").text, message="the stage shows the device")
        assert d.find_element(By.ID, "stage").get_attribute("data-screen") == "390x844"
        assert d.find_element(By.ID, "stage-phase").text == "interactive"
        browser.screenshot("60-device-live-on-the-stage")
        send(device, samples[30:])
        wait(d, lambda d: d.find_element(By.ID, "decision").get_attribute("data-outcome") == "finish",
             message="released and decided with this page's 0.27")
        assert "0.27" in d.find_element(By.ID, "decision-reason").text
        wait(d, lambda d: "recording=live/unsaved-ios-" in state(d)["hash"], message="the page's view replays the gesture")
    # The device left; its gesture waits, unsaved, to be kept.
    box = wait(d, lambda d: (b := d.find_element(By.ID, "device-gestures-box")).is_displayed() and b, message="unsaved listed")
    row = box.find_element(By.CSS_SELECTOR, "#device-gestures li").text
    assert "iPhone 15" in row and "finish with this page's setting" in row, row
    item = box.find_element(By.CSS_SELECTOR, "#device-gestures li input[type=checkbox]")
    item.click()
    Select(d.find_element(By.ID, "device-intent")).select_by_value("finish")
    d.find_element(By.ID, "device-name").send_keys("edge")
    keep = d.find_element(By.ID, "device-keep")
    assert keep.text == "keep 1"
    browser.screenshot("61-device-gesture-to-keep")
    # The devices panel with a device listed and a gesture to keep meets WCAG 2.2 AA too.
    d.execute_script("window.scrollTo(0, 0)")
    violations = axe(d, "document.getElementById('panel-record')")
    assert not violations, describe(violations)
    keep.click()
    wait(d, lambda d: not d.find_element(By.ID, "device-gestures-box").is_displayed(), message="nothing left unsaved")
    saved = server.recordings / "live" / "edge-1.pantrace"
    assert saved.exists()
    entries = d.execute_script("return window.pantrace.store.library.map((r) => [r.id, r.intent])")
    assert ["live/edge-1.pantrace", "finish"] in entries
    # The page's view moves from the unsaved file to the kept one, keeping its threshold.
    wait(d, lambda d: "recording=live/edge-1.pantrace" in state(d)["hash"], message="the view shows the kept file")
    assert "p.threshold=0.27" in state(d)["hash"]
    assert d.find_element(By.ID, "stage-title").text.startswith("edge-1")
    assert not d.find_element(By.ID, "device-live").is_displayed(), "a gone device with nothing unsaved is no longer listed"
    browser.screenshot("62-device-gesture-kept")


def test_two_pages_watching_one_device_each_decide_with_their_own_threshold(server, browser):
    """One device, two pages (θ 0.27 and θ 0.5), both watching it on their own (it is the only
    source): each decision box says its own setting's decision, live and after the release."""
    from conftest import another_browser
    d = browser.driver
    open_with_threshold(d, server.url, 0.27)
    with another_browser() as other:
        e = other.driver
        open_with_threshold(e, server.url, 0.5)
        with connect(server.ws() + "&role=source") as device:
            announce(device)
            for page in (d, e):
                wait(page, lambda p: p.execute_script("return window.pantrace.store.watching") is not None, message="watched on its own")
            samples = pan_down(0.38 * 422 + 10)
            send(device, samples[:30])
            wait(d, lambda d: d.find_element(By.ID, "decision-outcome").text.startswith("would finish"), message="A: finish if lifted now")
            wait(e, lambda e: e.find_element(By.ID, "decision-outcome").text.startswith("would cancel"), message="B: cancel if lifted now")
            # The values beside the stage follow the live gesture as they follow a replay.
            wait(e, lambda e: e.find_element(By.ID, "readout").is_displayed()
                 and e.find_elements(By.CSS_SELECTOR, "#readout .readout-cell"), message="the readout shows the live gesture's values")
            other.screenshot("63-device-live-decided-with-this-pages-threshold")
            send(device, samples[30:])
            wait(d, lambda d: d.find_element(By.ID, "decision").get_attribute("data-outcome") == "finish", message="A decides finish")
            wait(e, lambda e: e.find_element(By.ID, "decision").get_attribute("data-outcome") == "cancel", message="B decides cancel")
            assert "0.5" in e.find_element(By.ID, "decision-reason").text


def test_the_devices_list_is_reached_from_the_header_without_scrolling(server, device):
    """On a desktop and on a 390 × 844 phone: a device connects, the header says so, and one tap
    on that line shows the devices list itself (on the phone it is below the pad and the stage),
    with the device there to watch; the panel meets WCAG 2.2 AA."""
    d = device.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss")
    wait(d, lambda d: state(d)["body"].get("load"), message="loaded")
    with connect(server.ws() + "&role=source") as source:
        announce(source)
        header = wait(d, lambda d: (h := d.find_element(By.ID, "device-live")).is_displayed() and h, message="the header names the device")
        header.click()
        in_view = """const r = document.getElementById('devices').getBoundingClientRect();
                     return r.top >= 0 && r.top < window.innerHeight && r.height > 0;"""
        wait(d, lambda d: d.execute_script(in_view), message="the devices list is on screen")
        assert "iPhone 15" in d.find_element(By.ID, "devices").text
        device.screenshot(f"64-devices-list-from-the-header-{'phone' if device.touch else 'desktop'}")
        violations = axe(d, "document.getElementById('panel-record')")
        assert not violations, describe(violations)


def test_a_device_whose_screen_is_not_the_pads_is_drawn_on_the_record_tabs_stage(server, browser):
    """A 411 × 914 device while the Record tab's pad is 390 × 844: the stage shows the device's
    gesture at the device's size as it happens, not a blank pad."""
    d = browser.driver
    d.get(f"{server.url}#tab=record&recording={RECORDING}&preset=swipe-dismiss")
    wait(d, lambda d: state(d)["body"].get("load"), message="loaded")
    with connect(server.ws() + "&role=source") as source:
        source.send(json.dumps({"type": "source", "session": "browser-test-pixel", "name": "Pixel 8", "platform": "android",
                                "screen": {"width": 411, "height": 914}, "scale": 2.625}))
        answer(source, "source_ready")
        wait(d, lambda d: d.execute_script("return window.pantrace.store.watching") is not None, message="watched on its own")
        send(source, pan_down(200)[:30])
        wait(d, lambda d: d.find_element(By.ID, "stage").get_attribute("data-screen") == "411x914", message="the stage is the device's size")
        wait(d, lambda d: "live" in d.find_element(By.ID, "stage-title").text, message="the stage says it shows the device")
        layers = d.execute_script("return document.querySelectorAll('#stage [data-role]').length")
        assert layers > 0, "the device's gesture is drawn"
        browser.screenshot("65-record-tab-device-of-another-size")


def test_a_device_gesture_made_before_the_page_opened_shows_its_decision_once_replayed(server, browser):
    # The gesture is made and the device gone before this page exists: nothing watched it.
    with connect(server.ws() + "&role=source") as device:
        device.send(json.dumps({"type": "source", "session": "browser-test-unwatched", "name": "Pixel 8", "platform": "android",
                                "screen": {"width": 411, "height": 914}, "scale": 2.625}))
        answer(device, "source_ready")
        send(device, pan_down(0.38 * 422 + 10))
    # The row's label, read in one script call (the list is redrawn whenever the library or a
    # decision changes, so an element found earlier may be gone).
    label = lambda d: d.execute_script(
        "const li = [...document.querySelectorAll('#device-gestures li')].find((li) => li.textContent.includes('Pixel 8'));"
        "return li ? li.querySelector('label').textContent.trim() : null")
    d = browser.driver
    d.get(f"{server.url}#tab=record&recording={RECORDING}&preset=swipe-dismiss&p.threshold=0.27")
    wait(d, lambda d: "p.threshold=0.27" in state(d)["hash"] and state(d)["body"].get("load"), message="the threshold is set")
    wait(d, lambda d: label(d) == "Pixel 8 · 52 samples · 0.42 s · replay it to see this page's decision",
         message="unsaved, listed with how to see its decision")
    d.execute_script("[...document.querySelectorAll('#device-gestures li')].find((li) => li.textContent.includes('Pixel 8')).querySelector('button').click()")
    wait(d, lambda d: "with this page's setting" in (label(d) or ""), message="replayed with this page's setting: its decision listed")
    outcome = d.find_element(By.ID, "decision").get_attribute("data-outcome")
    assert label(d) == f"Pixel 8 · 52 samples · 0.42 s · {outcome} with this page's setting", label(d)
    assert "p.threshold=0.27" in state(d)["hash"], "replayed with the page's own setting"
    d.find_element(By.ID, "device-gestures-box").location_once_scrolled_into_view
    browser.screenshot("66-device-gesture-decided-once-replayed")
    # A page without the token, on a phone: the other page's replay is not its decision, and it
    # is not told to replay what it cannot.
    watcher = Browser(width=390, height=844, touch=True)
    try:
        w = watcher.driver
        w.get(server.url.split("?")[0] + "#tab=record")
        wait(w, lambda w: state(w)["body"].get("canControl") == "false" and label(w) == "Pixel 8 · 52 samples · 0.42 s",
             message="the watch-only page lists the gesture, with no decision and no hint it cannot follow")
        w.find_element(By.ID, "device-gestures-box").location_once_scrolled_into_view
        watcher.screenshot("67-device-gesture-on-a-watch-only-phone")
    finally:
        watcher.quit()
