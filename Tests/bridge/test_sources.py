"""Live sources (docs/PROTOCOL.md §4) against a real `pantrace serve`: a device streams its
pan recognizer's samples; pages that chose to watch it see the gesture through their own
setting; each gesture is written as it arrives and kept or dropped from a page."""
import json
import subprocess

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import BINARY
from test_live import first, messages
from test_pages import hello, loaded, swipe_down

SCREEN = {"width": 390, "height": 844}


def source_url(server, token=True):
    return server.ws(token=token) + "&role=source"


def announce(ws, session="session-0001", name="iPhone 15", **extra):
    ws.send(json.dumps({"type": "source", "session": session, "name": name, "platform": "ios",
                        "screen": SCREEN, "scale": 3, **extra}))
    return first(ws, "source_ready")


def pan_down(distance, start_seq=1, t0=100.0, steps=40, rest=10, end="ended"):
    """A slow pan down by `distance` points that rests before lifting (UIKit velocity ≈ 0),
    as the recognizer's action sees it at 120 Hz."""
    samples = []
    for i in range(steps + rest + 2):
        ty = distance * min(i, steps) / steps
        vy = distance / steps * 120 if 0 < i <= steps else 0.0
        state = "began" if i == 0 else (end if i == steps + rest + 1 else "changed")
        samples.append({"seq": start_seq + i, "t": t0 + i / 120, "state": state, "tx": 0.0, "ty": ty,
                        "vx": 0.0, "vy": vy, "lx": 200.0, "ly": 100.0 + ty, "touches": 1})
    return samples


def send(ws, samples, dropped=None):
    """Sends `samples` in messages of at most 64 and returns the last `ack`."""
    ack = None
    for start in range(0, len(samples), 64):
        message = {"type": "samples", "samples": samples[start:start + 64]}
        if dropped is not None:
            message["dropped"] = dropped
        ws.send(json.dumps(message))
        ack = first(ws, "ack")
    return ack


def watch_with(page, threshold):
    h = hello(page)
    recording = swipe_down(h)
    page.send(json.dumps({"type": "load", "recording": recording, "preset": "swipe-dismiss",
                          "parameters": {"threshold": threshold}}))
    loaded(page, recording)
    return h


def test_a_source_without_the_token_is_refused_and_records_nothing(server):
    with connect(source_url(server, token=False)) as ws:
        refused = json.loads(ws.recv(timeout=5))
        assert refused["type"] == "error" and refused["code"] == "forbidden" and "token" in refused["message"]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1008
    assert not (server.recordings / "live").exists()


@pytest.mark.parametrize("trial", range(5))
def test_a_refused_source_that_speaks_first_still_reads_why(server, trial):
    """The source sends at once, before the refusal reaches it: the server answers with the
    error and a close frame and waits for the client's close, so nothing resets the connection
    and the reason is read every time."""
    with connect(source_url(server, token=False)) as ws:
        try:
            for n in range(20):
                ws.send(json.dumps({"type": "source", "session": f"session-{trial:04d}{n:04d}", "name": "x", "platform": "ios",
                                    "screen": SCREEN, "scale": 3}))
        except ConnectionClosed:
            pass  # the refusal came while it was still sending; what it says is read below
        refused = json.loads(ws.recv(timeout=5))
        assert refused["code"] == "forbidden" and "token" in refused["message"]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1008


def test_pages_watching_see_the_gesture_through_their_own_threshold_and_others_see_nothing(server):
    """swipe-dismiss, a pan to 0.38 of H/2 with no release velocity: page a (0.27) sees it
    finish, page b (0.5) sees it cancel; page c, which did not choose to watch, is untouched."""
    with connect(server.ws(), origin=server.origin) as a, connect(server.ws(), origin=server.origin) as b, \
            connect(server.ws(), origin=server.origin) as c, connect(source_url(server)) as device:
        watch_with(a, 0.27)
        watch_with(b, 0.5)
        hc = hello(c)
        ready = announce(device)
        assert ready["source"] == 1 and ready["received"] == 0 and ready["max_batch"] == 64
        listed = first(a, "sources")["sources"]
        assert listed[0]["name"] == "iPhone 15" and listed[0]["connected"] and listed[0]["scale"] == 3
        for page in (a, b):
            page.send(json.dumps({"type": "watch", "source": ready["source"]}))
            first(page, "sources")
        ack = send(device, pan_down(0.38 * 422 + 10))
        assert ack["received"] == 52
        decisions = {}
        for name, page in (("a", a), ("b", b)):
            got = messages(page, lambda m: m["type"] == "playback" and m["recording"].startswith("live/unsaved-ios-1-"))
            playback = got[-1]
            assert playback["parameters"] == {"threshold": 0.27 if name == "a" else 0.5}
            # Control messages overtake queued frames: the live frames come before the first
            # frame of the new load.
            got += messages(page, lambda m: m["type"] == "frame" and m["load"] == playback["load"])
            live = [m for m in got if m["type"] == "frame" and m["load"] == -1]
            assert live and all(m["source"] == 1 for m in live), name
            assert live[-1]["frame"]["release"]["decision"]["outcome"] == ("finish" if name == "a" else "cancel")
            assert [m["state"] for m in got if m["type"] == "device_gesture"][-1] == "released"
            decisions[name] = next(m for m in got if m["type"] == "summary")["decision"]
        assert decisions == {"a": "finish", "b": "cancel"}
        got_c = messages(c, lambda m: m["type"] == "device_gesture" and m["state"] == "released")
        assert not any(m["type"] == "frame" and "source" in m for m in got_c)
        own = hc["state"]["playback"]["recording"]
        assert all(m["recording"] == own for m in got_c if m["type"] in ("playback", "series", "frame")), "c's own view only"


def test_a_disconnect_mid_gesture_keeps_it_incomplete_and_a_page_keeps_it_labelled(server):
    with connect(server.ws(), origin=server.origin) as page:
        hello(page)
        with connect(source_url(server)) as device:
            announce(device)
            send(device, pan_down(300)[:30])
        cut = messages(page, lambda m: m["type"] == "device_gesture" and m["state"] == "incomplete")[-1]
        listed = messages(page, lambda m: m["type"] == "sources" and not m["sources"][0]["connected"])[-1]["sources"]
        assert listed[0]["gestures"] == 1 and listed[0]["live"] is False
        page.send(json.dumps({"type": "keep", "files": [cut["file"]], "intent": "finish", "name": "cut"}))
        kept = first(page, "kept")["files"]
        assert kept == [{"from": cut["file"], "to": "live/cut-1.pantrace"}]
        assert not (server.recordings / cut["file"]).exists()
        text = server.recordings.parent / "cut.jsonl"
        subprocess.run([str(BINARY), "convert", str(server.recordings / "live" / "cut-1.pantrace"), str(text)], check=True)
        metadata = json.loads(text.read_text().splitlines()[0])["metadata"]
        assert metadata["intent"] == "finish" and "incomplete" in metadata["tags"] and metadata["source"] == "ios"
        assert len(text.read_text().splitlines()) >= 20
        # Nothing left unsaved from a gone source: it is no longer listed.
        assert messages(page, lambda m: m["type"] == "sources")[-1]["sources"] == []


def test_a_reconnect_resends_nothing_twice(server):
    samples = pan_down(200)
    with connect(source_url(server)) as device:
        announce(device, session="session-again")
        assert send(device, samples[:20])["received"] == 20
    with connect(server.ws(), origin=server.origin) as page, connect(source_url(server)) as device:
        hello(page)
        again = announce(device, session="session-again")
        assert again["received"] == 20 and again["source"] == 1
        # A client that resends what the server had: ignored, counted once.
        assert send(device, samples[:20])["received"] == 20
        # The first gesture was cut when the connection dropped; the next one is whole.
        assert send(device, pan_down(200, start_seq=21, t0=200.0))["received"] == 72
        ends = messages(page, lambda m: m["type"] == "device_gesture" and m["state"] == "released")
        released = [m for m in ends if m["type"] == "device_gesture" and m["state"] == "released"][-1]
        assert released["samples"] == 52
    files = sorted(p.name for p in (server.recordings / "live").iterdir())
    assert len(files) == 2, files


def test_keep_and_drop_a_batch_and_a_wrong_file_changes_nothing(server):
    with connect(server.ws(), origin=server.origin) as page, connect(source_url(server)) as device:
        hello(page)
        announce(device)
        files = []
        for n in range(3):
            send(device, pan_down(250, start_seq=1 + 52 * n, t0=100.0 + n))
            files.append(messages(page, lambda m: m["type"] == "device_gesture" and m["state"] == "released")[-1]["file"])
        page.send(json.dumps({"type": "keep", "files": [files[0], "live/nope.pantrace"], "intent": "cancel"}))
        wrong = first(page, "error")
        assert wrong["code"] == "not_found" and "live/nope.pantrace" in wrong["message"]
        assert all((server.recordings / f).exists() for f in files)
        page.send(json.dumps({"type": "keep", "files": files[:2], "intent": "cancel"}))
        kept = first(page, "kept")["files"]
        assert [k["to"] for k in kept] == ["live/iPhone-15-1.pantrace", "live/iPhone-15-2.pantrace"]
        page.send(json.dumps({"type": "drop", "files": [files[2]]}))
        assert first(page, "dropped")["files"] == [files[2]]
        assert sorted(p.name for p in (server.recordings / "live").iterdir()) == ["iPhone-15-1.pantrace", "iPhone-15-2.pantrace"]


def test_a_page_without_the_token_may_watch_but_not_keep(server):
    with connect(server.ws(token=False), origin=server.origin) as page, connect(source_url(server)) as device:
        hello(page)
        ready = announce(device)
        page.send(json.dumps({"type": "watch", "source": ready["source"]}))
        assert first(page, "sources")["sources"][0]["source"] == ready["source"]
        page.send(json.dumps({"type": "keep", "files": ["live/x.pantrace"]}))
        assert first(page, "error")["code"] == "forbidden"
        page.send(json.dumps({"type": "watch", "source": 99}))
        assert first(page, "error")["code"] == "not_found"


@pytest.mark.parametrize("field, value, says", [
    ("ty", 1e12, "sample 3: ty 1000000000000.0 is outside"),
    ("state", "wobbling", 'sample 3: state "wobbling" is not one of'),
    ("t", 99.0, "sample 3"),
])
def test_a_hostile_sample_is_refused_by_name_and_the_samples_before_it_are_kept(server, field, value, says):
    samples = pan_down(200)
    samples[2][field] = value
    with connect(source_url(server)) as device:
        announce(device)
        device.send(json.dumps({"type": "samples", "samples": samples[:10]}))
        got = messages(device, lambda m: m["type"] == "error")
        assert says in got[-1]["message"], got[-1]
        assert [m for m in got if m["type"] == "ack"][-1]["received"] == 3


def test_a_flooding_source_is_rate_limited_and_told(server):
    with connect(source_url(server)) as device:
        announce(device)
        samples = [{"seq": i + 1, "t": 100 + i / 1e6, "state": "possible", "tx": 0, "ty": 0, "vx": 0, "vy": 0}
                   for i in range(64 * 40)]
        said = []
        for start in range(0, len(samples), 64):
            device.send(json.dumps({"type": "samples", "samples": samples[start:start + 64]}))
        got = messages(device, lambda m: m["type"] == "ack" and m["received"] == len(samples))
        said = [m for m in got if m["type"] == "error"]
        assert said and said[0]["code"] == "rate_limited" and "samples a second" in said[0]["message"]
        assert len(said) == 1  # once a second at most


def test_two_devices_at_once_are_told_apart(server):
    with connect(server.ws(), origin=server.origin) as page, connect(source_url(server)) as one, \
            connect(source_url(server)) as two:
        hello(page)
        r1 = announce(one, session="session-one", name="Pixel 8")
        r2 = announce(two, session="session-two", name="iPhone 15")
        assert r1["source"] != r2["source"]
        a, b = pan_down(200), pan_down(250, t0=500.0)
        for i in range(0, len(a), 8):
            send(one, a[i:i + 8])
            send(two, b[i:i + 8])
        ends = messages(page, lambda m: m["type"] == "sources" and sum(s["gestures"] for s in m["sources"]) == 2)
        released = {m["source"]: m["file"] for m in ends if m["type"] == "device_gesture" and m["state"] == "released"}
        assert set(released) == {r1["source"], r2["source"]} and len(set(released.values())) == 2
        names = {s["source"]: s["name"] for s in ends[-1]["sources"]}
        assert names == {r1["source"]: "Pixel 8", r2["source"]: "iPhone 15"}


def test_a_source_that_never_names_itself_is_closed_after_ten_seconds(server):
    """A source connection holds a socket: one that sends nothing is told why and closed
    (1008) once its 10 s to send `source` are up, and the server's log says so."""
    with connect(source_url(server)) as ws:
        refused = json.loads(ws.recv(timeout=20))
        assert refused["type"] == "error" and refused["code"] == "invalid"
        assert "no source message within 10 s" in refused["message"]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1008
    assert "closed a source connection that sent no source message within 10 s" in server.stderr()
