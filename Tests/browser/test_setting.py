"""The Replay tab's setting box, in a real Chromium: "open setting" shows the view's preset and
every parameter as the JSON `pantrace tune --save-setting` writes; a pasted setting opens on the
recording that plays (the sliders and the address follow), a broken one says what is wrong and
changes nothing; "copy setting" copies it (or, where the clipboard is refused, shows it)."""
import json

from selenium.webdriver.common.by import By

from test_accessibility import axe, describe
from test_viewer import RECORDING, state, wait


def test_a_setting_opens_on_the_recording_and_a_broken_one_says_why(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={RECORDING}&preset=swipe-dismiss&p.threshold=0.3")
    wait(d, lambda d: "p.threshold=0.3" in state(d)["hash"] and state(d)["body"].get("load"), message="the view plays")
    d.find_element(By.ID, "setting-open").click()
    box = d.find_element(By.ID, "setting-text")
    shown = json.loads(box.get_attribute("value"))
    assert shown["preset"] == "swipe-dismiss" and shown["parameters"]["threshold"] == 0.3
    assert "velocity" in shown["parameters"] and len(shown["parameters"]) > 3
    d.execute_script("document.getElementById('setting-form').scrollIntoView({block: 'center'})")
    browser.screenshot("80-setting-open")
    violations = axe(d, "document.getElementById('panel-replay')")
    assert not violations, describe(violations)

    # A broken setting: one line naming the field, and the view is left as it was.
    shown["parameters"]["threshold"] = 7
    box.clear()
    box.send_keys(json.dumps(shown))
    d.find_element(By.ID, "setting-apply").click()
    problem = d.find_element(By.ID, "setting-problem")
    assert problem.text.startswith("parameters.threshold: 7 is outside"), problem.text
    assert "p.threshold=0.3" in state(d)["hash"]

    # A good one opens on the same recording: the address and the sliders follow it.
    shown["parameters"]["threshold"] = 0.7
    box.clear()
    box.send_keys(json.dumps(shown))
    d.find_element(By.ID, "setting-apply").click()
    wait(d, lambda d: "p.threshold=0.7" in state(d)["hash"], message="the pasted setting opens")
    assert f"recording={RECORDING}" in state(d)["hash"]
    assert not d.find_element(By.ID, "setting-form").is_displayed()

    # Copy: to the clipboard, or shown in the box to copy by hand where the browser refuses.
    d.find_element(By.ID, "setting-copy").click()
    wait(d, lambda d: d.find_element(By.ID, "setting-form").get_attribute("data-copied")
         or d.find_element(By.ID, "setting-form").is_displayed(), message="the setting is copied or shown")
    copied = d.find_element(By.ID, "setting-form").get_attribute("data-copied") or d.find_element(By.ID, "setting-text").get_attribute("value")
    assert json.loads(copied)["parameters"]["threshold"] == 0.7
