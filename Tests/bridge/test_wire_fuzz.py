"""Hostile client messages against a real `pantrace serve`: it answers, and it stays up.

1. A seeded, bounded fuzzer. It takes the client fixtures
   (Tests/LiveBridgeTests/Fixtures/protocol/client/*.json) and mutates them: a field set to a
   hostile value (0, -0.0, 5e-324, NaN/Infinity as bare tokens and as strings, +-1e308,
   Int64.min/max, 2**53+1, 1e400, a 400-digit integer, 60 KB and 1 MB strings, 10,000 levels
   of arrays or objects, wrong types), a field dropped, a hostile `type`, an unknown field,
   hostile tune grids, gesture-shaped pointer events (so a recording gets under way), JSON cut
   short, and byte-level damage (flip, insert, delete, duplicate) sent as a binary frame.
   Messages go over one controlling connection (with the token) in batches. After each batch
   a sentinel `{"type":"zz-sentinel-N"}` is sent: the controller handles a connection's
   messages in order and answers an unknown type with a `bad_message` error naming it, so that
   answer means the batch was handled. Then the server must be running and a fresh viewer must
   get `hello` first. Messages that close their connection by design (over 64 KiB: 1009; not
   UTF-8 in a text frame: 1007) go over a connection of their own. At the end SIGTERM must stop
   the server with status 0. Pointer messages are paced under the server's 500/s limit so
   that what the server does depends on the seed, not on how fast this machine sends; on a
   failure the whole history is replayed on a fresh server to name the message.
   PANTRACE_WIRE_FUZZ_MESSAGES (default 20,000), PANTRACE_WIRE_FUZZ_SEED.
2. Table-driven cases: each must be answered with an `error` (docs/PROTOCOL.md §2) and leave
   the server up (a fresh viewer gets `hello`; that it comes first is left to the fuzzer).
"""
import json
import os
import random
import signal
import time

import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from conftest import ROOT, start

MESSAGES = int(os.environ.get("PANTRACE_WIRE_FUZZ_MESSAGES", "20000"))
SEED = int(os.environ.get("PANTRACE_WIRE_FUZZ_SEED", "1763700000"))
BATCH, LIMIT, POINTER_RATE = 200, 64 * 1024, 400.0  # the server allows 500 pointer events/s, burst 500
SOCKET_ERRORS = (WebSocketException, OSError, TimeoutError)  # closed, refused, a bad handshake, no answer
FIXTURES = {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "Tests/LiveBridgeTests/Fixtures/protocol/client").glob("*.json"))}


class Raw(str):
    """JSON text spliced in as it is (tokens Python's json module would not write)."""


def dump(value):
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v) for v in value) + "]"
    return json.dumps(value)  # NaN and Infinity come out as bare tokens


HOSTILE = [0, -0.0, 5e-324, float("nan"), float("inf"), float("-inf"), "NaN", "Infinity", "-Infinity", 1e308, -1e308,
           -2**63, 2**63 - 1, 2**53 + 1, 2**64, -2**63 - 1, Raw("1e400"), Raw("-0"), Raw("1" + "0" * 400), "", "x" * 60_000,
           "x" * 1_000_000, Raw("[" * 10_000 + "]" * 10_000), Raw('{"a":' * 10_000 + "1" + "}" * 10_000), True, None, [], {},
           [1, 2], {"x": 1}, "\u0000", "../../../../etc/passwd", "\U0001f4a5" * 1000, -1, 1.5, "left", "finish"]
GRID_NUMBERS = ["0", "1", "-1", "-0", "0.05", "1e-12", "5e-324", "1e308", "-1e308", "nan", "inf", "1e400", "9223372036854775807", ""]
GRID_KEYS = ["threshold", "duration", "velocity", "comparison", "nope", "", "threshold=1"]


def paths(value, prefix=()):
    """Every place in a message, as a tuple of keys and indices."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield prefix + (key,)
        yield from paths(item, prefix + (key,))


def parent(message, path):
    for step in path[:-1]:
        message = message[step]
    return message


class Fuzzer:
    def __init__(self, seed):
        self.rng, self.t_ms, self.x, self.down = random.Random(seed), 1000.0, 0.0, False

    def pointer(self):
        """The next event of a plausible gesture (down near the left edge, moves, a lift)."""
        r = self.rng
        self.t_ms = round(self.t_ms + r.choice([0, 8.333, 8.334, 16.667, 300]), 3)
        phase = "down" if not self.down else r.choice(["move"] * 12 + ["up", "cancel", "down"])
        self.x = r.uniform(0, 30) if phase == "down" else self.x + r.uniform(0, 25)
        self.down = phase in ("down", "move")
        return {"type": "pointer", "t_ms": self.t_ms, "x": round(self.x, 2), "y": 400.0, "phase": phase, "pointer": 1}

    def message(self):
        """One message: (payload, kind), kind "text", "binary" or "closer"."""
        r = self.rng
        m, roll = json.loads(json.dumps(FIXTURES[r.choice(sorted(FIXTURES))])), r.random()
        if roll < 0.30:
            path = r.choice(list(paths(m)))
            parent(m, path)[path[-1]] = r.choice(HOSTILE)
        elif roll < 0.38:
            path = r.choice([p for p in paths(m) if isinstance(p[-1], str)])
            del parent(m, path)[path[-1]]
        elif roll < 0.43:
            m["type"] = r.choice(HOSTILE[:20] + ["warp", "LOAD", "hello", "frame", "error", "type"])
        elif roll < 0.47:
            m[r.choice(["extra", "type ", "\u0000", "__proto__"])] = r.choice(HOSTILE)
        elif roll < 0.52:
            grid = [r.choice(GRID_KEYS) + "=" + r.choice(":,").join(r.choices(GRID_NUMBERS, k=r.randrange(1, 4))) for _ in range(r.randrange(4))]
            m = {"type": "tune", "recordings": r.choice([[], ["synthetic"], ["../x"]]), "preset": r.choice(["swipe-dismiss", "zoom", "nope"]), "grid": grid}
        elif roll < 0.65:
            m = self.pointer()
        text = dump(m)
        if 0.65 <= roll < 0.70:
            return text[: r.randrange(len(text))], "text"
        if 0.70 <= roll < 0.80:
            data = bytearray(text.encode())
            for _ in range(r.randrange(4)):  # none: the JSON as it is, in a binary frame
                i, op = r.randrange(len(data)), r.randrange(4)
                if op == 0:
                    data[i] ^= 1 << r.randrange(8)
                elif op == 1:
                    data.insert(i, r.randrange(256))
                elif op == 2 and len(data) > 1:
                    del data[i]
                else:
                    data[i:i] = data[i:i + r.randrange(1, 16)]
            return bytes(data), ("closer" if r.random() < 0.05 and not utf8(data) else "binary")
        return text, ("closer" if len(text.encode()) > LIMIT else "text")  # the rest: fixtures as they are


def utf8(data):
    try:
        bytes(data).decode()
        return True
    except UnicodeDecodeError:
        return False


class Pacer:
    """Keeps pointer messages under POINTER_RATE a second (a token bucket, as the server's)."""

    def __init__(self):
        self.tokens, self.last = POINTER_RATE, time.monotonic()

    def take(self, payload):
        if b"pointer" not in (payload if isinstance(payload, bytes) else payload.encode()):
            return
        now = time.monotonic()
        self.tokens, self.last = min(POINTER_RATE, self.tokens + (now - self.last) * POINTER_RATE), now
        if self.tokens < 1:
            time.sleep((1 - self.tokens) / POINTER_RATE)  # pacing a rate, not waiting for an event
            self.tokens, self.last = 1, time.monotonic()
        self.tokens -= 1


def serve(tmp_path, library_template):
    return start(tmp_path, library_template)  # its output is drained by conftest's Server


def crash_report(server):
    """Exit status and the lines of stderr that say why."""
    server.process.wait(timeout=10)
    err = server.stderr()
    why = [line for line in err.splitlines() if any(s in line for s in ("Fatal error", "failed:", "Program crashed", " at /"))]
    return f"exit {server.process.returncode}; " + " | ".join(why[:4] or err.strip().splitlines()[-3:])


def viewer(server, token=True):
    return connect(server.ws(token), origin=server.origin, max_size=None, max_queue=None, open_timeout=5)


def sync(ws, label, timeout=10):
    """Sends the sentinel; returns every message but frames that came before its answer."""
    ws.send(json.dumps({"type": f"zz-sentinel-{label}"}))
    seen, deadline = [], time.monotonic() + timeout
    while True:
        m = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if m["type"] == "error" and f'"zz-sentinel-{label}"' in m.get("message", ""):
            return seen
        seen += [m] if m["type"] != "frame" else []


def up(server, strays=None):
    """Why the server is not serving (dead, or no hello for a fresh viewer), or None.

    `hello` must be a viewer's first message (PROTOCOL.md §2): what came before it is a
    problem, or, given a `strays` list, noted there (the fuzzer reports those at the end).
    """
    if server.process.poll() is not None:
        return "died: " + crash_report(server)
    try:
        with viewer(server, token=False) as ws:
            deadline, before = time.monotonic() + 5, []
            while (m := json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic()))))["type"] != "hello":
                before.append(m["type"])
    except SOCKET_ERRORS as error:
        return f"no hello for a fresh viewer: {error!r}" + ("; died: " + crash_report(server) if server.process.poll() is not None else "")
    if before and strays is None:
        return f"a fresh viewer got {before} before hello"
    if before:
        strays.append(before)
    return None


def send_closer(server, payload):
    """Sends a message that must close its connection (over 64 KiB, or not UTF-8) on a new one."""
    deadline = time.monotonic() + 5
    try:
        with viewer(server) as ws:
            ws.recv(timeout=5)
            ws.send(payload, text=True)
            while time.monotonic() < deadline:  # until the server closes it
                ws.recv(timeout=max(0.01, deadline - time.monotonic()))
    except SOCKET_ERRORS:
        return
    raise AssertionError(f"the connection stayed open after {show(payload)}")


def send_batch(server, ws, pacer, batch, label, strays=None):
    """Sends the batch; returns why the server is not serving afterwards, or None."""
    try:
        for payload, kind in batch:
            pacer.take(payload)
            send_closer(server, payload) if kind == "closer" else ws.send(payload)
        sync(ws, label)
        return up(server, strays)
    except SOCKET_ERRORS as error:
        return f"control connection: {error!r}; " + (up(server) or "the server is still up")


def show(payload):
    text = payload if isinstance(payload, str) else payload.decode(errors="backslashreplace")
    return repr(text[:160] + (f"...({len(text)} chars)" if len(text) > 160 else ""))


def culprit(tmp_path, library_template, history, batch):
    """Replays the history on a fresh server, then the failing batch a message at a time."""
    server, pacer = serve(tmp_path / "replay", library_template), Pacer()
    try:
        with viewer(server) as ws:
            json.loads(ws.recv(timeout=5))
            for n, earlier in enumerate(history):
                if send_batch(server, ws, pacer, earlier, f"replay-{n}"):
                    return f"the replay failed earlier, in batch {n}"
            for n, (payload, kind) in enumerate(batch):
                if problem := send_batch(server, ws, pacer, [(payload, kind)], f"replay-message-{n}"):
                    return f"replayed: message {n} of the batch did it ({problem[:200]}): {kind}: {show(payload)}"
    except SOCKET_ERRORS as error:
        return f"the replay failed: {error!r}"
    finally:
        server.stop() if server.process.poll() is None else None
    return "the replay did not fail (it depends on timing)"


def test_fuzzed_messages_never_take_the_server_down(tmp_path, library_template):
    server, fuzzer, pacer, history, strays, started = serve(tmp_path, library_template), Fuzzer(SEED), Pacer(), [], [], time.monotonic()
    try:
        with viewer(server) as ws:
            json.loads(ws.recv(timeout=5))
            while (sent := sum(map(len, history))) < MESSAGES:
                batch = [fuzzer.message() for _ in range(min(BATCH, MESSAGES - sent))]
                if problem := send_batch(server, ws, pacer, batch, len(history), strays):
                    pytest.fail(f"seed {SEED}, batch {len(history)} (messages {sent}..{sent + len(batch) - 1}): {problem}\n"
                                + culprit(tmp_path, library_template, history, batch), pytrace=False)
                history.append(batch)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=10) == 0, "SIGTERM: " + crash_report(server)
        assert not strays, f"{len(strays)} of {len(history)} fresh viewers got messages before hello, e.g. {strays[:5]}"
    finally:
        print(f"\n[wire fuzz] seed {SEED}: {sum(map(len, history))} messages sent and survived, in {time.monotonic() - started:.1f} s")
        server.process.kill() if server.process.poll() is None else None


def case(probe, setup=()):
    return pytest.param(setup, probe, id=dump(probe)[:90])


RECORD = {"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}}
CASES = (
    [case({"type": "step", "frames": n}) for n in (-2**63, 2**63 - 1)]
    + [case({"type": "pointer", "t_ms": t, "x": 10, "y": 400, "phase": "down", "pointer": 1}, setup=[RECORD])
       for t in (1e13, -1e13, Raw("NaN"), "NaN", Raw("Infinity"), Raw("-Infinity"), "Infinity", 1e308, -1e308, Raw("1e400"))]
    + [case({"type": "record", "screen": {**RECORD["screen"], side: v}}) for side in ("width", "height") for v in (0, Raw("-0"), -0.0, 5e-324, 1e308)]
    + [case({"type": "tune", "recordings": [], "preset": "swipe-dismiss", "grid": grid}) for grid in (
        ["threshold=0:1:1e-12"], ["threshold=0:1:5e-324"], ["threshold=-1e308:1e308:1"], ["threshold=0:1:1e-4", "duration=0:1:1e-4"],
        ["threshold=0:1:1.00001e-8"],  # just under the 1e8 values one axis may have
        ["threshold=0:0.9999999:1e-7"])])  # 1e7 points: the CLI's limit without --yes


@pytest.mark.parametrize("setup, probe", CASES)
def test_a_hostile_value_gets_an_error_and_the_server_stays_up(tmp_path, library_template, setup, probe):
    server = serve(tmp_path, library_template)
    try:
        with viewer(server) as ws:
            json.loads(ws.recv(timeout=5))
            for message in setup:
                ws.send(dump(message))
            assert not [m for m in sync(ws, "setup") if m["type"] == "error"], "the setup was refused"
            ws.send(dump(probe))
            replies = [m for m in sync(ws, "probe") if m["type"] in ("error", "tune")]
            deadline = time.monotonic() + 10
            while not replies and probe["type"] == "tune" and time.monotonic() < deadline:  # a sweep answers when done
                try:
                    m = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                    replies += [m] if m["type"] in ("error", "tune") else []
                except TimeoutError:
                    pass
            answer = replies[0] if replies else "no error (within 10 s for a tune, else before the next message's answer)"
            problem = up(server, strays=[])  # hello-first is the fuzzer's to check; this connection
    except SOCKET_ERRORS as error:          # stays open, as its leaving would be broadcast
        answer, problem = f"no answer: {error!r}", up(server, strays=[])
    try:
        assert isinstance(answer, dict) and answer["type"] == "error" and problem is None, f"answer: {answer}; server: {problem or 'up'}"
    finally:
        server.stop()
