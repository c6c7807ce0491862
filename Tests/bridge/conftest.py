"""A real `pantrace serve` for each test, on a free port, with a temporary library."""
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("PANTRACE", ROOT / ".build" / "debug" / "pantrace"))

# `serve` remembers its control token in the user's state folder (docs/VIEWER.md); the tests'
# servers keep theirs in a folder of the test run's own, never in the user's.
STATE_HOME = tempfile.mkdtemp(prefix="pantrace-test-state-")
os.environ["XDG_STATE_HOME"] = STATE_HOME


class Server:
    """A running `pantrace serve`. Its standard output and error are read continuously on
    threads of their own (a full pipe would block the server), and kept for the test."""

    def __init__(self, process, url, recordings, web):
        self.process = process
        self.url = url
        self._output = {"stdout": [], "stderr": []}
        self._drains = [threading.Thread(target=self._drain, args=(stream, self._output[name]), daemon=True)
                        for name, stream in (("stdout", process.stdout), ("stderr", process.stderr))]
        for drain in self._drains:
            drain.start()
        match = re.match(r"http://([\d.]+):(\d+)/\?token=([0-9A-Za-z_-]+)", url)
        self.host, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)
        self.recordings = recordings
        self.web = web

    def ws(self, token=True):
        base = f"ws://127.0.0.1:{self.port}/live?v=3"
        return f"{base}&token={self.token}" if token else base

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    @staticmethod
    def _drain(stream, lines):
        for line in stream:
            lines.append(line)

    def stderr(self):
        """Everything the server wrote to standard error; complete once it has stopped."""
        return self._written("stderr")

    def stdout(self):
        """What it wrote to standard output after the first line (the address)."""
        return self._written("stdout")

    def _written(self, stream):
        if self.process.poll() is not None:
            for drain in self._drains:
                drain.join(timeout=5)
        return "".join(self._output[stream])

    def rss_kib(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                stacks = subprocess.run(["gdb", "-p", str(self.process.pid), "-batch", "-ex", "thread apply all bt 12"],
                                        capture_output=True, text=True).stdout if shutil.which("gdb") else ""
                self.process.kill()
                raise AssertionError("pantrace serve did not stop within 10 s of SIGTERM\n" + stacks)


def synth(folder, *args):
    subprocess.run([str(BINARY), "synth", "-o", str(folder), *args], check=True, stdout=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def library_template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("library")
    synth(folder / "synthetic", "--count", "3", "--seed", "21", "--scenario", "slow-complete")
    synth(folder / "swipe", "--count", "2", "--seed", "22", "--kind", "swipe-down")
    return folder


def start(tmp_path, library_template, web=None, extra=(), preexec_fn=None, before=None):
    """Starts `pantrace serve` on a copy of the template library; `before(recordings)` may
    change the copy first, `preexec_fn` runs in the child (resource limits)."""
    recordings = tmp_path / "recordings"
    shutil.copytree(library_template, recordings)
    if before:
        before(recordings)
    return start_on(recordings, web=web, extra=extra, preexec_fn=preexec_fn)


def start_on(recordings, web=None, extra=(), preexec_fn=None):
    """Starts `pantrace serve` on the folder `recordings` as it is."""
    web = web or ROOT / "web"
    process = subprocess.Popen(
        [str(BINARY), "serve", "--port", "0", "--recordings", str(recordings), "--web", str(web), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn)
    line = process.stdout.readline()  # the readiness signal: printed once the socket listens
    if "open http" not in line:
        process.kill()
        raise AssertionError(f"server did not start: {line!r} {process.stderr.read()}")
    url = line.split("open ", 1)[1].strip()
    return Server(process, url, recordings, web)


@pytest.fixture
def server(tmp_path, library_template):
    s = start(tmp_path, library_template)
    yield s
    s.stop()
