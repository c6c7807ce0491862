"""`pantrace live` (docs/LIVE.md) against a real `pantrace serve`: a getevent capture streamed
as a live source reaches a watching page gesture by gesture, each decided exactly as
`pantrace record` + `pantrace replay` decide the same capture offline."""
import json
import pathlib
import subprocess

from websockets.sync.client import connect

from conftest import BINARY
from test_live import first, messages
from test_pages import hello, loaded

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "swipes.getevent"
DEVICE = ["--format", "getevent", "--axis-range", "0:1079,0:2399", "--screen", "360x800", "--scale", "3", "--edge", "left"]
PRESET = "swipe-back"


def offline(tmp_path):
    """The capture through `pantrace record`, then each file through `pantrace replay`."""
    out = tmp_path / "offline"
    subprocess.run([str(BINARY), "record", "--from", str(FIXTURE), *DEVICE, "-o", f"{out}/"], check=True, capture_output=True)
    files = sorted(out.glob("*.pantrace"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return files, [replay(f) for f in files]


def replay(path):
    run = subprocess.run([str(BINARY), "replay", str(path), "--preset", PRESET, "--format", "summary"],
                         check=True, capture_output=True, text=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def samples(path, tmp_path):
    """The sample lines of a recording as JSON Lines (the metadata line left out)."""
    text = tmp_path / (path.stem + ".jsonl")
    subprocess.run([str(BINARY), "convert", str(path), str(text)], check=True, capture_output=True)
    return text.read_text().splitlines()[1:]


def live(server, *extra, stdin=subprocess.PIPE):
    return subprocess.Popen(
        [str(BINARY), "live", "--from", "-", *DEVICE, "--to", f"ws://127.0.0.1:{server.port}/live",
         "--token", server.token, "--name", "Pixel test", *extra],
        stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_streamed_capture_reaches_a_watching_page_decided_as_offline(server, tmp_path):
    files, decisions = offline(tmp_path)
    assert len(files) == 4  # four pans; the tap does not become one
    with connect(server.ws(), origin=server.origin) as page:
        h = hello(page)
        own = h["state"]["library"][0]["id"]
        page.send(json.dumps({"type": "load", "recording": own, "preset": PRESET, "parameters": {}}))
        loaded(page, own)
        process = live(server, "--realtime", "--time-scale", "8")
        try:
            # The source joins before reading its input: watch it, then feed it the capture.
            listed = messages(page, lambda m: m["type"] == "sources" and any(s["connected"] for s in m["sources"]))[-1]
            source = listed["sources"][0]
            assert source["name"] == "Pixel test" and source["platform"] == "android" and source["scale"] == 3
            page.send(json.dumps({"type": "watch", "source": source["source"]}))
            first(page, "sources")
            process.stdin.write(FIXTURE.read_text())
            process.stdin.close()
            # Each released gesture is loaded into the page's view: its `series` (with the
            # replay's summary) ends the load.
            got = messages(page, lambda m: m["type"] == "series" and m["recording"].endswith("-4.pantrace")
                           and m["recording"].startswith("live/"), timeout=30)
            out, err = process.stdout.read(), process.stderr.read()
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0, err
    assert "live: 4 gestures" in out and "0 dropped, 0 discarded" in out
    released = [m["file"] for m in got if m["type"] == "device_gesture" and m["state"] == "released"]
    assert len(released) == 4 and all(f.startswith("live/unsaved-android-1-") for f in released)
    # Each released gesture is decided with the watching page's setting.
    seen = {m["recording"]: m for m in got if m["type"] == "series" and m["recording"] in released}
    assert list(seen) == released
    assert all(m["preset"] == PRESET and m["parameters"] == {} for m in seen.values())
    for file, offline_file, expected in zip(released, files, decisions):
        decided = seen[file]["summary"]
        for key in ("decision", "reason", "margin", "release_s", "completion_s"):
            assert decided.get(key) == expected.get(key), (file, key, decided.get(key), expected.get(key))
        assert samples(server.recordings / file, tmp_path) == samples(offline_file, tmp_path)
    live_frames = [m for m in got if m["type"] == "frame" and m.get("load") == -1]
    assert live_frames and all(m["source"] == source["source"] for m in live_frames)


def test_a_wrong_token_or_an_unreachable_server_fails_in_one_line(server):
    refused = subprocess.run(
        [str(BINARY), "live", "--from", str(FIXTURE), *DEVICE, "--to", f"ws://127.0.0.1:{server.port}/live",
         "--token", "not-the-token-at-all", "--retries", "3"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines()[-1].startswith(f"error: ws://127.0.0.1:{server.port}/live")
    assert "refused" not in "".join(refused.stderr.strip().splitlines()[:-1]), "the refusal is said once, last"
    assert not (server.recordings / "live").exists()
    server.stop()
    gone = subprocess.run(
        [str(BINARY), "live", "--from", str(FIXTURE), *DEVICE, "--to", f"ws://127.0.0.1:{server.port}/live",
         "--token", server.token, "--retries", "2"], capture_output=True, text=True, timeout=60)
    assert gone.returncode == 1
    assert "cannot reach the server" in gone.stderr.strip().splitlines()[-1]


def test_a_bad_line_is_named_and_what_came_before_it_is_kept(server, tmp_path):
    lines = FIXTURE.read_text().splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if "BTN_TOUCH" in line and "UP" in line) + 2
    log = tmp_path / "bad.getevent"
    log.write_text("".join(lines[:cut]) + "[ garbage\n" + "".join(lines[cut:]))
    run = subprocess.run(
        [str(BINARY), "live", "--from", str(log), *DEVICE, "--to", f"ws://127.0.0.1:{server.port}/live",
         "--token", server.token], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and f"{log}: line {cut + 1} at byte" in last, last
    assert "live: 1 gesture" in run.stdout
    assert len(list((server.recordings / "live").glob("unsaved-android-*.pantrace"))) == 1
