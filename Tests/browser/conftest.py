"""A real `pantrace serve` with the bundled recordings and a real headless Chromium per test.

The server helpers are the bridge tests' own (Tests/bridge/conftest.py), loaded under another
module name so the two suites' conftest files do not collide.
"""
import contextlib
import importlib.util
import json
import pathlib
import shutil
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

_spec = importlib.util.spec_from_file_location("bridge_conftest", ROOT / "Tests" / "bridge" / "conftest.py")
bridge = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bridge)
BINARY = bridge.BINARY


def start_server(recordings, port=0, token=None, extra=()):
    """`pantrace serve` on `recordings`; waits for its first stdout line, the readiness signal."""
    args = [str(BINARY), "serve", "--port", str(port), "--recordings", str(recordings), "--web", str(ROOT / "web"), *extra]
    if token:
        args += ["--token", token]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "open http" not in line:
        process.kill()
        raise AssertionError(f"server did not start: {line!r} {process.stderr.read()}")
    return bridge.Server(process, line.split("open ", 1)[1].strip(), recordings, ROOT / "web")


@pytest.fixture
def library(tmp_path):
    """A copy of the bundled recordings (a test saves into it)."""
    folder = tmp_path / "recordings"
    shutil.copytree(ROOT / "recordings", folder, ignore=shutil.ignore_patterns("*.md", "*.sh", "live"))
    return folder


@pytest.fixture
def server(library):
    s = start_server(library)
    yield s
    s.stop()


class Browser:
    """Headless Chromium through chromedriver; keeps the console log for the end of the test."""

    def __init__(self, width=1280, height=900, touch=False):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                         "--force-color-profile=srgb", f"--window-size={width},{height}"]:
            options.add_argument(argument)
        if touch:
            # A phone: its viewport, a touch screen (pointer events of type "touch"), 3× pixels.
            options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3, "touch": True}})
        self.touch = touch
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_window_size(width, height)
        self.log = []

    def drain_log(self):
        self.log += self.driver.get_log("browser")
        return self.log

    def screenshot(self, name):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def severe(self, allowed=()):
        """Console errors, less those matching one of `allowed` (substrings)."""
        return [e for e in self.drain_log() if e["level"] == "SEVERE" and not any(a in e["message"] for a in allowed)]

    def quit(self):
        self.driver.quit()


@contextlib.contextmanager
def another_browser(**kwargs):
    """A second Chromium for one part of a test (a watcher, a phone, a link opened elsewhere);
    quit at the end, and no console error allowed in it."""
    b = Browser(**kwargs)
    try:
        yield b
        errors = b.severe()
        assert not errors, "console errors:\n" + "\n".join(json.dumps(e) for e in errors)
    finally:
        b.quit()


@pytest.fixture
def browser(request):
    b = Browser()
    yield from _checked(b, request)


DEVICES = {"desktop": dict(width=1280, height=900), "phone": dict(width=390, height=844, touch=True)}


@pytest.fixture(params=sorted(DEVICES))
def device(request):
    """The same test on a 1280 × 900 desktop with a mouse and a 390 × 844 touch phone."""
    b = Browser(**DEVICES[request.param])
    b.name = request.param
    yield from _checked(b, request)


def _checked(b, request):
    yield b
    # No console errors in any run; a test that expects some (the restart) checks them itself
    # and sets `browser.allowed_errors`.
    try:
        errors = b.severe(getattr(b, "allowed_errors", ()))
        if not getattr(request.node, "rep_call_failed", False):
            assert not errors, "console errors:\n" + "\n".join(json.dumps(e) for e in errors)
    finally:
        b.quit()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.rep_call_failed = report.failed


def emulate_media(driver, **features):
    """Emulates CSS media features through the DevTools protocol (Emulation.setEmulatedMedia),
    e.g. `emulate_media(d, prefers_color_scheme="dark", prefers_reduced_motion="reduce")`; it
    holds for the page's later loads too."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": name.replace("_", "-"), "value": value} for name, value in features.items()]})
