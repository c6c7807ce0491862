"""The hidden `--echo` that `make autobahn` (scripts/autobahn.sh) runs the Autobahn fuzzing client against."""
import json

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest import start
from test_live import raw_upgrade


@pytest.fixture
def echo_server(tmp_path, library_template):
    s = start(tmp_path, library_template, extra=("--echo",))
    yield s
    s.stop()


def test_echo_mode_sends_text_binary_and_fragmented_messages_back_unchanged(echo_server):
    # Like wstest: no Origin, no subprotocol, no token.
    with connect(echo_server.ws(token=False)) as ws:
        ws.send("héllo {\"type\":\"play\"}")
        assert ws.recv(timeout=5) == "héllo {\"type\":\"play\"}"  # text stays text, and no hello came first
        ws.send(bytes(range(256)) * 300)  # binary, larger than one 16 KiB receive
        assert ws.recv(timeout=5) == bytes(range(256)) * 300
        ws.send(["frag", "mented ", "ütf-8"])
        assert ws.recv(timeout=5) == "fragmented ütf-8"
        ws.send([b"\x00\x01", b"\x02"])
        assert ws.recv(timeout=5) == b"\x00\x01\x02"
        ws.send("")
        assert ws.recv(timeout=5) == ""


def test_echo_mode_keeps_the_request_policy(echo_server):
    for kwargs, status in [({"origin": "http://evil.example"}, 403), ({"host": f"attacker.example:{echo_server.port}"}, 403),
                           ({"path": "/elsewhere"}, 404), ({}, 101)]:
        s, got = raw_upgrade(echo_server.port, **kwargs)
        s.close()
        assert got == status, kwargs


def test_echo_mode_takes_messages_up_to_1_mib_and_closes_larger_with_1009(echo_server):
    with connect(echo_server.ws(token=False), max_size=None) as ws:
        ws.send(b"x" * (1 << 20))
        assert ws.recv(timeout=10) == b"x" * (1 << 20)
        ws.send(b"x" * ((1 << 20) + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 1009


def test_a_normal_server_does_not_echo(server):
    with connect(server.ws(token=False), origin=server.origin) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "hello"
        ws.send('{"type":"pause"}')  # without the token: refused, not sent back
        reply = json.loads(ws.recv(timeout=5))
        while reply["type"] in ("frame", "series"):
            reply = json.loads(ws.recv(timeout=5))
        assert reply["type"] == "error" and reply["code"] == "forbidden"
