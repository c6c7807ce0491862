"""A library of any size arrives whole, in a real Chromium: two corpus files, of 2,000 and of
20,000 gestures, beside the bundled recordings. The page asks for the library a page at a time
at the server's pace (five a second), so every listed recording reaches the recording menu, the
Record tab's list and Tune's list; the bundled recordings come before the corpora in the menu;
the notices say how much of each corpus is listed; and nothing is still "loading" at the end.
"""
import shutil

from selenium.webdriver.common.by import By

from conftest import ROOT, bridge, start_server
from test_viewer import wait


def bundled_labelled(d):
    """The labelled recordings outside the corpora, by Tune's list."""
    return d.execute_script(
        "return [...document.querySelectorAll('#tune-recordings label.item')].filter((l) => !l.dataset.folder.endsWith('.pantraces'))")


def test_a_library_with_large_corpora_arrives_whole_with_the_bundled_recordings_first(tmp_path, browser):
    recordings = tmp_path / "recordings"
    shutil.copytree(ROOT / "recordings", recordings, ignore=shutil.ignore_patterns("*.md", "*.sh", "live"))
    bundled = sorted(str(p.relative_to(recordings)) for p in recordings.rglob("*.pantrace"))
    (recordings / "sets").mkdir()
    bridge.synth(recordings / "sets/a.pantraces", "--count", "2000", "--seed", "41", "--kind", "swipe-down")
    bridge.synth(recordings / "sets/b.pantraces", "--count", "20000", "--seed", "42", "--kind", "swipe-down")
    server = start_server(recordings)
    try:
        d = browser.driver
        d.get(server.url)
        total = len(bundled) + 2 * 1000  # each corpus listed up to --max-corpus-gestures (1,000)
        # Eleven library pages of 200 at five a second: a few seconds.
        wait(d, lambda d: d.execute_script("return document.body.dataset.libraryListed") == str(total), timeout=60,
             message=f"all {total} recordings listed")
        options = d.execute_script("return [...document.querySelectorAll('#recording option')].map((o) => o.value)")
        assert len(options) == total and len(set(options)) == total
        groups = d.execute_script("return [...document.querySelectorAll('#recording optgroup')].map((g) => g.label)")
        assert groups[-2:] == ["sets/a.pantraces", "sets/b.pantraces"], groups  # the corpora after the rest
        assert set(bundled) <= set(options[:len(bundled)]), "the bundled recordings come first"
        notice = d.find_element(By.ID, "library-notice").text
        assert "loading library" not in notice, notice
        assert "sets/a.pantraces" in notice and "sets/b.pantraces" in notice, notice
        # The Record tab's list and Tune's list hold every one too (Tune: those labelled finish or cancel).
        assert d.find_element(By.ID, "library").get_attribute("data-count") == str(total)
        boxes = d.execute_script("return document.querySelectorAll('#tune-recordings input.item-box').length")
        assert boxes > 2000, boxes  # every corpus gesture is labelled; the bundled ones mostly
        assert d.find_element(By.ID, "tune-recordings-summary").get_attribute("textContent") == f"recordings: all {boxes} labelled"
        # Tune's list by folder: one box clears a corpus, the filter narrows what all and none do.
        d.find_element(By.ID, "tab-tune").click()
        d.execute_script("document.querySelector('.tune-recordings').open = true")
        in_b = d.execute_script("return document.querySelectorAll('#tune-recordings label.item[data-folder=\"sets/b.pantraces\"]').length")
        d.find_element(By.CSS_SELECTOR, '#tune-recordings input.folder-box[data-folder="sets/b.pantraces"]').click()
        summary = lambda d: d.find_element(By.ID, "tune-recordings-summary").get_attribute("textContent")
        wait(d, lambda d: summary(d) == f"recordings: {boxes - in_b} of {boxes}", message=f"sets/b cleared: {summary(d)}")
        d.find_element(By.ID, "tune-filter").send_keys("sets/a.pantraces")
        d.find_element(By.ID, "tune-none").click()
        rest = len(bundled_labelled(d))
        wait(d, lambda d: summary(d) == f"recordings: {rest} of {boxes}", message=f"sets/a cleared too, the rest ticked: {summary(d)}")
        browser.screenshot("tune-list-by-folder")
        browser.screenshot("library-two-corpora")
    finally:
        server.stop()
    log = server.stderr()
    assert "sets/b.pantraces" in log, log
