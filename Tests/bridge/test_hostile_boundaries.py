"""Boundaries of a real `pantrace serve` under hostile or unlucky input: special files, pipelined
HTTP, malformed close frames, unknown subprotocols, descriptors running out. Each test ends by
checking that a fresh viewer still gets its `hello`."""
import json
import os
import resource
import socket
import struct

import pytest
from websockets.sync.client import connect

from conftest import start


def hello(server):
    with connect(server.ws(), origin=server.origin, open_timeout=10) as ws:
        message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "hello"
    return message


def read_response(sock):
    """One HTTP response (headers and a content-length body) from `sock`; None at EOF."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, data
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:] if ":" in l)}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return (int(lines[0].split(" ", 2)[1]), headers, rest[:length]), rest[length:]


def stop_and_stderr(server):
    server.stop()
    return server.stderr()


def test_pipelined_requests_are_each_answered_in_order(server):
    host = f"127.0.0.1:{server.port}"
    request = "".join(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n" for path in ["/index.html", "/no-such.js", "/style.css"])
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(request.encode())
        answers, leftover = [], b""
        for _ in range(3):
            s2 = leftover
            if s2:
                # Responses may arrive in one read: parse from what is left first.
                class Replay:
                    def __init__(self, first, sock):
                        self.first, self.sock = first, sock

                    def recv(self, n):
                        if self.first:
                            out, self.first = self.first, b""
                            return out
                        return self.sock.recv(n)
                response, leftover = read_response(Replay(s2, s))
            else:
                response, leftover = read_response(s)
            assert response is not None, f"answer {len(answers) + 1} of 3 missing"
            answers.append(response)
    assert [a[0] for a in answers] == [200, 404, 200]
    assert answers[0][1]["content-type"].startswith("text/html")
    assert answers[2][1]["content-type"].startswith("text/css")
    assert b"<html" in answers[0][2].lower() or b"<!doctype" in answers[0][2].lower()


def test_a_head_request_gets_the_headers_and_no_body(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(f"HEAD /style.css HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    assert b" 200 " in head.split(b"\r\n")[0]
    assert int(next(l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length"))) > 0
    assert body == b""


def test_a_fifo_in_the_web_folder_is_not_served_and_http_goes_on(tmp_path, library_template):
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>x</title>")
    os.mkfifo(web / "stuck.js")
    server = start(tmp_path, library_template, web=web)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(f"GET /stuck.js HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            assert read_response(s)[0][0] == 404
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            assert read_response(s)[0][0] == 200
    finally:
        log = stop_and_stderr(server)
    assert "stuck.js: not a regular file" in log


def test_a_fifo_named_like_a_recording_is_skipped_at_start_and_while_running(tmp_path, library_template):
    server = start(tmp_path, library_template, before=lambda folder: os.mkfifo(folder / "x.pantrace"))
    try:
        first = hello(server)
        assert all(r["id"] != "x.pantrace" for r in first["state"]["library"])
        # One added while running is met at the next rescan (a discard triggers one).
        os.mkfifo(server.recordings / "y.pantrace")
        with connect(server.ws(), origin=server.origin) as ws:
            json.loads(ws.recv(timeout=5))
            ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}}))
            ws.send(json.dumps({"type": "discard"}))
            while True:
                m = json.loads(ws.recv(timeout=10))
                if m["type"] == "library":
                    break
        assert len(hello(server)["state"]["library"]) == len(first["state"]["library"])
    finally:
        log = stop_and_stderr(server)
    assert "x.pantrace: not a regular file" in log
    assert "y.pantrace: not a regular file" in log
    assert log.count("x.pantrace") == 1  # reported once, not at every rescan


def frame(opcode, payload, masked=True):
    header = bytes([0x80 | opcode])
    if masked:
        key = b"\x11\x22\x33\x44"
        body = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        return header + bytes([0x80 | len(payload)]) + key + body
    return header + bytes([len(payload)]) + payload


def upgraded(server, extra=""):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    s.sendall((f"GET /live?v=3 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    # Frames may arrive in the same read as the response: keep them for close_code.
    head, _, leftover = head.partition(b"\r\n\r\n")
    return s, head, leftover


def close_code(sock, data=b""):
    """Reads frames (after `data`, what came with the upgrade response) until a close frame;
    returns its status code (None for an empty one)."""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError("connection ended without a close frame")
        data += chunk
        while len(data) >= 2:
            opcode, length = data[0] & 0x0F, data[1] & 0x7F
            start = 2
            if length == 126:
                if len(data) < 4:
                    break
                length, start = struct.unpack(">H", data[2:4])[0], 4
            elif length == 127:
                if len(data) < 10:
                    break
                length, start = struct.unpack(">Q", data[2:10])[0], 10
            if len(data) < start + length:
                break
            payload, data = data[start:start + length], data[start + length:]
            if opcode == 0x8:
                return struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None


def test_a_close_frame_with_a_one_byte_payload_gets_1002(server):
    s, head, leftover = upgraded(server)
    assert b" 101 " in head.split(b"\r\n")[0]
    s.sendall(frame(0x8, b"\x03"))
    assert close_code(s, leftover) == 1002
    s.close()
    hello(server)


def test_a_close_frame_with_a_valid_code_is_answered_in_kind(server):
    s, head, leftover = upgraded(server)
    s.sendall(frame(0x8, struct.pack(">H", 1000)))
    assert close_code(s, leftover) == 1000
    s.close()


def test_an_upgrade_offering_only_unknown_subprotocols_gets_400_not_a_dropped_connection(server):
    s, head, leftover = upgraded(server, "Sec-WebSocket-Protocol: chat, superchat\r\n")
    s.close()
    assert head.split(b"\r\n")[0].split(b" ")[1] == b"400"
    s, head, leftover = upgraded(server, "Sec-WebSocket-Protocol: chat, pantrace\r\n")
    s.close()
    assert head.split(b"\r\n")[0].split(b" ")[1] == b"101"
    hello(server)


def test_running_out_of_descriptors_keeps_current_viewers_and_recovers(tmp_path, library_template):
    """With 64 descriptors, 120 connections: the viewer already connected keeps getting frames,
    the refusals are logged once, not per retry, and once the flood is gone a new viewer gets in."""
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    server = start(tmp_path, library_template, preexec_fn=limit)
    flood = []
    try:
        with connect(server.ws(), origin=server.origin) as ws:
            json.loads(ws.recv(timeout=5))
            for _ in range(120):
                s = socket.socket()
                s.settimeout(5)
                s.connect(("127.0.0.1", server.port))
                flood.append(s)
            # Existing viewer: still served (frames keep coming, a message gets its reply).
            ws.send(json.dumps({"type": "speed", "value": 2}))
            got = []
            while not any(m["type"] == "playback" for m in got):
                got.append(json.loads(ws.recv(timeout=10)))
            for s in flood:
                s.close()
            flood = []
        # Recovered: the listener resumes within its pause and a new viewer gets in.
        hello(server)
    finally:
        for s in flood:
            s.close()
        log = stop_and_stderr(server)
    lines = [l for l in log.splitlines() if "out of file descriptors" in l]
    assert 1 <= len(lines) <= 2, log[-2000:]
    assert "accept: errno" not in log
    assert "room for" not in log  # the capacity line is on standard output


def test_a_port_in_use_is_one_error_line_and_exit_1_every_time(server):
    """Ten tries on the port a running server holds: each prints one `error:` line naming the
    address, nothing on standard output, no lws log line, and exits 1."""
    import subprocess
    from conftest import BINARY
    for _ in range(10):
        result = subprocess.run([str(BINARY), "serve", "--port", str(server.port), "--recordings", str(server.recordings),
                                 "--web", str(server.web)], capture_output=True, text=True, timeout=20)
        assert result.returncode == 1, (result.stdout, result.stderr)
        assert result.stdout == ""
        assert result.stderr == f"error: cannot listen on 127.0.0.1:{server.port} (in use, or not an address of this machine)\n"


def metadata_bomb(chunks):
    """A .pantrace of a few hundred KB whose metadata payloads inflate to `chunks` × 4 MiB:
    a header chunk, then each chunk one metadata payload of 63 tags of 64 KiB (the format's
    own limits: docs/FORMAT.md §2.1, §5), compressed a thousandfold, then the end mark."""
    import zlib

    def varint(n):
        out = bytearray()
        while True:
            b, n = n & 0x7F, n >> 7
            out.append(b | 0x80 if n else b)
            if not n:
                return bytes(out)

    def member(data):
        c = zlib.compressobj(9, zlib.DEFLATED, 31)
        return c.compress(data) + c.flush()

    tag = varint(65536) + b"x" * 65536
    metadata = b"M" + varint(7) + varint(63) + tag * 63 + varint(0)
    return member(b"PANTRACE" + varint(4) + varint(1) + varint(0)) + member(metadata) * chunks + member(b"E" + varint(0))


@pytest.mark.parametrize("chunks,listed", [(15, True), (17, False)])
def test_a_metadata_bomb_costs_the_library_no_more_than_its_file_limit(tmp_path, library_template, chunks, listed):
    """The library reads a file up to 64 MiB inflated, as it reads one up to 64 MiB on disk:
    a small file that inflates past that (a metadata bomb) is one problem line, and the rest of
    the library is listed. Just under the bound, the same file is listed."""
    def plant(folder):
        (folder / "bomb.pantrace").write_bytes(metadata_bomb(chunks))
    server = start(tmp_path, library_template, before=plant)
    try:
        library = hello(server)["state"]["library"]
        assert ("bomb.pantrace" in [r["id"] for r in library]) == listed
        assert len(library) == 5 + listed
    finally:
        log = stop_and_stderr(server)
    said = "bomb.pantrace: chunk 17 at byte" in log and "file inflates past the 67108864-byte total limit" in log
    assert said == (not listed)
