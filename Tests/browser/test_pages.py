"""Every page is its own view, in a real Chromium against a real `pantrace serve`: two pages
side by side on two recordings, and the loop the tool exists for — set a threshold, make a
gesture on the pad, see whether that threshold gets it right — on both sides of it."""
import pytest
from selenium.webdriver.common.by import By

from conftest import another_browser
from test_viewer import EDGE_RECORDING, RECORDING, open_with_threshold, settled, state, touch_drag, wait


def test_two_pages_side_by_side_show_different_recordings(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.3")
    a = wait(d, lambda d: settled(d), message="page A paused on its recording")
    with another_browser() as other:
        e = other.driver
        e.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&t=0.2")
        b = wait(e, lambda e: settled(e), message="page B paused on another recording")
        assert f"recording={EDGE_RECORDING}" in b["hash"] and f"recording={RECORDING}" in a["hash"]
        # B plays: A stays paused where it was, on its own recording.
        e.find_element(By.TAG_NAME, "body").send_keys(" ")
        wait(e, lambda e: state(e)["body"]["playing"] == "true")
        wait(e, lambda e: int(state(e)["seq"] or 0) > int(b["seq"]) + 10, message="B's frames flow")
        now = state(d)
        assert now["seq"] == a["seq"] and now["body"]["playing"] == "false" and now["time"] == a["time"]
        assert d.find_element(By.ID, "stage-title").text.startswith("synth-13-00000")
        assert e.find_element(By.ID, "stage-title").text.startswith("synth-1-00000")
        browser.screenshot("40-page-a-own-view")
        other.screenshot("41-page-b-own-view")


@pytest.mark.parametrize("threshold, outcome", [(0.27, "finish"), (0.5, "cancel")])
def test_tune_record_check_decides_with_the_threshold_just_set(server, browser, threshold, outcome):
    """swipe-dismiss with the threshold slider at 0.27 (or 0.5): a drag on the pad to about
    0.38 of H/2 is decided with it, the stage says so, and the saved view keeps the threshold."""
    d = browser.driver
    d.get(f"{server.url}#tab=record&recording={RECORDING}&preset=swipe-dismiss&p.threshold={threshold}")
    wait(d, lambda d: f"p.threshold={threshold}" in state(d)["hash"] and state(d)["body"].get("load"), message="the threshold is set")
    pad = wait(d, lambda d: (p := d.find_element(By.ID, "pad")).is_displayed() and p)
    height = pad.size["height"]
    distance = (0.38 * 422 + 10) / 844 * height  # points of the 390×844 pad, in CSS pixels
    touch_drag(d, pad, (0, -height * 0.35), (0, -height * 0.35 + distance))
    status = d.find_element(By.ID, "record-status")
    wait(d, lambda d: status.get_attribute("data-state") == "released", message="released")
    wait(d, lambda d: d.find_element(By.ID, "decision").get_attribute("data-outcome") == outcome,
         message=f"decided {outcome} with threshold {threshold}")
    reason = d.find_element(By.ID, "decision-reason").text
    assert str(threshold) in reason, reason
    browser.screenshot(f"42-record-decided-{outcome}")
    d.find_element(By.ID, f"label-{outcome}").click()
    d.find_element(By.ID, "record-name").send_keys(f"at {threshold}")
    d.find_element(By.ID, "record-save").click()
    wait(d, lambda d: status.get_attribute("data-state") == "saved")
    wait(d, lambda d: "recording=live/at-" in state(d)["hash"], message="the address names the saved file")
    assert f"p.threshold={threshold}" in state(d)["hash"], "the saved view keeps the threshold"


def test_two_pages_decide_one_pad_gesture_each_with_its_own_threshold(server, browser):
    """Page A records with θ 0.27 while page B watches with θ 0.5: B's decision box, during the
    gesture and after its release, is B's own setting's (cancel), never A's (finish)."""
    d = browser.driver
    open_with_threshold(d, server.url, 0.27, tab="record")
    with another_browser() as other:
        e = other.driver
        open_with_threshold(e, server.url, 0.5)
        pad = wait(d, lambda d: (p := d.find_element(By.ID, "pad")).is_displayed() and p)
        height = pad.size["height"]
        distance = (0.38 * 422 + 10) / 844 * height
        touch_drag(d, pad, (0, -height * 0.35), (0, -height * 0.35 + distance))
        wait(d, lambda d: d.find_element(By.ID, "record-status").get_attribute("data-state") == "released", message="released")
        wait(d, lambda d: d.find_element(By.ID, "decision").get_attribute("data-outcome") == "finish", message="A decides finish with 0.27")
        wait(e, lambda e: e.find_element(By.ID, "decision").get_attribute("data-outcome") == "cancel", message="B decides cancel with 0.5")
        assert "0.5" in e.find_element(By.ID, "decision-reason").text
        assert "0.27" in d.find_element(By.ID, "decision-reason").text
        other.screenshot("43-another-page-decides-the-pad-gesture-with-its-own-threshold")


def test_another_pages_stage_leaves_its_replay_when_a_press_arms_the_pad(server, browser):
    """Page A presses the record pad and holds still; page B, paused on its replay at 0.3 s on
    the Replay tab, shows the pad's stage ("live recording") and not its replay's last frame
    with that frame's clock."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    d = browser.driver
    d.get(f"{server.url}#tab=record")
    pad = wait(d, lambda d: (p := d.find_element(By.ID, "pad")).is_displayed() and p)
    with another_browser() as other:
        e = other.driver
        e.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&t=0.3")
        before = wait(e, lambda e: settled(e), message="page B paused on its replay")
        assert before["time"] and abs(float(before["time"]) - 0.3) < 0.01
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        press = ActionBuilder(d, mouse=finger, duration=16)
        press.pointer_action.move_to(pad, 0, 0).pointer_down()
        press.perform()
        wait(e, lambda e: e.find_element(By.ID, "stage-title").text.startswith("live recording"), message="B's stage is the pad's")
        wait(e, lambda e: state(e)["time"] in ("", None) or abs(float(state(e)["time"]) - 0.3) > 1e-6,
             message="B's stage no longer shows its replay's frame and clock")
        assert not e.find_element(By.ID, "stage-phase").is_displayed(), "no phase of the replay's frame on the pad's stage"
        other.screenshot("44-another-page-while-the-pad-is-pressed")
        release = ActionBuilder(d, mouse=finger, duration=16)
        release.pointer_action.pointer_up()
        release.perform()
