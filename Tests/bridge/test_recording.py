"""Live recording from the viewer's pad, end to end through a real server."""
import json
import signal
import subprocess

from websockets.sync.client import connect

from conftest import BINARY
from test_live import first, messages


def swipe_events(start_ms=1000.0, frames=40):
    """An edge swipe: down at the left edge, moves every 8.333 ms, up."""
    events = [(start_ms, 4.0, 400.0, "down")]
    for k in range(1, frames + 1):
        u = k / frames
        x = 4.0 + 260.0 * (10 * u**3 - 15 * u**4 + 6 * u**5)
        events.append((round(start_ms + k * 8.333, 3), round(x, 2), round(400.0 + 0.1 * k, 2), "move"))
    events.append((round(start_ms + (frames + 1) * 8.333, 3), events[-1][1], events[-1][2], "up"))
    return events


def send_events(ws, events):
    for t, x, y, phase in events:
        ws.send(json.dumps({"type": "pointer", "t_ms": t, "x": x, "y": y, "phase": phase, "pointer": 1}))


def metadata(path, tmp_path):
    out = tmp_path / (path.stem + ".jsonl")
    subprocess.run([str(BINARY), "convert", str(path), str(out)], check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text().splitlines()[0])["metadata"]


def test_a_live_recording_is_the_file_pantrace_record_writes_for_the_same_events(server, tmp_path):
    events = swipe_events()
    with connect(server.ws(), origin=server.origin) as ws, connect(server.ws(token=False), origin=server.origin) as watcher:
        json.loads(ws.recv(timeout=5))
        json.loads(watcher.recv(timeout=5))
        ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}, "edge": "left", "preset": "swipe-back"}))
        assert first(ws, "recording")["state"] == "armed"
        send_events(ws, events)
        released = messages(ws, lambda m: m["type"] == "recording" and m["state"] == "released")[-1]
        assert released["samples"] > 30 and released["file"].startswith("live/unsaved-")
        ws.send(json.dumps({"type": "label", "intent": "finish"}))
        assert first(ws, "recording")["intent"] == "finish"
        ws.send(json.dumps({"type": "save", "name": "e2e swipe"}))
        saved = messages(ws, lambda m: m["type"] == "recording" and m["state"] == "saved")[-1]
        assert saved["id"] == "live/e2e-swipe-1.pantrace"
        # Every viewer's library gains the new recording.
        library = messages(watcher, lambda m: m["type"] == "library" and any(r["id"] == saved["id"] for r in m["recordings"]))[-1]
        entry = next(r for r in library["recordings"] if r["id"] == saved["id"])
        assert entry["intent"] == "finish" and entry["source"] == "browser" and entry["complete"]

    saved_path = server.recordings / saved["id"]
    assert not list((server.recordings / "live").glob("unsaved-*"))  # the unsaved copy is gone
    created = metadata(saved_path, tmp_path)["created"]
    log = tmp_path / "events.csv"
    log.write_text("t_ms,x,y,phase,pointer\n" + "".join(f"{t},{x},{y},{p},1\n" for t, x, y, p in events))
    subprocess.run([str(BINARY), "record", "--from", str(log), "--format", "csv", "-o", str(tmp_path / "e2e-swipe"),
                    "--intent", "finish", "--edge", "left", "--screen", "390x844", "--scale", "3",
                    "--created", created, "--source", "browser"], check=True, stdout=subprocess.DEVNULL)
    # The same samples and metadata: both converted to JSON Lines are the same text. (The saved
    # file is packed into one chunk, as a finished trace; `record` writes live chunks.)
    as_jsonl = []
    for source in [tmp_path / "e2e-swipe-1.pantrace", saved_path]:
        out = tmp_path / f"{source.parent.name}-{source.stem}.jsonl"
        subprocess.run([str(BINARY), "convert", str(source), str(out)], check=True, stdout=subprocess.DEVNULL)
        as_jsonl.append(out.read_text())
    assert as_jsonl[0] == as_jsonl[1]


def test_discarding_removes_the_recording(server):
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}}))
        send_events(ws, swipe_events())
        messages(ws, lambda m: m["type"] == "recording" and m["state"] == "released")
        ws.send(json.dumps({"type": "discard"}))
        assert messages(ws, lambda m: m["type"] == "recording")[-1]["state"] == "discarded"
    assert not list((server.recordings / "live").glob("*.pantrace"))


def test_recording_needs_the_token_and_rejects_bad_events(server):
    with connect(server.ws(token=False), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}}))
        assert first(ws, "error")["code"] == "forbidden"
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send(json.dumps({"type": "pointer", "t_ms": 1, "x": 1, "y": 1, "phase": "down"}))
        assert "press on the pad to start a recording" in first(ws, "error")["message"]
        ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}}))
        first(ws, "recording")
        for bad in [{"t_ms": 1, "x": 1, "y": 1, "phase": "hover"}, {"t_ms": 1, "x": 1, "y": 1, "phase": "move"}]:
            ws.send(json.dumps({"type": "pointer", **bad}))
            assert first(ws, "error")["code"] == "invalid", bad


def test_shutdown_during_a_gesture_leaves_a_complete_file(server, tmp_path):
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}, "preset": "swipe-back"}))
        send_events(ws, swipe_events()[:-1])  # the finger is still down
        messages(ws, lambda m: m["type"] == "recording" and m["state"] == "capturing")
        messages(ws, lambda m: m["type"] == "frame" and m["load"] == -1 and m["frame"]["progress"] > 0.3)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=10) == 0
    files = list((server.recordings / "live").glob("unsaved-*.pantrace"))
    assert len(files) == 1
    summary = json.loads(subprocess.run([str(BINARY), "inspect", "--json", str(files[0])], check=True,
                                        capture_output=True, text=True).stdout)
    # How many events arrived before the signal varies; what must hold is a complete file
    # whose gesture ends as cancelled (the finger never lifted).
    assert summary["complete"] is True and summary["samples"] >= 2
    jsonl = tmp_path / "unsaved.jsonl"
    subprocess.run([str(BINARY), "convert", str(files[0]), str(jsonl)], check=True, stdout=subprocess.DEVNULL)
    assert json.loads(jsonl.read_text().splitlines()[-1])["phase"] == "cancelled"


def test_a_viewer_can_run_a_tune(server):
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send(json.dumps({"type": "tune", "recordings": [], "preset": "swipe-dismiss", "grid": ["threshold=0.3,0.5,0.7"]}))
        tune = first(ws, "tune", timeout=30)
        assert tune["preset"] == "swipe-dismiss"
        assert {"best", "defaults", "grid", "traces", "excluded", "misjudged"} <= set(tune["report"])
        # Recordings are named by library id, never by a path on the server.
        assert all(not m["file"].startswith("/") for m in tune["report"]["misjudged"])
        ws.send(json.dumps({"type": "tune", "recordings": [], "preset": "swipe-dismiss", "grid": ["threshold=0.2:0.8:0"]}))
        assert first(ws, "error")["in_reply_to"] == "tune"
