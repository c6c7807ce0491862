"""The progress bar of `pantrace synth` on a real terminal (a pseudo-terminal): drawn from 1,000
gestures for a folder and for a corpus file alike, ending at 100 %, and cleared before the
`wrote …` line, which starts a line of its own; none below 1,000 gestures or off a terminal."""
import os
import pty
import subprocess

import pytest

from conftest import BINARY

CLEAR = "\r\x1b[K"


def on_a_terminal(args):
    """Runs pantrace with standard output and standard error on one pseudo-terminal; what it showed."""
    main, secondary = pty.openpty()
    try:
        process = subprocess.Popen([str(BINARY), *args], stdin=subprocess.DEVNULL, stdout=secondary, stderr=secondary)
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            shown += chunk
        assert process.wait(timeout=120) == 0, shown
        return shown.decode()
    finally:
        os.close(main)


@pytest.mark.parametrize("output", ["folder", "set.pantraces"])
@pytest.mark.parametrize("count,bar", [(999, False), (1000, True)])
def test_synth_shows_a_bar_from_a_thousand_gestures_and_clears_it_before_its_last_line(tmp_path, output, count, bar):
    shown = on_a_terminal(["synth", "-o", str(tmp_path / output), "--count", str(count), "--seed", "5"])
    assert ("synth [" in shown) == bar, shown[-300:]
    last = shown.rsplit(CLEAR, 1)[-1] if bar else shown
    # The result line starts a line of its own (on a terminal, "\n" reads as "\r\n").
    assert last.lstrip("\r\n").startswith(f"wrote {count} gestures"), repr(shown[-300:])
    if bar:
        assert f"100% ({count}/{count} gestures)" in shown, repr(shown[-300:])
        assert shown.count(CLEAR) == 1


def test_synth_off_a_terminal_draws_no_bar(tmp_path):
    result = subprocess.run([str(BINARY), "synth", "-o", str(tmp_path / "set.pantraces"), "--count", "1000", "--seed", "5"],
                            capture_output=True, text=True, check=True)
    assert result.stderr == ""
    assert result.stdout.startswith("wrote 1000 gestures")
