"""Accessibility of the viewer in a real Chromium against a real `pantrace serve`.

- axe-core (the copy of axe.min.js that the pinned selenium-axe-python ships, injected into
  the page) scans each tab (Replay, Replay comparing, Record with a gesture waiting for its
  label, Tune, Tune after a sweep, a watch-only page) in the light and the dark colour scheme
  (emulated with Emulation.setEmulatedMedia), at 1280 × 900 and on a 390 × 844 touch phone,
  with the WCAG 2.0, 2.1 and 2.2 A and AA rules (AXE_TAGS): no violation allowed.
- The SVG charts' text (timeline labels, heat map ticks and cell labels), which axe-core does
  not measure (SVG text is coloured by `fill`, not `color`), is measured here: 4.5:1 against
  what is behind it.
- The keyboard: Tab reaches every control in reading order, each with an accessible name and
  a visible focus ring.
- Sliders say their value in their unit (`aria-valuetext`), a log slider too.
- `prefers-reduced-motion: reduce`: no transitions or animations, and the replay waits paused
  at the release frame instead of playing in a loop (docs/VIEWER.md, Accessibility).

Screenshots of each scan go to build/screenshots/a11y-*.png.
"""
import importlib.resources
import json

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import DEVICES, Browser, _checked, emulate_media
from test_timeline import drag, scroll_into_view, tap, timeline
from test_viewer import EDGE_RECORDING, settled, state, wait

# The axe-core rule tags run: every WCAG 2.0, 2.1 and 2.2 level A and AA rule (axe-core 4.9
# has no rule tagged wcag22a).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_SOURCE = (importlib.resources.files("selenium_axe_python") / "axe-core" / "axe.min.js").read_text()
SCHEMES = ["light", "dark"]
# WCAG 2.2 1.4.3: 4.5:1 for text (the charts' labels are all under 18.66 px bold).
TEXT_CONTRAST = 4.5


@pytest.fixture(params=[(device, scheme) for device in sorted(DEVICES) for scheme in SCHEMES], ids=lambda p: f"{p[0]}-{p[1]}")
def page(request):
    """A Chromium per device (desktop, phone) and colour scheme (light, dark)."""
    device, scheme = request.param
    b = Browser(**DEVICES[device])
    b.name = f"{device}-{scheme}"
    emulate_media(b.driver, prefers_color_scheme=scheme)
    yield from _checked(b, request)


# MARK: axe-core


def axe(driver, context="document"):
    """axe-core's violations on the page (injected once per document)."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE_SOURCE)
    return driver.execute_script(f"""
        const result = await axe.run({context}, {{runOnly: {{type: 'tag', values: {json.dumps(AXE_TAGS)}}}, resultTypes: ['violations']}});
        return result.violations;""")


def describe(violations):
    """Each violation: the rule, its impact and help, then each node's selector and the
    numbers the check found (colours and ratio for contrast)."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{', '.join(t for t in v['tags'] if t.startswith('wcag'))}]")
        for node in v["nodes"]:
            data = [c.get("data") for c in node["any"] + node["all"] + node["none"] if c.get("data")]
            numbers = ""
            for d in data:
                if isinstance(d, dict) and "contrastRatio" in d:
                    numbers = (f" {d.get('fgColor')} on {d.get('bgColor')}: {d.get('contrastRatio')}:1, needs "
                               f"{d.get('expectedContrastRatio')} ({d.get('fontSize')} {d.get('fontWeight')})")
                elif d:
                    numbers = f" {json.dumps(d)[:160]}"
            lines.append(f"    {' '.join(map(str, node['target']))}{numbers}")
    return "\n".join(lines)


def assert_no_violations(b, what):
    b.screenshot(f"a11y-{what}-{b.name}")
    # From the top of the page: axe-core reads a control half under the sticky header, where a
    # scroll left it, as a target too small to touch.
    b.driver.execute_script("window.scrollTo(0, 0)")
    violations = axe(b.driver)
    assert not violations, f"axe-core, {what}, {b.name}:\n{describe(violations)}"
    low = [f"{t['text']!r} ({t['cls']}) {t['fg']} on {t['bg']}: {ratio(t['fg'], t['bg']):.2f}:1"
           for t in svg_texts(b.driver) if ratio(t["fg"], t["bg"]) < TEXT_CONTRAST]
    assert not low, f"chart text under {TEXT_CONTRAST}:1, {what}, {b.name}:\n  " + "\n  ".join(low)


# MARK: The charts' text, which axe-core leaves out

SVG_TEXT_JS = """
const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
// What shows behind a chart's text: the cell it labels, else the card's own background.
const behind = (t) => {
  const cell = t.previousElementSibling;
  if (t.classList.contains('cell-label') && cell) return getComputedStyle(cell).fill;
  return getComputedStyle(t.closest('.card')).backgroundColor;
};
const opacity = (el) => { let o = 1; for (; el && el.tagName.toLowerCase() !== 'body'; el = el.parentElement) o *= Number(getComputedStyle(el).opacity); return o; };
return [...document.querySelectorAll('#timeline text, #heatmap text')]
  .filter((t) => t.textContent.trim() && t.getBBox().width > 0)
  .map((t) => { const fg = rgb(getComputedStyle(t).fill); fg[3] = (fg[3] ?? 1) * opacity(t);
                return {text: t.textContent, cls: t.getAttribute('class'), fg, bg: rgb(behind(t))}; });
"""


def svg_texts(driver):
    return driver.execute_script(SVG_TEXT_JS)


def rgb(text):
    """`rgb(r, g, b)` or `rgba(r, g, b, a)` as a list of numbers."""
    return [float(x) for x in text[text.index("(") + 1:-1].split(",")]


def luminance(colour):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg, bg):
    """WCAG contrast of `fg` (its alpha over `bg`) on `bg`, both [r, g, b(, a)]."""
    a = fg[3] if len(fg) > 3 else 1
    shown = [f * a + b * (1 - a) for f, b in zip(fg[:3], bg[:3])]
    high, low = sorted([luminance(shown), luminance(bg)], reverse=True)
    return (high + 0.05) / (low + 0.05)


# MARK: The scans


def open_replay(d, url, extra=""):
    d.get(f"{url}#recording={EDGE_RECORDING}&preset=best&t=0.3{extra}")
    wait(d, lambda d: settled(d) and timeline(d)["frames"] > 40, message="the replay is paused at t = 0.3 and drawn")


def test_every_tab_has_no_wcag_a_or_aa_violation(server, page):
    d = page.driver
    # Replay, with the toast a copied link shows.
    open_replay(d, server.url)
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#filmstrip button"))
    d.find_element(By.ID, "copy-link").click()
    wait(d, lambda d: d.find_element(By.ID, "toast").is_displayed())
    assert_no_violations(page, "replay")
    d.execute_script("document.getElementById('toast').hidden = true")  # it would cover the Record tab's buttons

    # Comparing with the preset's defaults: the second line, both decisions.
    scroll_into_view(d, "compare")
    Select(d.find_element(By.ID, "compare")).select_by_value("defaults")
    wait(d, lambda d: d.find_element(By.ID, "compare-box").get_attribute("data-ready") == "true" and timeline(d)["compare"])
    scroll_into_view(d, "timeline")
    assert_no_violations(page, "compare")

    # Record: a gesture made, waiting for its label, "finish" chosen.
    d.find_element(By.ID, "tab-record").click()
    wait(d, lambda d: d.find_element(By.ID, "pad").is_displayed())
    scroll_into_view(d, "pad")
    left, top, width, height = d.execute_script("const r = document.getElementById('pad').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    drag(d, [(left + width / 2, top + height * (0.15 + 0.05 * i)) for i in range(12)], page.name.startswith("phone"))
    wait(d, lambda d: d.find_element(By.ID, "record-status").get_attribute("data-state") == "released", message="the drag was recorded")
    # Tapped as a finger taps it on a phone (WebDriver's element click after a touch drag gives
    # Chromium 156 a pointerdown and no click under touch emulation).
    scroll_into_view(d, "label-finish")
    x, y = d.execute_script("const r = document.getElementById('label-finish').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]")
    tap(d, x, y, page.name.startswith("phone"))
    wait(d, lambda d: d.find_element(By.ID, "label-finish").get_attribute("aria-pressed") == "true")
    assert_no_violations(page, "record")
    d.find_element(By.ID, "record-discard").click()
    wait(d, lambda d: not d.find_element(By.ID, "record-label").is_displayed())

    # Tune, before and after a sweep (heat map, findings, what it left out, the table).
    d.find_element(By.ID, "tab-tune").click()
    wait(d, lambda d: d.find_element(By.ID, "tune-run").is_enabled() and d.find_elements(By.CSS_SELECTOR, "#tune-axes .axis-from"))
    assert_no_violations(page, "tune")
    # Every state a person can open: the recordings list open (folders, boxes, filter, all and
    # none), then filtered down to one folder, each box a 24 px target.
    d.execute_script("document.querySelector('.tune-recordings').open = true")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#tune-recordings input.folder-box"))
    scroll_into_view(d, "tune-recordings")
    assert_no_violations(page, "tune-list-open")
    d.find_element(By.ID, "tune-filter").send_keys("edge")
    wait(d, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#tune-recordings label.item')].every((l) => l.hidden || l.textContent.toLowerCase().includes('edge'))"))
    assert_no_violations(page, "tune-list-filtered")
    d.find_element(By.ID, "tune-filter").clear()
    d.execute_script("document.getElementById('tune-filter').dispatchEvent(new Event('input'))")
    d.execute_script("document.querySelector('.tune-recordings').open = false")
    Select(d.find_element(By.ID, "tune-preset")).select_by_value("swipe-dismiss")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#tune-axes .axis-from"))
    d.find_element(By.ID, "tune-run").click()
    heatmap = d.find_element(By.ID, "heatmap")
    wait(d, lambda d: int(heatmap.get_attribute("data-cells") or 0) > 3, message="the sweep finished")
    d.execute_script("document.getElementById('tune-excluded').open = true")
    scroll_into_view(d, "heatmap")
    assert_no_violations(page, "tune-results")


def test_a_watch_only_page_has_no_wcag_a_or_aa_violation(server, page):
    """The badge, and the disabled controls whose text still says what the page shows."""
    d = page.driver
    d.get(server.url.split("?")[0])
    wait(d, lambda d: state(d)["seq"] and d.find_element(By.ID, "access").is_displayed() and timeline(d)["frames"] > 10)
    assert_no_violations(page, "watch-only")
    # axe-core leaves disabled controls out (WCAG exempts them), but a disabled menu still says
    # what the page shows (the recording, the speed): its text is held to 4.5:1 here.
    fields = d.execute_script("""
        return [...document.querySelectorAll('select:disabled, input[type=text]:disabled, input[type=number]:disabled')]
          .filter((e) => e.getClientRects().length)
          .map((e) => ({id: e.id || e.className, fg: getComputedStyle(e).color, opacity: Number(getComputedStyle(e).opacity),
                        bg: getComputedStyle(e.closest('.card')).backgroundColor}));""")
    assert any(f["id"] == "speed" for f in fields) and any(f["id"] == "recording" for f in fields)
    for f in fields:
        contrast = ratio(rgb(f["fg"]), rgb(f["bg"]))
        assert f["opacity"] == 1 and contrast >= TEXT_CONTRAST, f"disabled {f['id']}: {f['fg']} on {f['bg']} at opacity {f['opacity']}: {contrast:.2f}:1"


# MARK: Keyboard

FOCUSABLE_JS = """
const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
return [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
  .filter((el) => !el.disabled && el.tabIndex >= 0 && visible(el) && !el.closest('[hidden], details:not([open]) > :not(summary)'));
"""

FOCUS_JS = """
const el = document.activeElement;
const style = getComputedStyle(el);
const r = el.getBoundingClientRect();
const card = el.closest('.card, .bar');
return {el, tag: el.tagName.toLowerCase(), id: el.id, text: (el.textContent || '').trim().slice(0, 30),
        outline: [style.outlineStyle, parseFloat(style.outlineWidth), style.outlineColor],
        stroke: parseFloat(style.strokeWidth || '0'),
        behind: card ? getComputedStyle(card).backgroundColor : getComputedStyle(document.body).backgroundColor,
        top: r.top + scrollY, left: r.left + scrollX};
"""


def focus_walk(d, limit=160):
    """Tabs from the top of the page until focus leaves it or comes back round: what it stopped on."""
    d.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
    stops = []
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    for _ in range(limit):
        f = d.execute_script(FOCUS_JS)
        if f["tag"] == "body" or (stops and f["el"] == stops[0]["el"]):
            break
        stops.append(f)
        f["el"].send_keys(Keys.TAB)
    return stops


def label(stop):
    return f"{stop['tag']}#{stop['id'] or stop['text']!r}"


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_tab_reaches_every_control_in_reading_order_each_named_with_a_visible_focus(server, device):
    b = Browser(**DEVICES[device])
    try:
        d = b.driver
        open_replay(d, server.url)
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#filmstrip button") and d.find_elements(By.CSS_SELECTOR, "#params input"))
        focusable = d.execute_script(FOCUSABLE_JS)
        stops = focus_walk(d)
        # Every control the page shows is reached, once, in document order (no tabindex above 0,
        # nothing focusable hidden), which is the order it is laid out in.
        assert [s["el"] for s in stops] == focusable, (
            "Tab order:\n  " + " ".join(label(s) for s in stops) + "\nthe page's controls:\n  " + " ".join(e.get_attribute("id") or e.tag_name for e in focusable))
        ids = [s["id"] for s in stops]
        for before, after in [("tab-replay", "tab-tune"), ("tab-tune", "play"), ("play", "scrub"), ("scrub", "timeline"), ("timeline", "recording"),
                              ("recording", "preset"), ("preset", "compare")]:
            assert ids.index(before) < ids.index(after), f"{before} before {after}"
        if device == "phone":
            tops = [s["top"] for s in stops]
            assert all(b2 >= a - 40 for a, b2 in zip(tops, tops[1:])), "one column: Tab goes down the page"
        for s in stops:
            el = s["el"]
            name = (el.accessible_name or "").strip()
            assert name, f"{label(s)} ({el.aria_role}) has no accessible name"
            style, width, colour = s["outline"]
            if s["tag"] == "rect":
                continue
            assert style not in ("none", "") and width >= 2, f"{label(s)}: no visible focus ring ({style} {width}px)"
            assert ratio(rgb(colour), rgb(s["behind"])) >= 3, f"{label(s)}: focus ring {colour} on {s['behind']} is under 3:1"
        b.screenshot(f"a11y-focus-{device}")
        # Space ticks the checkbox Tab moved to (it is the only key that does), not the player.
        d.execute_script("document.activeElement?.blur(); window.scrollTo(0, 0)")
        d.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        for _ in range(len(stops)):
            if d.execute_script("return document.activeElement.id") == "loop":
                break
            ActionChains(d).send_keys(Keys.TAB).perform()
        ActionChains(d).send_keys(Keys.SPACE).perform()
        wait(d, lambda d: d.execute_script("return window.pantrace.store.playback.loop") is False, message="Space unticked loop")
        assert state(d)["body"]["playing"] == "false", "and did not start the player"
    finally:
        b.quit()


def test_heat_map_cells_and_table_rows_are_reached_and_named(server, browser):
    d = browser.driver
    d.get(f"{server.url}#tab=tune")
    wait(d, lambda d: d.find_element(By.ID, "tune-run").is_enabled() and d.find_elements(By.CSS_SELECTOR, "#tune-axes .axis-from"))
    d.find_element(By.ID, "tune-run").click()
    wait(d, lambda d: int(d.find_element(By.ID, "heatmap").get_attribute("data-cells") or 0) > 3, message="the sweep finished")
    stops = focus_walk(d, limit=400)
    cells = [s for s in stops if s["tag"] == "rect"]
    rows = [s for s in stops if s["tag"] == "tr"]
    assert len(cells) == int(d.find_element(By.ID, "heatmap").get_attribute("data-cells"))
    assert rows, "the table's rows are reached"
    for s in cells:
        assert "correct" in s["el"].accessible_name and s["stroke"] >= 2, f"cell {s['el'].accessible_name!r} (stroke {s['stroke']})"
    for s in rows:
        assert s["el"].accessible_name.strip(), "a row has a name"
    # Enter on a focused row replays what its point misjudges, as a click does.
    rows[0]["el"].send_keys(Keys.ENTER)
    wait(d, lambda d: d.find_element(By.ID, "tune-queue").is_displayed(), message="Enter on a row starts its queue")
    d.execute_script("document.querySelector('#tune-queue button:last-of-type')?.click()")


# MARK: Sliders


def test_sliders_announce_their_value_in_its_unit(server, browser):
    d = browser.driver
    d.get(f"{server.url}#recording={EDGE_RECORDING}&preset=best&p.stopTime=0.04&t=0.3")
    wait(d, lambda d: settled(d) and d.find_elements(By.ID, "param-stopTime"))
    stop = d.find_element(By.ID, "param-stopTime")
    assert stop.get_attribute("data-log") == "true"
    assert abs(float(stop.get_attribute("value")) - -1.398) < 0.01, "a log slider's value is an exponent"
    assert stop.get_attribute("aria-valuetext") == "0.04 s"
    threshold = d.find_element(By.ID, "param-threshold")
    assert threshold.get_attribute("aria-valuetext") == d.find_element(By.CSS_SELECTOR, "output[for='param-threshold']").text + " progress"
    # Moved from the keyboard, it says the new value, as its label does.
    scroll_into_view(d, "param-stopTime")
    stop.send_keys(Keys.ARROW_RIGHT)
    wait(d, lambda d: stop.get_attribute("aria-valuetext") == "0.0407 s", message="one step up: 10^-1.39 s")
    assert d.find_element(By.CSS_SELECTOR, "output[for='param-stopTime']").text == "0.041 s"
    wait(d, lambda d: "p.stopTime=0.0407" in state(d)["hash"], message="and the replay was re-decided with it")


# MARK: Reduced motion

MOTION_JS = """
const moving = [...document.querySelectorAll('*')].filter((el) => {
  const s = getComputedStyle(el);
  return s.animationName !== 'none' || s.transitionDuration.split(',').some((d) => parseFloat(d) > 0);
});
return {animations: document.getAnimations().length, moving: moving.map((el) => el.id || el.className).slice(0, 10),
        release: window.pantrace.store.playback?.release, playback: window.pantrace.store.playback};
"""


def test_reduced_motion_starts_paused_at_the_release_with_a_play_button(server):
    b = Browser(**DEVICES["desktop"])
    try:
        d = b.driver
        emulate_media(d, prefers_reduced_motion="reduce")
        d.get(server.url)
        s = wait(d, lambda d: settled(d), message="the replay waits, paused")
        m = d.execute_script(MOTION_JS)
        assert abs(float(s["time"]) - m["release"]) < 1 / 60 + 1e-9, f"paused at the release frame ({s['time']} s, release {m['release']} s)"
        assert m["playback"]["loop"] is False, "Play plays the gesture once"
        assert m["animations"] == 0 and not m["moving"], f"nothing animates: {m}"
        play = d.find_element(By.ID, "play")
        assert play.is_displayed() and play.accessible_name == "play"
        b.screenshot("a11y-reduced-motion")
        # Play plays it when asked, once, to its end.
        seq = int(s["seq"])
        play.click()
        end = m["playback"]["end"]
        s = wait(d, lambda d: (x := settled(d)) and float(x["time"]) >= end - 1e-6 and x, message="Play plays to the end and stops there")
        assert int(s["seq"]) > seq + 5, "through the frames after the release"
        # Another recording chosen from the menu waits at its release frame too.
        other = d.execute_script("return [...document.querySelectorAll('#recording option')].map((o) => o.value).find((v) => v !== arguments[0])",
                                 state(d)["body"]["recording"])
        Select(d.find_element(By.ID, "recording")).select_by_value(other)
        s2 = wait(d, lambda d: (x := settled(d)) and x["body"]["recording"] == other and x)
        release = d.execute_script("return window.pantrace.store.playback.release")
        assert abs(float(s2["time"]) - release) < 1 / 60 + 1e-9
        assert not b.severe()
    finally:
        b.quit()


def test_without_reduced_motion_the_replay_plays_on_load(server, browser):
    """The other side of the rule: a page that did not ask for less motion plays, looping."""
    d = browser.driver
    d.get(server.url)
    wait(d, lambda d: state(d)["body"].get("playing") == "true" and state(d)["seq"], message="it plays")
    assert d.execute_script("return window.pantrace.store.playback.loop") is True
