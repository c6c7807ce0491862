"""A device's samples to many watching pages, with C clients, against the C peer broadcasting
the same bytes at the same rate in the same run (issue 30's live-latency goal).

`pantrace serve` (release) with one device (a WebSocket client with the token and
`role=source`) streaming UIKit-style samples at 120 Hz, pans of 0.5 s again and again; N pages
(`clients.c`, C, raw sockets) each pause their own view and watch the device, so the frames
counted (`--live-only`: `load` −1) are the device's gesture through their setting. All pages have one setting, so each
sample makes one frame, encoded once and written to every page. Latency is the frame's
`emitted_us` (stamped when the server encodes it) to the kernel's receive stamp on each page's
socket, p50 and p99 over every frame at every page: the server's part (the device's own send to
the server, one loopback write, is not in it). The C peer (`peer_server.c`) is run with the
same client count twice: at the same 120 frames a second with frames of the bridge's own bytes
(frames only), and with the same bytes at the same moments (`--timeline`): every message one
watching page was sent over one cycle of the device's gestures, captured from the bridge first —
the live frames, the device's status, and at each release the library and the released
gesture's replay (its series, about 96 KB for a 5 s pan, and its frames). A release costs every
page that much writing, the peer too: the second comparison is the one the goal names.

    .venv/bin/python Benchmarks/bridge/device_fanout.py [--pantrace .build/release/pantrace] [--pages 200,1000] [--seconds 5]
"""
import argparse
import json
import pathlib
import re
import shutil
import sys
import tempfile
import threading
import time

from websockets.sync.client import connect

import load


def stream(url, stop):
    """The device: announce, then 120 samples a second until `stop` is set."""
    with connect(url + "&role=source", max_size=None) as device:
        device.send(json.dumps({"type": "source", "session": "device-fanout-1", "name": "bench", "platform": "ios",
                                "screen": {"width": 390, "height": 844}, "scale": 3}))
        while json.loads(device.recv(timeout=10))["type"] != "source_ready":
            pass
        seq, t, start = 0, 100.0, time.monotonic()
        while not stop.is_set():
            batch = []
            for i in range(600):  # a 5 s pan
                seq += 1
                state = "began" if i == 0 else ("ended" if i == 599 else "changed")
                batch.append({"seq": seq, "t": t, "state": state, "tx": 0.0, "ty": 0.3 * i, "vx": 0.0, "vy": 36.0})
                t += 1 / 120
            for sample in batch:
                if stop.is_set():
                    break
                device.send(json.dumps({"type": "samples", "samples": [sample]}))
                due = start + (sample["seq"]) / 120
                time.sleep(max(0.0, due - time.monotonic()))  # pacing the device's rate, not waiting for an event
                while True:  # drain acks without blocking
                    try:
                        device.recv(timeout=0)
                    except TimeoutError:
                        break


def capture_timeline(args, workdir):
    """Writes timeline.txt: what one watching page is sent over one cycle of the device's
    gestures (from the first live frame of one gesture to the first of the next), each message
    with its offset in microseconds, `seq` and `emitted_us` of frames left as placeholders."""
    server = load.Server("pantrace", args, 120, workdir)
    done = threading.Event()
    device = threading.Thread(target=stream, args=(server.ws_url(), done), daemon=True)
    try:
        device.start()
        time.sleep(1.0)
        received = []
        with connect(server.ws_url(), max_size=None) as page:
            page.send('{"type":"pause"}')
            page.send('{"type":"watch","source":1}')
            deadline = time.monotonic() + 13  # two whole 5 s pans and the start of a third
            while time.monotonic() < deadline:
                try:
                    text = page.recv(timeout=0.5)
                except TimeoutError:
                    continue
                received.append((time.monotonic(), text))
    finally:
        done.set()
        device.join(timeout=5)
        server.stop()
    # A gesture starts at the first live frame (load -1) naming a file the one before did not.
    starts, previous = [], None
    for i, (_, text) in enumerate(received):
        if '"type":"frame"' in text and '"load":-1' in text:
            file = re.search(r'"recording":"([^"]*)"', text)
            file = file.group(1) if file else None
            if file != previous:
                starts.append(i)
            previous = file
    if len(starts) < 3:
        sys.exit(f"device_fanout: could not capture a whole gesture cycle ({len(starts)} gesture starts seen)")
    first, last = starts[1], starts[2]
    origin = received[first][0]
    lines = []
    for moment, text in received[first:last]:
        if '"type":"frame"' in text:
            text = re.sub(r'"seq":\d+', '"seq":@S@', text, count=1)
            text = re.sub(r'"emitted_us":\d+', '"emitted_us":@E@', text, count=1)
        lines.append(f"{int((moment - origin) * 1e6)}\t{text}")
    (workdir / "timeline.txt").write_text("\n".join(lines) + "\n")
    sizes = sum(len(text) for _, text in received[first:last])
    print(f"timeline: {len(lines)} messages, {sizes / 1e3:.0f} KB a page over {(received[last][0] - origin):.1f} s", file=sys.stderr)


def run(kind, args, workdir, pages):
    server = load.Server(kind, args, 120, workdir)
    try:
        if kind == "pantrace":
            done = threading.Event()
            device = threading.Thread(target=stream, args=(server.ws_url(), done), daemon=True)
            device.start()
            time.sleep(1.0)  # the device is announced (source 1)
            clients = load.Clients(server, pages, args.workers, watch=1)
        else:
            clients = load.Clients(server, pages, args.workers, live_only=kind == "peer-timeline")
        try:
            # Past the joins: each page with the token is sent a hello (57 KB) and the first
            # view's series, and pauses (a copy of the view): about 4 s for 1,000 pages here.
            time.sleep(max(args.warmup, pages / 100))
            (u0, s0), t0 = load.cpu_times(server.pid), time.monotonic()
            results = clients.measure(args.seconds)
            (u1, s1), t1 = load.cpu_times(server.pid), time.monotonic()
        finally:
            clients.close()
            if kind == "pantrace":
                done.set()
                device.join(timeout=5)
        frames = sum(r["frames"] for r in results)
        wall = max(r["seconds"] for r in results)
        kernel = load.merged(results, "kernel_hist")
        return {"pages": pages, "frames_per_s": frames / wall, "p50_us": load.percentile(kernel, 0.5),
                "p99_us": load.percentile(kernel, 0.99), "cpu_us_per_msg": 1e6 * ((u1 + s1) - (u0 + s0)) / frames if frames else float("nan"),
                "server_cpu_pct": 100 * ((u1 + s1) - (u0 + s0)) / (t1 - t0)}
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pantrace", type=pathlib.Path, default=load.ROOT / ".build/release/pantrace")
    parser.add_argument("--recordings", type=pathlib.Path, default=load.ROOT / "recordings")
    parser.add_argument("--pages", default="200,1000")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    args.content_fps, args.baseline = 120, None
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="pantrace-devfan-"))
    (workdir / "web").mkdir()
    try:
        load.capture_frames(args, workdir)
        load.build_peer(workdir)
        load.build_clients(workdir)
        capture_timeline(args, workdir)
        rows = []
        for pages in [int(x) for x in args.pages.split(",")]:
            for repetition in range(args.repeat):
                ours = run("pantrace", args, workdir, pages)
                peer, same = run("peer", args, workdir, pages), run("peer-timeline", args, workdir, pages)
                print(json.dumps({"pantrace": ours, "peer": peer, "peer_same_bytes": same}), file=sys.stderr)
                rows.append((pages, ours, peer, same))
        print("| pages | pantrace: device frames/s | p50 / p99 to socket | C peer, frames only: p50 / p99 | ratio | "
              "C peer, the same bytes: frames/s | p50 / p99 | ratio |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for pages, ours, peer, same in rows:
            print(f"| {pages} | {ours['frames_per_s']:,.0f} | {ours['p50_us'] / 1000:.2f} / {ours['p99_us'] / 1000:.2f} ms "
                  f"| {peer['p50_us'] / 1000:.2f} / {peer['p99_us'] / 1000:.2f} ms | {ours['p99_us'] / peer['p99_us']:.2f}× "
                  f"| {same['frames_per_s']:,.0f} | {same['p50_us'] / 1000:.2f} / {same['p99_us'] / 1000:.2f} ms "
                  f"| {ours['p99_us'] / same['p99_us']:.2f}× |")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
