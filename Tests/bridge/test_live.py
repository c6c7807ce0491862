"""WebSocket side: snapshot, frames, control, rights, and abuse."""
import contextlib
import json
import os
import signal
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def messages(ws, until, limit=2000, timeout=10):
    """Receives until `until(message)` is true; returns everything received."""
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < limit:
        m = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        got.append(m)
        if until(m):
            return got
    raise AssertionError(f"condition not met in {len(got)} messages")


def first(ws, kind, timeout=10):
    return messages(ws, lambda m: m["type"] == kind, timeout=timeout)[-1]


def library_id(hello, tag):
    return next(r["id"] for r in hello["state"]["library"] if tag in r["tags"])


def test_a_client_first_receives_the_full_state_then_frames(server):
    with connect(server.ws(), origin=server.origin) as ws:
        hello = json.loads(ws.recv(timeout=5))
        assert hello["type"] == "hello" and hello["v"] == 3 and hello["can_control"] is True
        assert isinstance(hello["page"], int)
        state = hello["state"]
        assert len(state["library"]) == 5 and state["library_total"] == 5
        assert {p["name"] for p in state["presets"]} >= {"swipe-dismiss", "zoom", "best"}
        assert state["playback"]["playing"] is True  # the bundled recordings loop on their own
        frame = first(ws, "frame")
        assert frame["frame"]["layers"]


def test_a_replay_arrives_frame_by_frame_in_order(server):
    with connect(server.ws(), origin=server.origin) as ws:
        hello = json.loads(ws.recv(timeout=5))
        recording = library_id(hello, "swipe-down")
        ws.send(json.dumps({"type": "loop", "enabled": False}))
        ws.send(json.dumps({"type": "load", "recording": recording, "preset": "swipe-dismiss"}))
        summary = first(ws, "summary")
        assert summary["trace"] and summary["decision"] in ("finish", "cancel")
        load = first(ws, "playback")["load"]
        got = messages(ws, lambda m: m["type"] == "playback" and not m["playing"])
        # Control messages overtake queued frames: frames of the earlier load may still arrive.
        frames = [m for m in got if m["type"] == "frame" and m["load"] == load]
        seqs = [f["seq"] for f in frames]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        times = [f["frame"]["time"] for f in frames]
        steps = {round(b - a, 6) for a, b in zip(times, times[1:])}
        assert steps == {round(1 / 60, 6)}, steps  # every frame, none skipped
        assert len(frames) >= summary["frames"] - 1


def test_each_page_plays_its_own_view_until_it_follows_another(server):
    """A page's load reaches only that page; a page that follows another sees its frames,
    and stops when it changes its own view (here: asks to stop following)."""
    with connect(server.ws(), origin=server.origin) as a, connect(server.ws(token=False), origin=server.origin) as b:
        hello_a = json.loads(a.recv(timeout=5))
        hello_b = json.loads(b.recv(timeout=5))
        first_view = hello_b["state"]["playback"]["recording"]
        other = next(r["id"] for r in hello_a["state"]["library"] if r["id"] != first_view)
        a.send(json.dumps({"type": "load", "recording": other, "preset": "swipe-back"}))
        load = first(a, "playback")["load"]
        # b goes on with its own view: two seconds of its frames, none of a's load.
        got = []
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            got.append(json.loads(b.recv(timeout=5)))
        assert got and all(m.get("load") != load for m in got)
        assert all(m["recording"] == first_view for m in got if m["type"] in ("frame", "series", "playback"))
        assert not any(m["type"] == "summary" for m in got)
        # b follows a: it is told so, and gets a's view.
        b.send(json.dumps({"type": "follow", "page": hello_a["page"]}))
        assert first(b, "following")["page"] == hello_a["page"]
        assert first(b, "playback")["recording"] == other
        frames_b = [m for m in messages(b, lambda m: m["type"] == "frame" and m["load"] == load and m["seq"] > 0, limit=5000) if m["type"] == "frame"]
        assert frames_b[-1]["recording"] == other
        # a pauses: b, following, is told too.
        a.send(json.dumps({"type": "pause"}))
        assert not first(a, "playback")["playing"]
        assert not messages(b, lambda m: m["type"] == "playback" and not m["playing"], limit=5000)[-1]["playing"]
        b.send(json.dumps({"type": "follow"}))
        stopped = first(b, "following")
        assert "page" not in stopped


def test_a_late_joiner_opens_on_the_first_view_not_on_another_pages(server):
    with connect(server.ws(), origin=server.origin) as a:
        hello = json.loads(a.recv(timeout=5))
        first_view = hello["state"]["playback"]["recording"]
        recording = library_id(hello, "swipe-down")
        assert recording != first_view
        a.send(json.dumps({"type": "load", "recording": recording, "preset": "swipe-dismiss", "parameters": {"threshold": 0.3}}))
        first(a, "playback")
        with connect(server.ws(token=False), origin=server.origin) as late:
            state = json.loads(late.recv(timeout=5))["state"]
            assert state["playback"]["recording"] == first_view
            assert state["summary"]["trace"]
            # The page that has control is listed, so the late joiner may follow it.
            assert hello["page"] in [p["page"] for p in state["pages"]]


def test_without_the_token_a_viewer_may_watch_but_not_control(server):
    with connect(server.ws(token=False), origin=server.origin) as ws:
        hello = json.loads(ws.recv(timeout=5))
        assert hello["can_control"] is False
        ws.send(json.dumps({"type": "pause"}))
        error = first(ws, "error")
        assert error["code"] == "forbidden" and error["in_reply_to"] == "pause"


def test_a_wrong_token_is_no_token(server):
    with connect(f"ws://127.0.0.1:{server.port}/live?v=3&token=0000", origin=server.origin) as ws:
        assert json.loads(ws.recv(timeout=5))["can_control"] is False


def test_malformed_messages_get_an_error_and_the_connection_stays_up(server):
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        for bad, code in [("{not json", "bad_json"), ('{"type":"warp"}', "bad_message"), ('{"type":"seek"}', "bad_message"),
                          ('{"type":"speed","value":99}', "invalid"), ('{"type":"load","recording":"../../etc/passwd","preset":"zoom"}', "not_found"),
                          ('{"type":"load","recording":"x","preset":"nope"}', "not_found")]:
            ws.send(bad)
            error = first(ws, "error")
            assert error["code"] == code, (bad, error)
        ws.send(json.dumps({"type": "pause"}))
        assert first(ws, "playback")["playing"] is False


def test_an_unknown_preset_lists_the_valid_ones(server):
    with connect(server.ws(), origin=server.origin) as ws:
        hello = json.loads(ws.recv(timeout=5))
        ws.send(json.dumps({"type": "load", "recording": library_id(hello, "edge-back"), "preset": "nope"}))
        error = first(ws, "error")
        assert error["code"] == "invalid" and "swipe-dismiss" in error["message"]


def test_an_oversized_message_closes_with_1009(server):
    with connect(server.ws(), origin=server.origin, max_size=None) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send("x" * (64 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1009


def test_a_foreign_origin_is_refused(server):
    # Cross-site WebSocket hijacking: another site's page opening the socket.
    s, status = raw_upgrade(server.port, origin="http://evil.example")
    s.close()
    assert status == 403


def raw_upgrade(port, path="/live?v=3", host=None, origin=None):
    host = host or f"127.0.0.1:{port}"
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, int(head.split(b" ", 2)[1])


def test_upgrades_with_a_bad_host_or_path_are_refused(server):
    for kwargs, status in [({"host": f"attacker.example:{server.port}"}, 403), ({"path": "/elsewhere"}, 404),
                           ({"origin": f"http://localhost:{server.port}"}, 403), ({}, 101)]:
        s, got = raw_upgrade(server.port, **kwargs)
        s.close()
        assert got == status, kwargs


def test_pointer_events_are_rate_limited(server):
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        for i in range(1500):
            ws.send(json.dumps({"type": "pointer", "t_ms": i, "x": 10, "y": 10, "phase": "move"}))
        errors = [m for m in messages(ws, lambda m: m["type"] == "error" and m["code"] == "rate_limited", limit=5000) if m["type"] == "error"]
        assert errors[-1]["code"] == "rate_limited"


def test_a_client_that_never_reads_does_not_stop_the_others(server):
    """Five connections that never read again: a viewer that reads keeps getting consecutive
    frames of the replay (a stuck client blocks nobody). How fast, and the memory the stuck
    ones cost, are measured by `make bench` (Benchmarks/bridge), not asserted here."""
    stuck = []
    for _ in range(5):
        s, status = raw_upgrade(server.port)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        assert status == 101
        stuck.append(s)  # never read again
    try:
        with connect(server.ws(), origin=server.origin) as ws:
            json.loads(ws.recv(timeout=5))
            got = []
            while len([m for m in got if m["type"] == "frame"]) < 100:
                got.append(json.loads(ws.recv(timeout=5)))
            frames = [m for m in got if m["type"] == "frame"]
            assert all(b["seq"] > a["seq"] for a, b in zip(frames, frames[1:]))
    finally:
        for s in stuck:
            s.close()


def test_shutdown_closes_clients_with_1001(server):
    with connect(server.ws(), origin=server.origin) as ws:
        json.loads(ws.recv(timeout=5))
        server.process.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    assert server.process.wait(timeout=10) == 0


def test_permessage_deflate_is_never_negotiated(server):
    # The bridge frames batched messages itself (Sources/LiveBridge/Interop/CoalescedWrite.swift),
    # uncompressed; a client offering compression must get plain frames.
    with connect(server.ws(), origin=server.origin, compression="deflate") as ws:
        assert "permessage-deflate" in ws.request.headers["Sec-WebSocket-Extensions"]
        assert "Sec-WebSocket-Extensions" not in ws.response.headers
        assert json.loads(ws.recv(timeout=5))["type"] == "hello"
        assert first(ws, "frame")["frame"]["layers"]


def service_threads(server):
    names = [open(f"/proc/{server.process.pid}/task/{task}/comm").read().strip()
             for task in os.listdir(f"/proc/{server.process.pid}/task")]
    return sorted(name for name in names if name.startswith("pantrace.lws."))


def test_clients_on_every_service_thread_get_the_snapshot_frames_broadcasts_and_replies(server):
    # Accepted sockets take turns between the service threads (WebSocketServer), so of four
    # clients each thread serves two.
    expected = ["pantrace.lws.0", "pantrace.lws.1"] if len(os.sched_getaffinity(0)) >= 2 else ["pantrace.lws.0"]
    assert service_threads(server) == expected
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(connect(server.ws(token=index != 3), origin=server.origin)) for index in range(4)]
        hello_pages = []
        for ws in clients:
            hello = json.loads(ws.recv(timeout=5))
            hello_pages.append(hello["page"])
            assert hello["type"] == "hello" and len(hello["state"]["library"]) == 5
            assert first(ws, "frame")["frame"]["layers"]
        # Page 1 follows page 0 (on the other service thread): page 0's pause reaches both.
        clients[1].send(json.dumps({"type": "follow", "page": hello_pages[0]}))
        first(clients[1], "following")
        clients[0].send(json.dumps({"type": "pause"}))
        for ws in clients[:2]:
            messages(ws, lambda m: m["type"] == "playback" and not m["playing"])
        clients[3].send(json.dumps({"type": "play"}))  # no token: refused, and only it is told
        assert first(clients[3], "error")["code"] == "forbidden"
        clients[0].send(json.dumps({"type": "play"}))
        for ws in clients[:2]:
            got = messages(ws, lambda m: m["type"] == "playback" and m["playing"])
            assert not any(m["type"] == "error" for m in got)


def test_an_old_viewer_gets_a_version_error_and_a_1008_close(server):
    """An old viewer (no `v=` in its URL, or version 1 or 2) or a newer one: one error, then 1008."""
    for path in ["/live", "/live?v=1", "/live?v=2", "/live?v=4"]:
        with connect(f"ws://127.0.0.1:{server.port}{path}", origin=server.origin) as ws:
            message = json.loads(ws.recv(timeout=5))
            assert message["type"] == "error" and message["code"] == "version", message
            assert "version 3" in message["message"] and "reload" in message["message"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # A version 3 viewer is unaffected.
    with connect(server.ws(), origin=server.origin) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "hello"
