"""The Replay tab's "On a sheet", in a real Chromium: the recording that plays, replayed as a
drag of a three-detent sheet through one sheet library and another beside it. Each phone's
sheet follows the finger, then settles as its library animates it; the verdict under it names
the detent, why, and how it moves. By mouse and keyboard on a desktop and by touch on a phone;
reduced motion shows the sheets at rest; axe-core checks the section."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import emulate_media
from test_accessibility import axe, describe
from test_viewer import wait

# An upward fling recorded on an Android phone: from peek, each library has its own idea.
RECORDING = "real/android-sailfish-SailfishFlingUpFast1-1.pantrace"
DETENTS = {"full": 0, "half": 1, "peek": 2}


def figure(d, side):
    return d.execute_script(f"""const f = document.getElementById('sheet-phone-{side}');
        return {{ready: f.dataset.ready, detent: f.dataset.detent, top: Number(f.dataset.top), hidden: f.hidden,
                 text: document.getElementById('sheet-text-{side}').innerText}}""")


def detent_top(d, detent):
    """Where a settled sheet rests on the recording's screen: its detent's line, or the bottom."""
    return d.execute_script("""const s = window.pantrace.sheets.setting;
        return arguments[0] === 'dismissed' ? s.screen.height : s.sheet.detents[Number(arguments[0])]""", detent)


def open_sheets(d, url):
    d.get(f"{url}#recording={RECORDING}&preset=swipe-dismiss")
    wait(d, lambda d: d.execute_script("return window.pantrace.store.playback?.recording") == RECORDING, message="the recording plays")
    Select(d.find_element(By.ID, "sheet-a")).select_by_value("gorhom")
    Select(d.find_element(By.ID, "sheet-b")).select_by_value("vaul")
    wait(d, lambda d: figure(d, "a")["ready"] == "true" and figure(d, "b")["ready"] == "true", timeout=15, message="both sheets replayed")


def test_two_libraries_settle_one_gesture_side_by_side_each_saying_where_why_and_how(server, device):
    d = device.driver
    open_sheets(d, server.url)
    a, b = figure(d, "a"), figure(d, "b")
    assert a["text"].startswith("gorhom settles at ") and "from peek" in a["text"], a["text"]
    assert b["text"].startswith("vaul settles at "), b["text"]
    assert "why: " in a["text"] and "moves: Reanimated withSpring" in a["text"], a["text"]
    assert "moves: CSS transition 0.5 s" in b["text"], b["text"]
    # At rest before anyone plays it (the time starts at the end of nothing played): scrub to 0,
    # the sheet is at the gesture's first sample, near peek.
    scrub = d.find_element(By.ID, "sheet-time")
    d.execute_script("arguments[0].value = '0'; arguments[0].dispatchEvent(new Event('input'))", scrub)
    start = figure(d, "a")["top"]
    assert abs(start - detent_top(d, 2)) < 60, start
    # Play: both move, and each comes to rest on the detent its verdict names.
    d.find_element(By.ID, "sheet-play").click()
    wait(d, lambda d: d.find_element(By.ID, "sheet-play").get_attribute("aria-pressed") == "false"
         and abs(figure(d, "a")["top"] - detent_top(d, figure(d, "a")["detent"])) < 1e-6
         and abs(figure(d, "b")["top"] - detent_top(d, figure(d, "b")["detent"])) < 1e-6, message="both sheets settle")
    d.execute_script("document.getElementById('sheets').scrollIntoView({block: 'center'})")
    device.screenshot(f"75-sheets-side-by-side-{device.name}")
    # Mid-way through the scrub the sheet is between where it started and where it rests.
    d.execute_script("arguments[0].value = String(Number(arguments[0].max) * 0.5); arguments[0].dispatchEvent(new Event('input'))", scrub)
    middle = figure(d, "a")["top"]
    assert min(start, detent_top(d, figure(d, "a")["detent"])) - 1 <= middle <= max(start, detent_top(d, figure(d, "a")["detent"])) + 1
    # By keyboard: the play button takes Space.
    d.find_element(By.ID, "sheet-play").send_keys(Keys.SPACE)
    wait(d, lambda d: d.find_element(By.ID, "sheet-play").get_attribute("aria-pressed") == "false"
         and float(d.find_element(By.ID, "sheet-time").get_attribute("value")) > 0, message="space plays the sheets")
    # Another start is another replay: from full, the same upward fling cannot go higher.
    Select(d.find_element(By.ID, "sheet-start")).select_by_value("full")
    wait(d, lambda d: figure(d, "a")["ready"] == "true" and "from full" in figure(d, "a")["text"], timeout=15, message="replayed from full")
    # Turning the sheet off hides both phones and asks nothing more.
    Select(d.find_element(By.ID, "sheet-a")).select_by_value("")
    assert not d.find_element(By.ID, "sheet-pair").is_displayed()
    violations = axe(d)
    assert not violations, describe(violations)


def test_under_reduced_motion_play_shows_the_sheets_at_rest(server, browser):
    d = browser.driver
    emulate_media(d, prefers_reduced_motion="reduce")
    open_sheets(d, server.url)
    scrub = d.find_element(By.ID, "sheet-time")
    d.execute_script("arguments[0].value = '0'; arguments[0].dispatchEvent(new Event('input'))", scrub)
    d.find_element(By.ID, "sheet-play").click()
    # No animation: at rest on the chosen detents at once.
    a = figure(d, "a")
    assert abs(a["top"] - detent_top(d, a["detent"])) < 1e-6
    assert d.find_element(By.ID, "sheet-play").get_attribute("aria-pressed") == "false"
    violations = axe(d, "document.getElementById('sheets')")
    assert not violations, describe(violations)
