"""A corpus file (`.pantraces`) in the recordings folder, in a real Chromium: the recording menu
lists its gestures under the corpus, one loads and replays (from the menu and from a link), the
listing limit is said on the page, and the page has no WCAG A/AA violation."""
import shutil

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ROOT, bridge, start_server
from test_accessibility import axe, describe
from test_viewer import settled, state, wait

CORPUS = "sets/c.pantraces"


def test_the_menu_lists_a_corpuss_gestures_and_one_replays(tmp_path, browser):
    recordings = tmp_path / "recordings"
    shutil.copytree(ROOT / "recordings", recordings, ignore=shutil.ignore_patterns("*.md", "*.sh", "live"))
    (recordings / "sets").mkdir()
    bridge.synth(recordings / CORPUS, "--count", "4", "--seed", "31", "--kind", "swipe-down")
    server = start_server(recordings, extra=("--max-corpus-gestures", "3"))
    try:
        d = browser.driver
        d.get(server.url)
        ids = [f"{CORPUS}#synth-31-{i:05d}" for i in range(3)]
        listed = lambda d: [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, f'#recording optgroup[label="{CORPUS}"] option')]
        wait(d, lambda d: listed(d) == ids, message="the corpus's first three gestures, under the corpus")
        notice = d.find_element(By.ID, "library-notice")
        assert notice.is_displayed()
        assert CORPUS in notice.text and "first 3" in notice.text and "--max-corpus-gestures" in notice.text, notice.text

        # From the menu: the gesture loads and its frames arrive.
        Select(d.find_element(By.ID, "recording")).select_by_value(ids[2])
        wait(d, lambda d: f"recording={ids[2]}" in state(d)["hash"], message="the address names the corpus gesture")
        first = state(d)["seq"]
        wait(d, lambda d: state(d)["seq"] and state(d)["seq"] != first, message="frames of the corpus gesture arrive")
        assert d.find_element(By.ID, "recording").get_attribute("value") == ids[2]

        # From a link (the "#" of the id escaped in the address): paused at t = 0.3, drawn.
        d.get(f"{server.url}#recording={ids[1].replace('#', '%23')}&preset=swipe-dismiss&t=0.3")
        wait(d, lambda d: settled(d) and f"recording={ids[1]}" in state(d)["hash"], message="the linked corpus gesture is paused at t = 0.3")
        browser.screenshot("corpus-library")
        d.execute_script("window.scrollTo(0, 0)")
        violations = axe(d)
        assert not violations, f"axe-core, corpus library:\n{describe(violations)}"
    finally:
        server.stop()
    assert "warning: sets/c.pantraces: a corpus of more than 3 gestures" in server.stderr(), server.stderr()
