"""A corpus file (`.pantraces`) in the recordings folder against a real `pantrace serve`: the
library lists its gestures, one loads and replays, the listing limit is said on both sides,
and an edit of a gesture inside it is refused by name without touching the file."""
import json

from websockets.sync.client import connect

from conftest import start, synth
from test_live import first, messages
from test_pages import hello, loaded

CORPUS = "sets/c.pantraces"


def with_corpus(count):
    def before(recordings):
        (recordings / "sets").mkdir()
        synth(recordings / CORPUS, "--count", str(count), "--seed", "31", "--kind", "swipe-down")
    return before


def corpus_ids(h):
    return [r["id"] for r in h["state"]["library"] if r["id"].startswith(CORPUS + "#")]


def test_the_library_lists_a_corpuss_gestures_and_one_replays(tmp_path, library_template):
    server = start(tmp_path, library_template, before=with_corpus(4))
    try:
        with connect(server.ws(), origin=server.origin) as ws:
            h = hello(ws)
            ids = corpus_ids(h)
            assert ids == [f"{CORPUS}#synth-31-{i:05d}" for i in range(4)], ids
            assert h["state"]["library_total"] == 5 + 4
            assert "library_notices" not in h["state"]
            entry = next(r for r in h["state"]["library"] if r["id"] == ids[-1])
            assert entry["samples"] > 10 and entry["intent"] in ("finish", "cancel")
            ws.send(json.dumps({"type": "loop", "enabled": False}))
            ws.send(json.dumps({"type": "load", "recording": ids[-1], "preset": "swipe-dismiss"}))
            summary = first(ws, "summary")
            assert summary["decision"] in ("finish", "cancel")
            load = first(ws, "playback")["load"]
            got = messages(ws, lambda m: m["type"] == "playback" and not m["playing"])
            frames = [m for m in got if m["type"] == "frame" and m["load"] == load]
            assert frames and all(f["recording"] == ids[-1] for f in frames)
            assert len(frames) >= summary["frames"] - 1
            # A comparison of a corpus gesture (computed off the controller thread) works too.
            ws.send(json.dumps({"type": "compare", "recording": ids[0], "preset": "swipe-dismiss",
                                "parameters": {"threshold": 0.3}}))
            series = messages(ws, lambda m: m["type"] == "series" and m.get("role") == "compare")[-1]
            assert series["recording"] == ids[0]
    finally:
        server.stop()
    assert "warning" not in server.stderr(), server.stderr()


def test_the_corpus_limit_is_said_on_the_page_and_in_the_output_only_when_reached(tmp_path, library_template):
    for count, limit in ((3, 3), (4, 3)):
        server = start(tmp_path / f"{count}", library_template, before=with_corpus(count),
                       extra=("--max-corpus-gestures", str(limit)))
        try:
            with connect(server.ws(), origin=server.origin) as ws:
                h = hello(ws)
                assert len(corpus_ids(h)) == 3
                notices = h["state"].get("library_notices")
                ws.send(json.dumps({"type": "library", "offset": 0}))
                page = first(ws, "library")
        finally:
            server.stop()
        if count > limit:
            assert notices and len(notices) == 1, notices
            assert CORPUS in notices[0] and "first 3" in notices[0] and "--max-corpus-gestures" in notices[0]
            assert page["notices"] == notices
            assert f"warning: {notices[0]}" in server.stderr(), server.stderr()
        else:
            assert notices is None and "notices" not in page
            assert "max-corpus-gestures" not in server.stderr()


def test_an_edit_of_a_corpus_gesture_is_refused_by_name_and_the_file_is_untouched(tmp_path, library_template):
    server = start(tmp_path, library_template, before=with_corpus(2))
    before = (server.recordings / CORPUS).read_bytes()
    try:
        with connect(server.ws(), origin=server.origin) as ws:
            h = hello(ws)
            gesture = corpus_ids(h)[1]
            for message in ({"type": "drop", "files": [gesture]}, {"type": "keep", "files": [gesture], "intent": "cancel"}):
                ws.send(json.dumps(message))
                error = first(ws, "error")
                assert error["code"] == "invalid"
                assert f'"{gesture}" is a gesture inside the corpus file {CORPUS}' in error["message"], error
                assert "nothing was changed" in error["message"]
            # Still listed, still loads.
            ws.send(json.dumps({"type": "load", "recording": gesture, "preset": "swipe-dismiss"}))
            loaded(ws, gesture)
    finally:
        server.stop()
    assert (server.recordings / CORPUS).read_bytes() == before
    assert sorted(p.name for p in (server.recordings / "sets").iterdir()) == ["c.pantraces"]
