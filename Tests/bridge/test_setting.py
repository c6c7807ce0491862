"""A setting saved by `pantrace tune --save-setting` opens in the viewer: `serve --setting`
gives every new page that preset and those parameters, and the page's decision on the first
recording is the one `replay --setting` makes (docs/TUNE.md, "A setting file")."""
import json
import subprocess

from websockets.sync.client import connect

from conftest import BINARY, start
from test_live import messages


def test_serve_opens_new_pages_on_a_tuned_setting_with_its_decisions(tmp_path, library_template):
    setting = tmp_path / "best.json"
    tune = subprocess.run([str(BINARY), "tune", str(library_template / "swipe"), "--preset", "swipe-dismiss",
                           "--grid", "threshold=0.25:0.75:0.25", "--grid", "velocity=lsq2", "--save-setting", str(setting)],
                          capture_output=True, text=True)
    assert tune.returncode == 0, tune.stderr
    saved = json.loads(setting.read_text())
    assert saved["preset"] == "swipe-dismiss" and saved["parameters"]["velocity"] == "lsq2"
    first = "swipe/" + sorted(p.name for p in (library_template / "swipe").glob("*.pantrace"))[0]
    server = start(tmp_path, library_template, extra=("--setting", str(setting), "--open", first))
    try:
        with connect(server.ws(), origin=server.origin) as ws:
            hello = json.loads(ws.recv(timeout=5))
            playback = hello["state"]["playback"]
            assert playback["recording"] == first and playback["preset"] == "swipe-dismiss"
            for key, value in saved["parameters"].items():
                assert playback["parameters"][key] == value, key
            summary = hello["state"]["summary"] or messages(ws, lambda m: m["type"] == "summary")[-1]
        replay = subprocess.run([str(BINARY), "replay", str(server.recordings / first), "--setting", str(setting), "--format", "summary"],
                                capture_output=True, text=True, check=True)
        assert summary["decision"] == json.loads(replay.stdout)["decision"]
    finally:
        server.stop()


def test_serve_refuses_a_setting_file_that_is_not_one_before_it_listens(tmp_path, library_template):
    bad = tmp_path / "bad.json"
    bad.write_text('{"preset":"swipe-dismiss","parameters":{"threshold":7}}')
    run = subprocess.run([str(BINARY), "serve", "--port", "0", "--recordings", str(library_template), "--setting", str(bad)],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 1
    assert run.stderr.strip().startswith(f"error: --setting {bad}: not a setting: ") and "threshold" in run.stderr, run.stderr
    assert "open http" not in run.stdout
