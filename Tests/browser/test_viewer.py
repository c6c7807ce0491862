"""The viewer in a real Chromium against a real `pantrace serve`.

Every wait is on an explicit condition the page exposes (data attributes on the stage and the
body, element states); nothing sleeps. Screenshots of each step go to build/screenshots/.
"""
import os
import json
import shutil
import subprocess
import threading

import pytest
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from websockets.sync.client import connect

from conftest import BINARY, ROOT, Browser, start_server

RECORDING = "synthetic/swipe-down-60hz/synth-13-00000.pantrace"
EDGE_RECORDING = "synthetic/edge-back-60hz/synth-1-00000.pantrace"  # a left-edge pan: `best` projects it to 1.3
TIMEOUT = 20


class Watcher:
    """A second viewer on its own WebSocket (no token: watch only) keeping every frame by seq."""

    def __init__(self, server):
        self.ws = connect(server.ws(token=False), origin=server.origin, max_size=2**22).__enter__()
        self.hello = json.loads(self.ws.recv(timeout=5))
        self.frames = {}
        self.messages = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for text in self.ws:
                message = json.loads(text)
                with self.changed:
                    if message["type"] == "frame":
                        self.frames[message["seq"]] = message
                    else:
                        self.messages.append(message)
                    self.changed.notify_all()
        except Exception:  # the connection closed: the test is over or the server stopped
            pass

    def wait_for(self, predicate, timeout=TIMEOUT):
        with self.changed:
            if not self.changed.wait_for(predicate, timeout=timeout):
                raise AssertionError("the watcher did not see it in time")

    def follow(self, page):
        """Follows page `page` (protocol version 3): from now on it is sent what that page is."""
        self.ws.send(json.dumps({"type": "follow", "page": page}))
        self.wait_for(lambda: any(m["type"] == "following" and m.get("page") == page for m in self.messages))

    def frame(self, seq):
        self.wait_for(lambda: seq in self.frames)
        return self.frames[seq]

    def close(self):
        self.ws.close()
        self.thread.join(timeout=5)


@pytest.fixture
def watcher(server):
    w = Watcher(server)
    yield w
    w.close()


def wait(driver, condition, timeout=TIMEOUT, message=""):
    # A live list re-renders while a condition reads it: an element found and then replaced
    # before its attribute is read is looked up again at the next poll, not a failure.
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(
        lambda d: condition(d), message)


STATE_JS = """
const stage = document.getElementById('stage');
const r = stage.getBoundingClientRect();
return {
  seq: stage.dataset.seq, load: stage.dataset.load, time: stage.dataset.time, screen: stage.dataset.screen,
  stage: {x: r.x, y: r.y, width: r.width, height: r.height},
  layers: [...document.querySelectorAll('#layers .layer')].map((el) => {
    const b = el.getBoundingClientRect();
    return {role: el.dataset.role, x: b.x - r.x, y: b.y - r.y, width: b.width, height: b.height};
  }),
  body: {...document.body.dataset},
  hash: decodeURIComponent(location.hash),
};
"""


def state(driver):
    return driver.execute_script(STATE_JS)


def open_with_threshold(driver, url, threshold, tab=None):
    """Opens RECORDING under swipe-dismiss with its threshold slider at `threshold` (on `tab`),
    and waits until the page shows it."""
    prefix = f"tab={tab}&" if tab else ""
    driver.get(f"{url}#{prefix}recording={RECORDING}&preset=swipe-dismiss&p.threshold={threshold}")
    wait(driver, lambda d: f"p.threshold={threshold}" in state(d)["hash"] and state(d)["body"].get("load"),
         message=f"the threshold {threshold} is set")


def settled(driver):
    """The player is paused and the stage shows the frame at the playhead, or False."""
    s = state(driver)
    b = s["body"]
    if b.get("playing") != "false" or not s["seq"] or s["load"] != b.get("load"):
        return False
    return s if abs(float(s["time"]) - float(b["playhead"])) < 1e-6 else False


def presented(layer):
    """Layer.presentedFrame: the frame scaled about its centre, then translated."""
    f, scale, t = layer["frame"], layer["scale"], layer["translation"]
    w, h = f["width"] * scale, f["height"] * scale
    return (f["x"] + f["width"] / 2 + t["x"] - w / 2, f["y"] + f["height"] / 2 + t["y"] - h / 2, w, h)


def assert_layers_match(s, message):
    screen_w, screen_h = (float(v) for v in s["screen"].split("x"))
    k = s["stage"]["width"] / screen_w
    assert abs(s["stage"]["height"] - screen_h * k) < 1, "the stage has the screen's aspect"
    layers = message["frame"]["layers"]
    assert [l["role"] for l in s["layers"]] == [l["role"] for l in layers]
    for drawn, layer in zip(s["layers"], layers):
        x, y, w, h = (v * k for v in presented(layer))
        for got, want, what in [(drawn["x"], x, "x"), (drawn["y"], y, "y"), (drawn["width"], w, "width"), (drawn["height"], h, "height")]:
            assert abs(got - want) < 0.75, f"{layer['role']} {what}: drawn {got:.2f} px, the frame says {want:.2f} px"


def test_replay_draws_the_layers_of_the_frame_the_server_sent(server, browser, watcher):
    d = browser.driver
    # The address holds the view: this link loads the recording, seeks mid-gesture and pauses.
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.3")
    s = wait(d, lambda d: settled(d) and state(d)["body"]["load"] != "1" and settled(d), message="paused at t=0.3")
    assert abs(float(s["time"]) - 0.3) <= 2 / 60 + 1e-9
    assert f"recording={RECORDING}" in s["hash"] and "preset=swipe-dismiss" in s["hash"] and "t=0.3" in s["hash"]
    # The watcher follows this page: the frames it is sent from now on are the page's.
    watcher.follow(d.execute_script("return window.pantrace.store.page"))
    # The finger is drawn where the gesture is, and the timeline shows the release and the threshold.
    assert float(d.find_element(By.ID, "touch").get_attribute("r")) > 0
    wait(d, lambda d: d.find_elements(By.ID, "chart-release") and d.find_elements(By.ID, "chart-threshold"))
    assert d.execute_script("return document.getElementById('chart-threshold').dataset.value") == "0.5"
    browser.screenshot("01-replay-paused")

    # → steps one frame forward (the keyboard goes through the server too).
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    s2 = wait(d, lambda d: (x := settled(d)) and x["seq"] != s["seq"] and x)
    assert abs(float(s2["time"]) - float(s["time"]) - 1 / 60) < 1e-6
    message = watcher.frame(int(s2["seq"]))
    frame = message["frame"]
    assert message["recording"] == RECORDING
    assert frame["phase"] == "interactive" and 0.05 < frame["progress"] < 0.95, "mid-transition"
    assert next(l for l in frame["layers"] if l["role"] == "presented")["translation"]["y"] > 20
    assert_layers_match(s2, message)
    # Space plays; frames flow and the stage follows them.
    d.find_element(By.TAG_NAME, "body").send_keys(" ")
    wait(d, lambda d: state(d)["body"]["playing"] == "true")
    wait(d, lambda d: int(state(d)["seq"] or 0) > int(s2["seq"]) + 5)
    s3 = state(d)
    assert s3["load"] == s3["body"]["load"]


def test_a_projection_preset_shows_the_projected_landing_point_and_sliders_re_decide(server, browser, watcher):
    d = browser.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best")
    wait(d, lambda d: d.find_elements(By.ID, "chart-landing"), message="the load's series drew the landing point")
    load = int(state(d)["body"]["load"])
    watcher.follow(d.execute_script("return window.pantrace.store.page"))
    # Drawn from the whole replay sent with the load, before any release frame has played.
    watcher.wait_for(lambda: any(m["type"] == "series" and m["load"] == load for m in watcher.messages))
    series = next(m for m in watcher.messages if m["type"] == "series" and m["load"] == load)
    decision = series["series"]["release_report"]["decision"]
    assert decision["basis"] == "projection"
    # The chart is redrawn as frames come, so its values are read in one script.
    landing, threshold = d.execute_script(
        "return ['chart-landing', 'chart-threshold'].map((id) => Number(document.getElementById(id).dataset.value))")
    assert abs(landing - decision["statistic"]) < 1e-9
    assert threshold == decision["threshold"]
    browser.screenshot("02-replay-projection")

    # A slider re-decides live: the new value goes to the server in a load, and the page follows.
    slider = d.find_element(By.ID, "param-threshold")
    slider.send_keys(Keys.HOME)
    wait(d, lambda d: "p.threshold=0" in state(d)["hash"] and int(state(d)["body"]["load"]) > load, message="reloaded")
    wait(d, lambda d: d.execute_script("return document.getElementById('param-threshold').value") == "0")
    assert any(m["type"] == "playback" and m["parameters"].get("threshold") == 0 for m in watcher.messages)


def touch_drag(driver, element, start, end, steps=24):
    """A one-finger drag with W3C touch pointer actions; offsets from the element's centre."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger, duration=16)
    actions.pointer_action.move_to(element, *start).pointer_down()
    for i in range(1, steps + 1):
        u = i / steps
        e = u * u * (3 - 2 * u)
        actions.pointer_action.move_to(element, start[0] + (end[0] - start[0]) * e, start[1] + (end[1] - start[1]) * e)
    actions.pointer_action.pointer_up()
    actions.perform()


def test_recording_with_touch_labels_saves_and_appears_in_the_library(server, browser, watcher, tmp_path):
    d = browser.driver
    d.get(f"{server.url}#tab=record")
    pad = wait(d, lambda d: (p := d.find_element(By.ID, "pad")).is_displayed() and p)
    assert pad.value_of_css_property("touch-action") == "none"
    height = pad.size["height"]
    touch_drag(d, pad, (0, -height * 0.3), (10, height * 0.3))
    status = d.find_element(By.ID, "record-status")
    wait(d, lambda d: status.get_attribute("data-state") == "released", message="the pan was recognised and released")
    # The gesture was streamed as it happened: the watcher saw live preview frames (load −1).
    assert any(m["load"] == -1 for m in list(watcher.frames.values()))
    label = d.find_element(By.ID, "record-label")
    assert label.is_displayed()
    browser.screenshot("03-record-released")

    d.find_element(By.ID, "label-finish").click()
    wait(d, lambda d: d.find_element(By.ID, "label-finish").get_attribute("aria-pressed") == "true")
    d.find_element(By.ID, "record-name").send_keys("e2e touch")
    d.find_element(By.ID, "record-save").click()
    wait(d, lambda d: status.get_attribute("data-state") == "saved")
    saved_id = "live/e2e-touch-1.pantrace"
    assert saved_id in status.text
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'#library li[data-id="{saved_id}"]'))
    assert d.find_elements(By.CSS_SELECTOR, f'#recording option[value="{saved_id}"]')
    browser.screenshot("04-record-saved")

    path = server.recordings / saved_id
    assert path.is_file()
    assert not list((server.recordings / "live").glob("unsaved-*"))
    summary = json.loads(subprocess.run([str(BINARY), "inspect", "--json", str(path)], check=True,
                                        capture_output=True, text=True).stdout)
    assert summary["complete"] is True and summary["intent"] == "finish" and summary["source"] == "browser"
    assert summary["samples"] >= 5 and summary["screen"]["width"] == 390 and summary["screen"]["height"] == 844
    # Every connected viewer's library has it.
    watcher.wait_for(lambda: any(m["type"] == "library" and any(r["id"] == saved_id for r in m["recordings"]) for m in watcher.messages))


def test_tune_draws_the_heat_map_and_replays_what_a_point_misjudges(server, browser):
    d = browser.driver
    d.get(f"{server.url}#tab=tune")
    run = wait(d, lambda d: (b := d.find_element(By.ID, "tune-run")).is_enabled() and d.find_elements(By.CSS_SELECTOR, "#tune-axes .axis-from") and b)
    run.click()
    heatmap = d.find_element(By.ID, "heatmap")
    wait(d, lambda d: int(heatmap.get_attribute("data-cells") or 0) == 13, message="13 threshold cells (0.2:0.8:0.05)")
    assert len(d.find_elements(By.CSS_SELECTOR, "#tune-table tbody tr")) == 13
    best = d.find_element(By.CSS_SELECTOR, "#heatmap rect.cell.best")
    before = int(state(d)["body"]["load"])
    best.click()
    queue = d.find_element(By.ID, "tune-queue")
    wait(d, lambda d: queue.is_displayed())
    point_threshold = best.find_element(By.TAG_NAME, "title").get_attribute("textContent").split(":")[0].split("=")[1]
    if queue.get_attribute("data-state") == "running":
        wait(d, lambda d: int(state(d)["body"]["load"]) > before and f"p.threshold={point_threshold}" in state(d)["hash"])
    browser.screenshot("05-tune")


def test_a_restart_keeps_the_tab_in_control_on_its_view(library, browser):
    """`serve` run again on the same folder reuses its token (kept owner-only in the state
    folder): the open tab reconnects in control and reopens the view its address names."""
    server = start_server(library)
    try:
        d = browser.driver
        d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.1")
        connection = d.find_element(By.ID, "connection")
        wait(d, lambda d: connection.get_attribute("data-state") == "open" and state(d)["body"].get("recording") == RECORDING)
        port, token = server.port, server.token
        server.stop()
        wait(d, lambda d: connection.get_attribute("data-state") == "waiting", message="the page saw the server go")
        assert "offline" in connection.text
        browser.screenshot("06-server-down")
        server = start_server(library, port=port)
        assert server.token == token, "the restarted server reused the token"
        wait(d, lambda d: connection.get_attribute("data-state") == "open", message="reconnected")
        # (Frame numbers start again with the new server, so they are no sign of anything.)
        wait(d, lambda d: state(d)["body"]["canControl"] == "true", message="in control again")
        wait(d, lambda d: state(d)["body"].get("recording") == RECORDING and state(d)["body"].get("preset") == "swipe-dismiss",
             message="the view the address named is back")
        assert f"recording={RECORDING}" in state(d)["hash"]
        assert not d.find_element(By.ID, "access-banner").is_displayed()
        browser.screenshot("07-reconnected")
    finally:
        server.stop()
    # While the server was down, Chromium logs each refused WebSocket attempt as an error: the
    # only console errors this test accepts.
    browser.allowed_errors = ("WebSocket connection to",)


def test_a_restart_with_a_new_token_says_so_and_keeps_the_address(library, browser):
    server = start_server(library)
    try:
        d = browser.driver
        d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.1")
        connection = d.find_element(By.ID, "connection")
        wait(d, lambda d: state(d)["body"].get("recording") == RECORDING and state(d)["body"]["canControl"] == "true")
        port = server.port
        server.stop()
        wait(d, lambda d: connection.get_attribute("data-state") == "waiting")
        server = start_server(library, port=port, extra=("--new-token",))
        banner = d.find_element(By.ID, "access-banner")
        wait(d, lambda d: connection.get_attribute("data-state") == "open" and banner.is_displayed(), message="the banner says so")
        assert "refused this page's token" in banner.text
        assert state(d)["body"]["canControl"] == "false"
        hash_ = state(d)["hash"]
        assert f"recording={RECORDING}" in hash_ and "preset=swipe-dismiss" in hash_, f"the address was kept: {hash_}"
        browser.screenshot("07b-new-token")
    finally:
        server.stop()
    browser.allowed_errors = ("WebSocket connection to",)


def test_watch_only_without_the_token_and_readable_at_360_px(server):
    narrow = Browser(width=360, height=800)
    try:
        d = narrow.driver
        d.get(server.url.split("?")[0])
        wait(d, lambda d: state(d)["seq"] and d.find_element(By.ID, "access").is_displayed())
        assert state(d)["body"]["canControl"] == "false"
        assert not d.find_element(By.ID, "play").is_enabled()
        assert not d.find_element(By.ID, "recording").is_enabled()
        assert d.execute_script("return document.documentElement.scrollWidth") <= d.execute_script("return window.innerWidth")
        narrow.screenshot("08-watch-only-360px")
        errors = narrow.severe()
        assert not errors, errors
    finally:
        narrow.quit()


def test_readme_screenshot(server, browser):
    """The README screenshot is what a new user of `make serve` sees: the first view (a labelled
    edge swipe under `best`), its whole timeline, paused mid-completion (build/screenshots/09-readme.png;
    PANTRACE_UPDATE_SCREENSHOT=1 copies it to docs/viewer.png)."""
    d = browser.driver
    d.set_window_size(1200, 820)
    d.get(server.url)
    timeline = d.find_element(By.ID, "timeline")
    wait(d, lambda d: state(d)["body"].get("preset") == "best" and int(timeline.get_attribute("data-frames") or 0) > 40
         and d.find_elements(By.ID, "chart-landing"), message="the first view and its whole timeline")
    # Paused in the completion, as a person pressing space would stop it (filmstrip: mid-completion).
    d.find_element(By.CSS_SELECTOR, '#filmstrip button[data-moment="mid_completion"]').click()
    wait(d, lambda d: (s := settled(d)) and s["body"].get("playing") == "false")
    path = browser.screenshot("09-readme")
    assert path.stat().st_size <= 250_000, f"the README screenshot is {path.stat().st_size} bytes"
    # The committed copy is refreshed only on request, so `make test` never dirties the tree.
    if os.environ.get("PANTRACE_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(path, ROOT / "docs" / "viewer.png")


def test_tabs_speed_keys_the_pad_screen_and_the_preset_menu(server, browser):
    """The wiring between the tabs, the shared stage and the address (each view through the store)."""
    d = browser.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.3")
    s = wait(d, lambda d: settled(d) and state(d)["body"]["load"] != "1" and settled(d), message="paused at t=0.3")
    assert d.find_element(By.ID, "stage-title").text.endswith("· swipe-dismiss")
    speed = d.find_element(By.ID, "speed")
    body = d.find_element(By.TAG_NAME, "body")
    # ] and [ step through the speed menu's values, through the server.
    body.send_keys("]")
    wait(d, lambda d: speed.get_attribute("value") == "1.5")
    body.send_keys("[")
    body.send_keys("[")
    wait(d, lambda d: speed.get_attribute("value") == "0.5")
    s = wait(d, settled, message="still paused")

    # The Record tab keeps the replay on the stage while the pad's screen is the recording's size…
    d.find_element(By.ID, "tab-record").click()
    wait(d, lambda d: state(d)["body"].get("tab") == "record" and "tab=record" in state(d)["hash"])
    assert d.find_element(By.ID, "pad").is_displayed() and not d.find_element(By.ID, "panel-replay").is_displayed()
    assert state(d)["screen"] == "390x844" and state(d)["time"] == s["time"]
    # …and shows the empty pad for another screen, then the replay again.
    Select(d.find_element(By.ID, "record-screen")).select_by_value("ipad")
    wait(d, lambda d: state(d)["screen"] == "820x1180" and state(d)["seq"] == "")
    assert not d.find_elements(By.CSS_SELECTOR, "#layers .layer")
    Select(d.find_element(By.ID, "record-screen")).select_by_value("iphone")
    wait(d, lambda d: state(d)["screen"] == "390x844" and state(d)["seq"] and state(d)["time"] == s["time"])

    d.find_element(By.ID, "tab-tune").click()
    wait(d, lambda d: "tab=tune" in state(d)["hash"] and d.find_element(By.ID, "panel-tune").is_displayed())
    assert not d.find_element(By.ID, "pad").is_displayed()
    d.find_element(By.ID, "tab-replay").click()
    wait(d, lambda d: "tab=" not in state(d)["hash"] and d.find_element(By.ID, "panel-replay").is_displayed())

    # Another preset reloads the recording under it: the title, the summary line and the address follow.
    load = int(state(d)["body"]["load"])
    Select(d.find_element(By.ID, "preset")).select_by_value("best")
    wait(d, lambda d: int(state(d)["body"]["load"]) > load and "preset=best" in state(d)["hash"], message="reloaded under best")
    wait(d, lambda d: d.find_element(By.ID, "stage-title").text.endswith("· best"))
    assert d.find_element(By.ID, "preset-summary").text
    assert d.find_elements(By.ID, "param-threshold")


def test_shortcuts_go_to_the_player_whatever_control_has_focus(server, browser):
    """After a preset is chosen from its menu the menu keeps focus: → steps a frame (and
    pauses) instead of choosing the next preset; typing in a text field is left alone."""
    d = browser.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss")
    wait(d, lambda d: state(d)["body"].get("load") not in ("", None), message="loaded")
    menu = d.find_element(By.ID, "preset")
    Select(menu).select_by_value("swipe-back")
    wait(d, lambda d: d.find_element(By.ID, "stage-title").text.endswith("· swipe-back"), message="swipe-back loaded")
    menu.send_keys(Keys.ARROW_RIGHT)
    wait(d, lambda d: state(d)["body"].get("playing") == "false", message="→ stepped a frame and paused")
    assert menu.get_attribute("value") == "swipe-back"
    assert d.find_element(By.ID, "stage-title").text.endswith("· swipe-back")


def test_a_refused_token_gets_a_visible_banner_not_a_tooltip(server, browser):
    """An address whose token the server does not accept (a restart, an old link) shows a
    plain banner saying the page only watches; the page with the right token, or none, does not."""
    d = browser.driver
    d.get(server.url.split("?")[0] + "?token=" + "0" * 32)
    banner = d.find_element(By.ID, "access-banner")
    wait(d, lambda d: state(d)["seq"] and banner.is_displayed(), message="the banner shows")
    assert "refused this page's token" in banner.text
    assert state(d)["body"]["canControl"] == "false"
    browser.screenshot("10-token-refused")
    d.get(server.url)
    wait(d, lambda d: state(d)["body"].get("canControl") == "true")
    assert not d.find_element(By.ID, "access-banner").is_displayed()
