"""The hidden `--bench-frame-rate` that Benchmarks/bridge/load.py drives (no timings asserted)."""
import json
import subprocess

from websockets.sync.client import connect

from conftest import BINARY, start


def test_bench_frame_rate_cycles_through_the_replay_frame_after_frame(tmp_path, library_template):
    server = start(tmp_path, library_template, extra=("--bench-frame-rate", "1000"))
    try:
        with connect(server.ws(token=False), origin=server.origin) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "hello"
            frames = []
            while len(frames) < 2000:
                m = json.loads(ws.recv(timeout=5))
                if m["type"] == "frame":
                    frames.append(m)
                    if sum(1 for f in frames if f["frame"]["time"] == frames[0]["frame"]["time"]) == 3:
                        break
            times = [f["frame"]["time"] for f in frames]
            assert times.count(times[0]) == 3, "the replay's frames did not come round again"
            seqs = [f["seq"] for f in frames]
            assert all(b > a for a, b in zip(seqs, seqs[1:]))
            # The same frames in the same order each time round. A client that falls behind (a
            # loaded machine) is sent the newest frame and misses some, which its seq numbers
            # show; wherever two frames came one after the other, the second is the frame that
            # always follows the first.
            following = {}
            for a, b in zip(frames, frames[1:]):
                if b["seq"] == a["seq"] + 1:
                    before, after = a["frame"]["time"], b["frame"]["time"]
                    assert following.setdefault(before, after) == after, f"after {before} came {after} and {following[before]}"
            cycle = times.index(times[0], 1)
            assert len(following) >= cycle // 2, "too few frames came one after the other to compare"
    finally:
        server.stop()


def test_bench_frame_rate_out_of_range_is_refused_and_fps_keeps_its_cap(tmp_path, library_template):
    for extra in (("--bench-frame-rate", "0"), ("--bench-frame-rate", "100001"), ("--fps", "1000")):
        result = subprocess.run(
            [str(BINARY), "serve", "--port", "0", "--recordings", str(library_template), "--web", str(tmp_path), *extra],
            capture_output=True, text=True, timeout=30)
        assert result.returncode == 1
        assert "rate must be 1…" in result.stderr, result.stderr
