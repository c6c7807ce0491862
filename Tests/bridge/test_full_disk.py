"""A full disk, simulated with RLIMIT_FSIZE = 0 (every write to a file fails with EFBIG, as
ENOSPC would): `pantrace record`, `pantrace convert` and a live recording in `pantrace serve`
each fail with one clear line and leave no file behind, empty or not."""
import json
import time
import os
import resource
import signal
import subprocess

from websockets.sync.client import connect

from conftest import BINARY, start


def no_room():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def swipe_csv():
    lines = ["t_ms,x,y,phase,pointer", "0,100,100,down,0"]
    lines += [f"{i * 16},100,{100 + i * 8},move,0" for i in range(1, 30)]
    lines.append("480,100,340,up,0")
    return "\n".join(lines) + "\n"


def test_record_on_a_full_disk_fails_in_one_line_and_leaves_no_file(tmp_path):
    out = tmp_path / "out"
    result = subprocess.run([str(BINARY), "record", "--from", "-", "--format", "csv", "-o", str(out / "g")],
                            input=swipe_csv(), capture_output=True, text=True, preexec_fn=no_room)
    assert result.returncode == 1, result.stderr
    errors = [l for l in result.stderr.splitlines() if l.startswith("error:")]
    assert len(errors) == 1 and "write failed" in errors[0], result.stderr
    assert list(out.iterdir()) == []


def test_convert_on_a_full_disk_leaves_no_file(tmp_path):
    subprocess.run([str(BINARY), "synth", "-o", str(tmp_path / "in"), "--count", "1", "--seed", "4"], check=True, capture_output=True)
    source = next((tmp_path / "in").iterdir())
    (tmp_path / "out").mkdir()
    result = subprocess.run([str(BINARY), "convert", str(source), str(tmp_path / "out" / "x.pantrace")],
                            capture_output=True, text=True, preexec_fn=no_room)
    assert result.returncode == 1, result.stderr
    assert "write failed" in result.stderr
    assert list((tmp_path / "out").iterdir()) == []


def test_a_live_recording_on_a_full_disk_gets_failed_and_leaves_no_file(tmp_path, library_template):
    server = start(tmp_path, library_template, preexec_fn=no_room)
    try:
        with connect(server.ws(), origin=server.origin) as ws:
            json.loads(ws.recv(timeout=5))
            ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}}))
            t = 0
            ws.send(json.dumps({"type": "pointer", "t_ms": t, "x": 100, "y": 100, "phase": "down"}))
            error = None
            for i in range(1, 40):
                ws.send(json.dumps({"type": "pointer", "t_ms": i * 16, "x": 100, "y": 100 + i * 8, "phase": "move"}))
            errors = []
            while error is None:
                m = json.loads(ws.recv(timeout=10))
                if m["type"] == "error":
                    error = m
            # The 30-odd events after the failure are not answered one error each: the failure
            # is said once, and "not armed" at most once a second.
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline:
                try:
                    m = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                except TimeoutError:
                    break
                if m["type"] == "error":
                    errors.append(m)
        assert error["code"] == "failed" and "write failed" in error["message"], error
        assert len(errors) <= 1 and all(e["code"] != "failed" for e in errors), errors
        live = server.recordings / "live"
        assert not live.exists() or list(live.iterdir()) == []
        # The server goes on: a fresh viewer gets its hello.
        with connect(server.ws(), origin=server.origin) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "hello"
    finally:
        server.stop()


def test_a_source_streaming_onto_a_full_disk_gets_failed_once_a_second_and_leaves_no_file(tmp_path, library_template):
    server = start(tmp_path, library_template, preexec_fn=no_room)
    try:
        with connect(server.ws() + "&role=source", origin=server.origin) as device:
            device.send(json.dumps({"type": "source", "session": "session-0001", "name": "iPhone 15", "platform": "ios",
                                    "screen": {"width": 390, "height": 844}, "scale": 3}))
            while json.loads(device.recv(timeout=5))["type"] != "source_ready":
                pass
            # 20 short gestures, one message each: every `began` meets the full disk.
            seq = 0
            started = time.monotonic()
            for g in range(20):
                samples = []
                for k, state in enumerate(["began", "changed", "ended"]):
                    seq += 1
                    samples.append({"seq": seq, "t": 100 + g + k / 60, "state": state, "tx": 0, "ty": k * 20, "vx": 0, "vy": 0})
                device.send(json.dumps({"type": "samples", "samples": samples}))
            errors, acked = [], 0
            while acked < seq:
                m = json.loads(device.recv(timeout=10))
                if m["type"] == "ack":
                    acked = m["received"]
                elif m["type"] == "error":
                    errors.append(m)
            elapsed = time.monotonic() - started
        # `failed` (the server's storage, not the sample), said once a second at most.
        assert errors and all(e["code"] == "failed" and "write failed" in e["message"] for e in errors), errors
        assert len(errors) <= 1 + int(elapsed), (len(errors), elapsed)
        live = server.recordings / "live"
        assert not live.exists() or [p for p in live.iterdir() if p.suffix == ".pantrace"] == []
    finally:
        server.stop()
