"""The reference broadcast server for the bridge load benchmark (Benchmarks/bridge/load.py).

What a straightforward Python live server would be: `websockets` (asyncio), one endpoint at
`/live`, a broadcast loop that stamps each frame and hands it to `websockets.broadcast`
(no backpressure, no conflation; compression off, as the bridge does not negotiate it either).

It is fed the same frames as the bridge: `--frames FILE` is a JSON array of `frame` messages
captured from a running `pantrace serve` (load.py does this); each tick takes the next one,
sets `seq` and `emitted_us` (µs since the Unix epoch, taken just before encoding, as the bridge
does) and encodes it with `json.dumps`. Like the bridge it produces frames only while someone is
connected and playback is not paused (a `{"type":"pause"}` / `{"type":"play"}` text message
from any client toggles that; the benchmark uses it for the idle-client memory measurement).

    python reference_server.py --frames frames.json --rate 120 [--port 0]

The first line on stdout, once the socket listens, is `listening on 127.0.0.1:PORT`.
"""
import argparse
import asyncio
import http
import json
import sys
import time

from websockets.asyncio.server import broadcast, serve


class Broadcaster:
    def __init__(self, frames, rate):
        self.frames = frames
        self.rate = rate
        self.clients = set()
        self.playing = True
        self.wake = asyncio.Event()
        self.seq = 0

    def active(self):
        return bool(self.clients) and self.playing

    async def handler(self, ws):
        self.clients.add(ws)
        self.wake.set()
        try:
            await ws.send(json.dumps({"type": "hello", "v": 1, "server": "reference"}))
            async for message in ws:
                try:
                    kind = json.loads(message).get("type")
                except (ValueError, AttributeError):
                    continue
                if kind in ("pause", "play"):
                    self.playing = kind == "play"
                    self.wake.set()
        finally:
            self.clients.discard(ws)

    async def run(self):
        loop = asyncio.get_running_loop()
        period = 1 / self.rate
        index = 0
        while True:
            # Idle (no timer) unless someone watches: the same stance as the bridge.
            while not self.active():
                self.wake.clear()
                await self.wake.wait()
            next_tick = loop.time()
            while self.active():
                # asyncio's timers round up to whole milliseconds (epoll), so above ~500 frames/s
                # one wake-up is often late by a period or more: send every frame that is due
                # (up to 8, as the bridge's player catches up), then sleep until the next.
                now = loop.time()
                due = 0
                while next_tick <= now and due < 8 and self.active():
                    frame = self.frames[index]
                    index = (index + 1) % len(self.frames)
                    self.seq += 1
                    frame["seq"] = self.seq
                    frame["emitted_us"] = time.time_ns() // 1000
                    broadcast(self.clients, json.dumps(frame, separators=(",", ":")))
                    next_tick += period
                    due += 1
                now = loop.time()
                next_tick = max(next_tick, now - period)  # further behind than a period: skip
                await asyncio.sleep(max(0.0, next_tick - now))


def refuse_other_paths(connection, request):
    if request.path.split("?", 1)[0] != "/live":
        return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")
    return None


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", required=True, help="JSON array of frame messages")
    parser.add_argument("--rate", type=float, default=120, help="frames per second")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    with open(args.frames) as f:
        frames = json.load(f)
    broadcaster = Broadcaster(frames, args.rate)
    async with serve(broadcaster.handler, args.host, args.port, compression=None,
                     process_request=refuse_other_paths, max_queue=16) as server:
        port = server.sockets[0].getsockname()[1]
        sys.stdout.write(f"listening on {args.host}:{port}\n")
        sys.stdout.flush()
        await broadcaster.run()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
