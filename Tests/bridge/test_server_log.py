"""What reaches the terminal `pantrace serve` logs to, from anyone who can reach its port: a
refused upgrade's `Sec-WebSocket-Protocol` with control sequences in it is logged escaped, a
flood of refused upgrades is summarised at most once a second, and a request whose Host or
Origin is refused logs nothing at all (docs/VIEWER.md, "The server's log")."""
import socket
import time

# A window title, a cleared screen and a forged line (the line erased, back to column 1); then
# a C1 CSI and a right-to-left override. (A bare CR ends the header in libwebsockets' parser.)
HOSTILE = b"chat\x1b]0;pwned\x07\x1b[2J\x1b[H\x1b[2K\x1b[1Gpantrace serve: open http://evil.example/?token=x"
REORDERING = b"chat \xc2\x9b31m \xe2\x80\xaegnp.exe"


def refused_upgrade(server, protocol, host=None, origin=None):
    """One upgrade offering `protocol` (bytes) on a raw socket; the response's status code."""
    host = host or f"127.0.0.1:{server.port}"
    request = (f"GET /live?v=2 HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n").encode()
    if origin:
        request += f"Origin: {origin}\r\n".encode()
    request += b"Sec-WebSocket-Protocol: " + protocol + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(request)
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1]) if head else None


def log_lines(server):
    server.stop()
    return [line for line in server.stderr().splitlines() if "refused a WebSocket upgrade" in line or "more line" in line]


def test_control_sequences_in_a_refused_subprotocol_are_logged_escaped(server):
    assert refused_upgrade(server, HOSTILE) == 400
    assert refused_upgrade(server, REORDERING) == 400
    first, summary = log_lines(server)  # the second, within a second of the first, is summarised
    everything = server.stderr()
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in everything, f"{raw!r} reached the terminal: {everything!r}"
    assert first.startswith("pantrace serve: refused a WebSocket upgrade offering only unknown subprotocols (chat\\x1b]0;pwned\\x07"), first
    assert "\\x1b[2J\\x1b[H\\x1b[2K\\x1b[1Gpantrace serve: open http://evil." in first, first
    assert first.endswith(" more bytes))"), first  # cut at 80 characters of escaped text
    assert summary.startswith("pantrace serve: 1 more line like this in the last"), summary
    assert summary.endswith("(chat \\x9b31m \\u{202e}gnp.exe)"), summary
    # Nothing starts a line of its own: the forged "open" line is inside the escaped value.
    assert not any(l.startswith("pantrace serve: open http://evil") for l in everything.splitlines())


def test_a_long_subprotocol_is_cut_short(server):
    assert refused_upgrade(server, b"x" * 400) == 400
    [line] = log_lines(server)
    assert len(line) < 200, line
    assert "… (320 more bytes)" in line


def test_a_flood_of_refused_upgrades_is_summarised_at_most_once_a_second(server):
    started = time.monotonic()
    count = 0
    while time.monotonic() - started < 2.5:
        assert refused_upgrade(server, b"\x1b[2Jflood %d" % count) == 400
        count += 1
    elapsed = time.monotonic() - started
    lines = log_lines(server)
    assert count >= 100, f"only {count} upgrades in {elapsed:.1f} s"
    # The first line, then one summary per second at most (and one more at shutdown).
    assert 2 <= len(lines) <= int(elapsed) + 3, lines
    assert "flood 0)" in lines[0]
    summaries = [l for l in lines[1:] if "more line" in l]
    assert summaries == lines[1:], lines
    counted = sum(int(l.split("pantrace serve: ", 1)[1].split(" ", 1)[0]) for l in summaries)
    assert counted + 1 == count, (counted, count, lines)
    assert all("\\x1b[2Jflood" in l for l in lines)
    assert len(server.stderr()) < 2000, f"{len(server.stderr())} bytes of log for {count} refusals"


def test_a_refused_host_or_origin_logs_nothing_about_the_upgrade(server):
    assert refused_upgrade(server, HOSTILE, origin="http://evil.example") == 403
    assert refused_upgrade(server, HOSTILE, host=f"evil.example:{server.port}") == 403
    assert log_lines(server) == []
    assert "pwned" not in server.stderr()
