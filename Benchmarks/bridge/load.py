"""Load benchmark of `pantrace serve` (the LiveBridge) against two peers: a C broadcast server
on the same libwebsockets (`peer_server.c`) and a Python `websockets` reference.

    swift build -c release --product pantrace
    .venv/bin/python Benchmarks/bridge/load.py [--clients 200 --fps 120 --seconds 10 ...]

All servers stream the same frames: the bridge's own `frame` messages, captured once from a
release `pantrace serve` (one full cycle of the default replay at 120 Hz content). The
reference (`reference_server.py`) re-stamps `seq` and `emitted_us` and broadcasts them with
`websockets.broadcast`; the C peer (built here with gcc and pkg-config) fills the same two
numbers into templates of the same bytes, frames them once and appends them to each client's
pending bytes, which it sends in one write whenever the client's socket is writable. The
bridge runs with the hidden `--bench-frame-rate R`: one frame every 1/R s, cycling through
the replay without the 0.6 s loop pause (so the rate is exactly R and may exceed the 240 cap
of `--fps`); everything downstream of frame production (JSON encoding, the `emitted_us`
stamp, the hand-off to the lws threads, per-client outboxes, writes) is the production path.
`--baseline PATH` measures another pantrace build in the same run (the build before a change).

Phases, each against a fresh server process, the servers in turn (interleaved repetitions):
1. idle: no client for `--idle-seconds`; server CPU time over that interval (from
   /proc/PID/task/*/schedstat, ns resolution) and the baseline RSS.
2. latency: `--clients` clients at `--fps` frames/s for `--seconds` after `--warmup`;
   end-to-end latency from `emitted_us` to the client's socket (kernel receive stamp) and to
   the client's read (user space), p50/p99/max; messages/s received; server CPU (% of one
   core, from /proc/PID/stat) and RSS; then idle again once the clients have left.
3. throughput: the same clients with frames offered at each of `--flood-rates` frames/s;
   frame messages/s actually received, frames skipped by the server (conflation, seq gaps),
   server CPU and server CPU µs per delivered message; with `--syscalls`, the server's system
   calls per delivered message (`perf stat` on the syscall tracepoints, which needs no
   hardware counters; it slows every call a little, so it is off by default).
4. idle clients: playback paused by one control connection, RSS before and after
   `--idle-clients` more clients connect, each saying it is a hidden page (a background tab:
   pantrace sends it no frames); growth per client.

Every pantrace client is a page with a view of its own (protocol version 3): in phases 2 and 3
the server makes each page's frame for it (one replay step and one JSON encoding per page per
frame), where the peers broadcast one frame to all.

Clients are raw sockets in `--workers` processes with one epoll loop each: `clients.c` (built
here with gcc; `--client c`, the default) or `clients.py` (`--client python`), the same
clients and output. All processes share this machine's cores with the server under test, so
the client side caps what can be measured at high rates: the report prints the clients' CPU
too, and the C clients cost a fraction of the Python ones.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from websockets.sync.client import connect

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


# MARK: Process measurements

def cpu_times(pid):
    """(user, system) CPU seconds of the whole process (live and exited threads), 1/TICKS s resolution."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


def cpu_seconds_fine(pid):
    """(on-CPU seconds, times scheduled) of the live threads, ns resolution (for idle intervals)."""
    total, runs = 0, 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                fields = f.read().split()
            total += int(fields[0])
            runs += int(fields[2])
        except FileNotFoundError:
            pass
    return total / 1e9, runs


def machine_cpu():
    """(busy, softirq, steal, total) jiffies over all cores, from /proc/stat (guest time is in user)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:9]]  # user … softirq, steal
    idle = values[3] + values[4]
    return sum(values) - idle - values[7], values[6], values[7], sum(values)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# MARK: Servers

class Server:
    """A server under test: `kind` is one of KINDS ("baseline" is `--baseline`, another pantrace build)."""

    def __init__(self, kind, args, rate, workdir):
        self.kind = kind
        if kind in ("pantrace", "baseline"):
            binary = args.pantrace if kind == "pantrace" else args.baseline
            command = [str(binary), "serve", "--port", "0", "--recordings", str(args.recordings),
                       "--web", str(workdir / "web"), "--fps", str(args.content_fps),
                       "--bench-frame-rate", str(rate)]
        elif kind == "peer":
            command = [str(workdir / "peer_server"), "--port", "0", "--frames", str(workdir / "frames.txt"),
                       "--rate", str(rate)]
        elif kind == "peer-timeline":
            # Every message a watching page was sent over one cycle, at the same moments
            # (device_fanout.py captures it).
            command = [str(workdir / "peer_server"), "--port", "0", "--timeline", str(workdir / "timeline.txt"),
                       "--rate", str(rate)]
        else:
            command = [sys.executable, str(HERE / "reference_server.py"), "--port", "0",
                       "--frames", str(workdir / "frames.json"), "--rate", str(rate)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if kind in ("pantrace", "baseline"):
            match = re.search(r"http://([\d.]+):(\d+)/\?token=([0-9a-f]+)", line)
            if not match:
                self.process.kill()
                raise RuntimeError(f"pantrace serve did not start: {line!r}")
            self.port, self.token = int(match.group(2)), match.group(3)
        else:
            match = re.search(r"listening on [\d.]+:(\d+)", line)
            if not match:
                self.process.kill()
                raise RuntimeError(f"{kind} server did not start: {line!r}")
            self.port, self.token = int(match.group(1)), None
        self.pid = self.process.pid

    def ws_url(self):
        query = f"&token={self.token}" if self.token else ""
        return f"ws://127.0.0.1:{self.port}/live?v=3{query}"

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Clients:
    """`count` raw clients split over `workers` processes of clients.py."""

    program = [sys.executable, str(HERE / "clients.py")]  # or the C clients (build_clients)

    def __init__(self, server, count, workers, hidden=False, own_views=False, watch=None, live_only=False):
        per = [count // workers + (1 if i < count % workers else 0) for i in range(workers)]
        extra = ["--hidden"] if hidden else []
        if live_only and watch is None:
            extra += ["--live-only"]
        if watch is not None:
            # Each page pauses its own view and watches live source `watch` (device_fanout.py).
            extra += ["--path", f"/live?v=3&token={server.token}", "--send", '{"type":"pause"}',
                      "--send", json.dumps({"type": "watch", "source": watch}), "--live-only"]
        if own_views:
            # Each page with the token changes its speed (to 1, as it was): it leaves the shared
            # view, so every page has a view of its own, each frame made and encoded per page.
            extra += ["--path", f"/live?v=3&token={server.token}", "--send", '{"type":"speed","value":1}']
        self.processes = [
            subprocess.Popen([*Clients.program, "--port", str(server.port), "--count", str(n), *extra],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for n in per if n]
        for p in self.processes:
            line = p.stdout.readline()
            if not line.startswith("connected"):
                raise RuntimeError(f"clients did not connect: {line!r}")

    def measure(self, seconds):
        for p in self.processes:
            p.stdin.write(f"measure {seconds}\n")
            p.stdin.flush()
        return [json.loads(p.stdout.readline()) for p in self.processes]

    def close(self):
        for p in self.processes:
            try:
                p.stdin.write("quit\n")
                p.stdin.close()
            except BrokenPipeError:
                pass
        for p in self.processes:
            p.wait(timeout=30)


def percentile(hist, q):
    total = sum(hist.values())
    if total == 0:
        return float("nan")
    rank = q * (total - 1)
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen > rank:
            return value
    return max(hist)


def fan_out(results, clients):
    """Per frame seen by every client: emitted → first client's socket, and first → last client."""
    frames = {}
    for r in results:
        for seq, (emitted, first, last) in r["spread"].items():
            seen = frames.get(seq)
            frames[seq] = [emitted, first, last, 1] if seen is None else \
                [emitted, min(first, seen[1]), max(last, seen[2]), seen[3] + 1]
    complete = [f for f in frames.values() if f[3] == len(results)]
    first = {}
    span = {}
    for emitted, a, b, _ in complete:
        first[a - emitted] = first.get(a - emitted, 0) + 1
        span[b - a] = span.get(b - a, 0) + 1
    return first, span


def merged(results, key):
    hist = {}
    for r in results:
        for value, n in r[key].items():
            hist[int(value)] = hist.get(int(value), 0) + n
    return hist


# MARK: Phases

def capture_frames(args, workdir):
    """One cycle of the bridge's own frame messages, to feed the reference."""
    server = Server("pantrace", args, 240, workdir)
    try:
        frames = []
        with connect(server.ws_url(), max_size=None) as ws:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] != "frame":
                    continue
                frames.append(message)
                if len(frames) > 3 and message["frame"] == frames[1]["frame"]:
                    break
        cycle = frames[1:-1]
        seqs = [f["seq"] for f in frames[1:]]
        if len(cycle) < 2 or seqs != list(range(seqs[0], seqs[0] + len(seqs))):
            raise RuntimeError("could not capture one whole cycle of frames")
        (workdir / "frames.json").write_text(json.dumps(cycle))
        # The C peer's templates: the same compact JSON the reference sends, the two numbers it
        # fills in as placeholders.
        lines = []
        for frame in cycle:
            text = json.dumps({**frame, "seq": 0, "emitted_us": 0}, separators=(",", ":"))
            text = text.replace('"seq":0', '"seq":@S@', 1).replace('"emitted_us":0', '"emitted_us":@E@', 1)
            lines.append(text)
        (workdir / "frames.txt").write_text("\n".join(lines) + "\n")
        sizes = [len(json.dumps(f, separators=(",", ":"))) for f in cycle]
        return {"frames": len(cycle), "mean_bytes": sum(sizes) / len(sizes)}
    finally:
        server.stop()


def build_peer(workdir):
    """Compiles peer_server.c against the system libwebsockets (gcc, pkg-config)."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libwebsockets"], capture_output=True, text=True)
    if flags.returncode != 0:
        sys.exit(f"pkg-config cannot find libwebsockets (apt-get install libwebsockets-dev): {flags.stderr.strip()}")
    command = ["gcc", "-O2", "-Wall", "-o", str(workdir / "peer_server"), str(HERE / "peer_server.c"),
               *flags.stdout.split(), "-lpthread"]
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        sys.exit(f"could not build the C peer ({' '.join(command)}):\n{built.stderr}")


def build_clients(workdir):
    """Compiles clients.c (gcc): the clients of every run, unless `--client python`."""
    command = ["gcc", "-O2", "-Wall", "-o", str(workdir / "clients"), str(HERE / "clients.c")]
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        sys.exit(f"could not build the C clients ({' '.join(command)}):\n{built.stderr}")
    Clients.program = [str(workdir / "clients")]


SYSCALLS = ("sendto", "poll", "epoll_wait", "read", "recvfrom", "write")


def count_syscalls(pid):
    """Starts `perf stat` counting the server's system calls (syscall tracepoints; no hardware
    counters needed); `stop_syscalls` returns {name: count}. None when perf is missing."""
    if not shutil.which("perf"):
        return None
    events = ",".join(f"syscalls:sys_enter_{name}" for name in SYSCALLS)
    return subprocess.Popen(["perf", "stat", "-x", ",", "-e", events, "-p", str(pid)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def stop_syscalls(process):
    if process is None:
        return {}
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    counts = {}
    for line in err.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("syscalls:sys_enter_"):
            try:
                counts[fields[2].removeprefix("syscalls:sys_enter_")] = int(fields[0])
            except ValueError:
                pass  # "<not supported>"
    return counts


def idle_cpu(server, seconds):
    """CPU seconds and wake-ups over `seconds` of doing nothing."""
    cpu0, runs0 = cpu_seconds_fine(server.pid)
    time.sleep(seconds)
    cpu1, runs1 = cpu_seconds_fine(server.pid)
    return cpu1 - cpu0, runs1 - runs0


def streaming_run(kind, args, workdir, rate, seconds, measure_idle, own_views=False):
    server = Server(kind, args, rate, workdir)
    out = {}
    try:
        if measure_idle:
            time.sleep(0.5)  # past start-up
            out["idle_cpu_s"], out["idle_wakeups"] = idle_cpu(server, args.idle_seconds)
        out["rss_before_kib"] = rss_kib(server.pid)
        clients = Clients(server, args.clients, args.workers, own_views=own_views)
        try:
            time.sleep(args.warmup)
            counter = count_syscalls(server.pid) if args.syscalls else None
            (user0, sys0), t0, m0 = cpu_times(server.pid), time.monotonic(), machine_cpu()
            results = clients.measure(seconds)
            (user1, sys1), t1, m1 = cpu_times(server.pid), time.monotonic(), machine_cpu()
            syscalls = stop_syscalls(counter)
            cpu0, cpu1 = user0 + sys0, user1 + sys1
            out["rss_during_kib"] = rss_kib(server.pid)
        finally:
            clients.close()
        wall = max(r["seconds"] for r in results)
        frames = sum(r["frames"] for r in results)
        kernel, user = merged(results, "kernel_hist"), merged(results, "user_hist")
        first, span = fan_out(results, args.clients)
        out.update({
            "rate": rate, "clients": args.clients, "seconds": wall,
            "frames_per_s": frames / wall, "offered_per_s": rate * args.clients,
            "skipped": sum(r["gaps"] for r in results), "closed": sum(r["closed"] for r in results),
            "server_cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
            "server_kernel_share_pct": 100 * (sys1 - sys0) / (cpu1 - cpu0) if cpu1 > cpu0 else float("nan"),
            "server_cpu_us_per_msg": 1e6 * (cpu1 - cpu0) / frames if frames else float("nan"),
            "client_cpu_pct": 100 * sum(r["cpu_s"] for r in results) / wall,
            "machine_busy_pct": 100 * (m1[0] - m0[0]) / (m1[3] - m0[3]),
            "machine_softirq_pct": 100 * (m1[1] - m0[1]) / (m1[3] - m0[3]),
            "machine_steal_pct": 100 * (m1[2] - m0[2]) / (m1[3] - m0[3]),
            "kernel_p50_us": percentile(kernel, 0.50), "kernel_p99_us": percentile(kernel, 0.99),
            "kernel_max_us": max(kernel) if kernel else float("nan"),
            "user_p50_us": percentile(user, 0.50), "user_p99_us": percentile(user, 0.99),
            "first_client_p50_us": percentile(first, 0.50), "first_client_p99_us": percentile(first, 0.99),
            "fan_out_span_p50_us": percentile(span, 0.50), "fan_out_span_p99_us": percentile(span, 0.99),
        })
        # What the server and the clients do not account for: other processes (a shared VM),
        # kernel threads. Tells a quiet run from a disturbed one.
        if frames:
            for name, count in syscalls.items():
                out[f"{name}_per_msg"] = count / frames
        out["other_cpu_pct"] = max(0.0, (os.cpu_count() or 1) * out["machine_busy_pct"]
                                   - out["server_cpu_pct"] - out["client_cpu_pct"])
        if measure_idle:
            time.sleep(1.0)  # the server notices the closes
            out["idle_after_cpu_s"], out["idle_after_wakeups"] = idle_cpu(server, args.idle_seconds)
    finally:
        server.stop()
    return out


def idle_clients_run(kind, args, workdir):
    server = Server(kind, args, args.fps, workdir)
    try:
        with connect(server.ws_url(), max_size=None) as control:
            control.send(json.dumps({"type": "pause"}))
            time.sleep(1.0)
            before = rss_kib(server.pid)
            # Every page has its own view (protocol 3): an idle page is one that says it is
            # hidden, as a background tab does; the peers ignore the message.
            clients = Clients(server, args.idle_clients, args.workers, hidden=True)
            try:
                time.sleep(2.0)
                cpu, wakeups = idle_cpu(server, args.idle_seconds)
                after = rss_kib(server.pid)
            finally:
                clients.close()
        return {"idle_clients": args.idle_clients, "rss_before_kib": before, "rss_after_kib": after,
                "kib_per_idle_client": (after - before) / args.idle_clients,
                "idle_clients_cpu_s": cpu, "idle_clients_wakeups": wakeups}
    finally:
        server.stop()


def median_run(runs):
    """Each numeric measure's median over repeated runs (idle measures come from the first)."""
    out = dict(runs[0])
    out["range"] = {}
    for key, value in runs[0].items():
        values = sorted(r[key] for r in runs if key in r)
        if isinstance(value, (int, float)) and len(values) == len(runs):
            out[key] = values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
            out["range"][key] = (values[0], values[-1])
    out["repetitions"] = len(runs)
    return out


# MARK: Report

def syscall_cell(run):
    """`sendto 0.12, poll 0.05, …` (per delivered message), or empty without --syscalls."""
    return ", ".join(f"{name} {run[f'{name}_per_msg']:.3f}" for name in SYSCALLS
                     if run.get(f"{name}_per_msg"))


NAMES = {"pantrace": "pantrace serve", "baseline": "baseline build", "peer": "C peer (lws, coalescing)",
         "reference": "reference (websockets)"}


def report(results, args, capture):
    kinds = list(results)
    compared = [k for k in ("peer", "reference") if k in results and "pantrace" in results]

    def best(kind):
        """The throughput run (median over repeats) that delivered the most messages/s."""
        return max(results[kind]["flood"], key=lambda run: run["frames_per_s"])

    has_flood = all(results[k]["flood"] for k in kinds)

    def cell(run, key, fmt, scale=1.0):
        text = fmt.format(run[key] * scale)
        low, high = run.get("range", {}).get(key, (None, None))
        if low is not None and args.repeat > 1:
            text += f" ({fmt.format(low * scale)}–{fmt.format(high * scale)})"
        return text

    lines = [
        f"{args.clients} clients, {args.fps:g} frames/s for {args.seconds:g} s "
        f"(frames: {capture['frames']}-frame cycle, {capture['mean_bytes']:.0f} B mean), "
        f"{args.workers} client process(es), {os.cpu_count()} cores shared by everything; "
        f"medians of {args.repeat} interleaved repetitions (range in brackets)",
        "",
        "| measure | " + " | ".join(NAMES[k] for k in kinds) + " | "
        + " | ".join(f"pantrace / {k}" for k in compared) + " |",
        "|---|" + "---:|" * (len(kinds) + len(compared)),
    ]

    def row(label, pick, key, fmt, ratio=True, scale=1.0):
        runs = {k: pick(k) for k in kinds}
        ratios = []
        for k in compared:
            a, b = runs["pantrace"][key], runs[k][key]
            ratios.append(f"{a / b:.2f}×" if ratio and b else "")
        lines.append(f"| {label} | " + " | ".join(cell(runs[k], key, fmt, scale) for k in kinds) + " | "
                     + " | ".join(ratios) + " |")

    latency = lambda k: results[k]["latency"]  # noqa: E731
    idle = lambda k: results[k]["idle"]  # noqa: E731
    row("latency p50, to client socket (µs)", latency, "kernel_p50_us", "{:,.0f}")
    row("latency p99, to client socket (µs)", latency, "kernel_p99_us", "{:,.0f}")
    row("latency max, to client socket (µs)", latency, "kernel_max_us", "{:,.0f}")
    row("of which: emitted → first client's socket, p50 (µs)", latency, "first_client_p50_us", "{:,.0f}")
    row(f"of which: first → last of {args.clients} clients (fan-out span), p50 (µs)", latency, "fan_out_span_p50_us", "{:,.0f}")
    row("latency p50, to client read (µs)", latency, "user_p50_us", "{:,.0f}")
    row("latency p99, to client read (µs)", latency, "user_p99_us", "{:,.0f}")
    row(f"messages/s received at {args.fps:g} fps (offered {args.fps * args.clients:,.0f})", latency, "frames_per_s", "{:,.0f}")
    row(f"server CPU at {args.fps:g} fps (% of one core)", latency, "server_cpu_pct", "{:.1f}")
    row(f"share of that CPU in the kernel at {args.fps:g} fps (%)", latency, "server_kernel_share_pct", "{:.0f}", ratio=False)
    row(f"server CPU per message at {args.fps:g} fps (µs)", latency, "server_cpu_us_per_msg", "{:.2f}")
    if args.syscalls:
        lines.append(f"| system calls per message at {args.fps:g} fps | "
                     + " | ".join(syscall_cell(latency(k)) for k in kinds) + " |" + " |" * len(compared))
    row("server RSS, no clients (MiB)", latency, "rss_before_kib", "{:.1f}", scale=1 / 1024)
    row(f"server RSS, {args.clients} streaming clients (MiB)", latency, "rss_during_kib", "{:.1f}", scale=1 / 1024)
    if all("kib_per_idle_client" in idle(k) for k in kinds):
        row(f"RSS growth per idle client ({args.idle_clients} clients, KiB)", idle, "kib_per_idle_client", "{:.1f}")
        row(f"server CPU with {args.idle_clients} idle clients, {args.idle_seconds:g} s (ms)", idle, "idle_clients_cpu_s",
            "{:.1f}", ratio=False, scale=1e3)
    row(f"server CPU, no clients, {args.idle_seconds:g} s (ms)", latency, "idle_cpu_s", "{:.2f}", ratio=False, scale=1e3)
    row(f"server threads woken, no clients, {args.idle_seconds:g} s", latency, "idle_wakeups", "{:,}", ratio=False)
    row(f"machine CPU busy at {args.fps:g} fps (% of all {os.cpu_count()} cores)", latency, "machine_busy_pct", "{:.0f}", ratio=False)
    row("hypervisor steal in that interval (% of all cores)", latency, "machine_steal_pct", "{:.1f}", ratio=False)
    row("CPU of everything else in that interval (% of one core)", latency, "other_cpu_pct", "{:.0f}", ratio=False)
    if has_flood:
        row("peak messages/s received (best throughput run)", best, "frames_per_s", "{:,.0f}")
        row("server CPU per delivered message at that peak (µs)", best, "server_cpu_us_per_msg", "{:.2f}")
    lines += ["", "Throughput runs (frames offered per second × clients; received = frame messages counted by clients):", "",
              "| server | offered fps | offered msg/s | received msg/s | skipped by server | server CPU % (kernel share) | server CPU µs/msg | client CPU % | machine busy % (softirq) | everything else, % of one core | p50 / p99 to socket (µs) | system calls per delivered msg |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for kind in kinds:
        for run in results[kind]["flood"]:
            lines.append(
                f"| {kind} | {run['rate']:g} | {run['offered_per_s']:,.0f} | {cell(run, 'frames_per_s', '{:,.0f}')} | {run['skipped']:,.0f} "
                f"| {run['server_cpu_pct']:.0f} ({run['server_kernel_share_pct']:.0f} %) | {cell(run, 'server_cpu_us_per_msg', '{:.2f}')} "
                f"| {run['client_cpu_pct']:.0f} | {run['machine_busy_pct']:.0f} ({run['machine_softirq_pct']:.0f}) "
                f"| {run['other_cpu_pct']:.0f} | {run['kernel_p50_us']:,.0f} / {run['kernel_p99_us']:,.0f} "
                f"| {syscall_cell(run)} |")
    distinct = {k: results[k].get("distinct") for k in kinds if results[k].get("distinct")}
    if distinct:
        lines += ["", f"{args.clients} pages, each with a view of its own, at {args.fps:g} fps (the worst case: every frame made and encoded per page):", "",
                  "| server | received msg/s | skipped by server | server CPU % | server CPU µs/msg | p50 / p99 to socket (µs) |",
                  "|---|---:|---:|---:|---:|---:|"]
        for kind, run in distinct.items():
            lines.append(f"| {kind} | {cell(run, 'frames_per_s', '{:,.0f}')} | {run['skipped']:,.0f} | {run['server_cpu_pct']:.0f} "
                         f"| {cell(run, 'server_cpu_us_per_msg', '{:.2f}')} | {run['kernel_p50_us']:,.0f} / {run['kernel_p99_us']:,.0f} |")
    if "pantrace" in results and "peer" in results and has_flood:
        p, c = best("pantrace"), best("peer")
        peak = p["frames_per_s"] / c["frames_per_s"]
        cpu = p["server_cpu_us_per_msg"] / c["server_cpu_us_per_msg"]
        lines += ["", "Fan-out goals (issue 30), medians of this run; the pages share one view (the first view):", "",
                  f"- peak delivered messages/s: {p['frames_per_s']:,.0f} against the C peer's {c['frames_per_s']:,.0f}: "
                  f"**{peak:.2f}×** (goal ≥ 1×: {'met' if peak >= 1 else 'not met'})",
                  f"- server CPU per delivered message at each one's peak: {p['server_cpu_us_per_msg']:.2f} against "
                  f"{c['server_cpu_us_per_msg']:.2f} µs: **{cpu:.2f}×** (goal ≤ 1.5×: {'met' if cpu <= 1.5 else 'not met'})"]
        if distinct.get("pantrace"):
            own = distinct["pantrace"]["frames_per_s"] / results["peer"]["latency"]["frames_per_s"]
            lines.append(f"- {args.clients} distinct views at {args.fps:g} fps: {distinct['pantrace']['frames_per_s']:,.0f} msg/s against the "
                         f"C peer's {results['peer']['latency']['frames_per_s']:,.0f} (one buffer): **{own:.2f}×** (goal ≥ 0.5×: {'met' if own >= 0.5 else 'not met'})")
        p99 = results["pantrace"]["latency"]["kernel_p99_us"]
        if "baseline" in results:
            before = results["baseline"]["latency"]["kernel_p99_us"]
            lines.append(f"- p99 at {args.fps:g} fps × {args.clients}: {p99:,.0f} µs against the baseline build's {before:,.0f} µs: "
                         f"**{p99 / before:.2f}×** (goal ≤ 1×, no worse: {'met' if p99 <= before else 'not met'})")
        else:
            lines.append(f"- p99 at {args.fps:g} fps × {args.clients}: {p99:,.0f} µs "
                         f"(the C peer's {results['peer']['latency']['kernel_p99_us']:,.0f} µs; `--baseline PATH` compares with another build)")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(
        description="Load benchmark: pantrace serve against a C peer on libwebsockets and a Python websockets reference.")
    parser.add_argument("--pantrace", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get("PANTRACE", ROOT / ".build" / "release" / "pantrace")),
                        help="the binary under test (default: $PANTRACE, else .build/release/pantrace)")
    parser.add_argument("--baseline", type=pathlib.Path,
                        help="another pantrace binary measured in the same run (the build before a change)")
    parser.add_argument("--recordings", type=pathlib.Path, default=ROOT / "recordings")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--fps", type=float, default=120, help="frames/s in the latency run")
    parser.add_argument("--content-fps", type=float, default=120, help="the replay's frame rate (frame content)")
    parser.add_argument("--seconds", type=float, default=10, help="measured interval of the latency run")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--flood-rates", default="1000,2000,4000", help="frames/s offered in the throughput runs")
    parser.add_argument("--flood-seconds", type=float, default=5)
    parser.add_argument("--idle-clients", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=5)
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--client", choices=["c", "python"], default="c", help="the clients: clients.c (default) or clients.py")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of the latency and throughput runs (median reported)")
    parser.add_argument("--only", help="comma-separated servers to measure, of pantrace, baseline, peer, reference")
    parser.add_argument("--syscalls", action="store_true",
                        help="count the server's system calls per delivered message with `perf stat` (syscall tracepoints)")
    parser.add_argument("--skip-idle-clients", action="store_true", help="leave out the 1,000 idle clients phase")
    parser.add_argument("--json", type=pathlib.Path, help="also write the raw results here")
    args = parser.parse_args()
    if not args.pantrace.exists():
        sys.exit(f"{args.pantrace} not found: swift build -c release --product pantrace")
    if args.baseline and not args.baseline.exists():
        sys.exit(f"--baseline {args.baseline} not found")
    kinds = ["pantrace"] + (["baseline"] if args.baseline else []) + ["peer", "reference"]
    if args.only:
        wanted = args.only.split(",")
        unknown = [k for k in wanted if k not in kinds]
        if unknown:
            sys.exit(f"--only: unknown server(s) {', '.join(unknown)} (of {', '.join(kinds)})")
        kinds = [k for k in kinds if k in wanted]

    workdir = pathlib.Path(tempfile.mkdtemp(prefix="pantrace-bench-"))
    (workdir / "web").mkdir()  # the bridge needs a web folder; the benchmark serves no page
    try:
        capture = capture_frames(args, workdir)
        print(f"captured {capture['frames']} frames, {capture['mean_bytes']:.0f} B mean", file=sys.stderr)
        if "peer" in kinds:
            build_peer(workdir)
        if args.client == "c":
            build_clients(workdir)
        print(f"clients: {' '.join(Clients.program)}", file=sys.stderr)
        rates = [float(x) for x in args.flood_rates.split(",") if x]
        runs = {kind: {"latency": [], "distinct": [], "flood": {rate: [] for rate in rates}} for kind in kinds}
        # Repetitions interleave the servers, so a change in the machine's background load
        # (a shared VM) lands on both; the report gives the median of each measure.
        for repetition in range(args.repeat):
            for kind in kinds:
                print(f"[{repetition + 1}/{args.repeat}] {kind}: latency run", file=sys.stderr)
                runs[kind]["latency"].append(streaming_run(
                    kind, args, workdir, args.fps, args.seconds, measure_idle=repetition == 0))
                if kind in ("pantrace", "baseline") and args.client == "c":
                    print(f"[{repetition + 1}/{args.repeat}] {kind}: {args.clients} distinct views", file=sys.stderr)
                    runs[kind]["distinct"].append(streaming_run(
                        kind, args, workdir, args.fps, args.seconds, measure_idle=False, own_views=True))
            for rate in rates:
                for kind in kinds:
                    print(f"[{repetition + 1}/{args.repeat}] {kind}: throughput run at {rate:g} frames/s", file=sys.stderr)
                    runs[kind]["flood"][rate].append(streaming_run(
                        kind, args, workdir, rate, args.flood_seconds, measure_idle=False))
        results = {}
        for kind in kinds:
            print(f"{kind}: idle clients", file=sys.stderr)
            results[kind] = {
                "latency": median_run(runs[kind]["latency"]),
                "distinct": median_run(runs[kind]["distinct"]) if runs[kind]["distinct"] else {},
                "flood": [median_run(runs[kind]["flood"][rate]) for rate in rates],
                "idle": {} if args.skip_idle_clients else idle_clients_run(kind, args, workdir),
                "runs": runs[kind],
            }
            print(json.dumps({k: v for k, v in results[kind].items() if k != "runs"}, indent=1), file=sys.stderr)
        if args.json:
            args.json.write_text(json.dumps({"capture": capture, "results": results, "args": vars(args)}, default=str, indent=1))
        print(report(results, args, capture))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
