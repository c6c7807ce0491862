"""kill -9 crash safety of live recordings: a SIGKILL loses at most 100 ms of gesture time.

Three writers are tried: `pantrace record --from -` (a pointer log on stdin, csv) into a
file per gesture, the same into a corpus file (`-o rec.pantraces`, docs/FORMAT.md §11), and
`pantrace serve` recording from the viewer's pad (`record`, then `pointer` messages). Each
trial feeds one seeded gesture (a down, then moves 2-20 ms apart, the first already past the
10 pt slop so it is the `began` sample), kills the process with SIGKILL after a seeded-random
move k, and reads what is on disk with `pantrace inspect --json` and `pantrace convert`.

    lost = gesture time of move k - time of the last sample on disk   (no file: all of it)

and it must be <= 100 ms (the writer flushes a chunk at least every 100 ms of gesture time,
docs/CAPTURE.md). No file may be left with 0 bytes or 0 samples.

What "the process had fully received move k" means, without sleeping:

* serve: the controller handles a connection's messages in order on one thread, and an
  unknown message type is answered with a `bad_message` error naming it. After each pointer
  the test sends `{"type":"ack-N"}` and waits for that error: move k has then been handed to
  the recorder (and any chunk it completed written with write(2); SIGKILL keeps what the
  kernel has). Only then is the process killed, with the socket still open: a recorder
  that leaves makes the server finish its gesture, which is not what a crash does.
* record: events go through a pipe, one line per write. The process has received move k
  when the pipe is empty (FIONREAD on our end is 0: it read every byte) and one of its
  threads is blocked in read(2)/readv(2) on that pipe again (/proc/PID/task/*/syscall), i.e.
  it finished with what it read and asks for more. A reader that buffers input until 64 KiB
  or EOF passes this check with the lines unprocessed: the loss then shows it. This assumes
  the log is read with read(2) on one thread, as LogLineReader does (Linux: /proc, FIONREAD).

Feeding is not paced by the wall clock: the recorder's flushes follow gesture time (the
timestamps), and each event is acknowledged before the next, so the result depends only on
the seed. PANTRACE_KILL_TRIALS (default 20; 100 for a longer run), PANTRACE_KILL_SEED, and
PANTRACE_RECORD_FROM (default `-`; e.g. /dev/stdin) for the log `record` reads.
"""
import array
import fcntl
import glob
import json
import os
import platform
import random
import signal
import subprocess
import termios
import time

import pytest
from websockets.sync.client import connect

from conftest import BINARY, start

TRIALS = int(os.environ.get("PANTRACE_KILL_TRIALS", "20"))
SEED = int(os.environ.get("PANTRACE_KILL_SEED", "1763700000"))
MAX_LOSS_MS = 100.0
READ_SYSCALLS = {"x86_64": {"0", "19"}, "aarch64": {"63", "65"}}.get(platform.machine(), {"0"})


def gesture(rng):
    """(t_us, x, y, phase) events: a down, a first move past the slop, then 40-140 moves."""
    t, x, y = 1_000_000 + rng.randrange(1_000_000), 60.0, 400.0
    events = [(t, x, y, "down")]
    for k in range(1 + rng.randrange(40, 140)):
        t += rng.randrange(2_000, 20_001)  # 2-20 ms, whole microseconds
        x, y = (x + 12.5, y) if k == 0 else (round(x + rng.uniform(0.5, 4), 2), round(y + rng.uniform(-1, 1), 2))
        events.append((t, x, y, "move"))
    return events


def on_disk(paths, tmp_path):
    """Problems with the files, and the time (s) of the last sample on disk, or None.

    A corpus file is checked whole (gzip -t, inspect), then extracted into a folder whose
    files are checked like any recording."""
    problems, last = [], None
    files = []
    for path in paths:
        if path.suffix != ".pantraces":
            files.append(path)
            continue
        if path.stat().st_size == 0:
            problems.append(f"{path.name}: 0 bytes")
            continue
        gzip = subprocess.run(["gzip", "-t", str(path)], capture_output=True, text=True)
        inspect = subprocess.run([str(BINARY), "inspect", "--json", str(path)], capture_output=True, text=True)
        if inspect.returncode != 0 or not inspect.stdout.strip():
            problems.append(f"{path.name}: inspect failed ({inspect.returncode}): {inspect.stderr.strip()[-300:]}")
            continue
        folder = tmp_path / f"{path.stem}-extracted"
        extract = subprocess.run([str(BINARY), "convert", str(path), str(folder)], capture_output=True, text=True)
        if extract.returncode != 0:
            problems.append(f"{path.name}: convert to a folder failed: {extract.stderr.strip()[-300:]}")
            continue
        if gzip.returncode != 0:  # every chunk goes out with one write(2): a kill never cuts one
            problems.append(f"{path.name}: gzip -t fails: {gzip.stderr.strip()[-200:]}")
        files += sorted(folder.glob("*.pantrace"))
    for i, path in enumerate(files):
        if path.stat().st_size == 0:
            problems.append(f"{path.name}: 0 bytes")
            continue
        inspect = subprocess.run([str(BINARY), "inspect", "--json", str(path)], capture_output=True, text=True)
        if inspect.returncode != 0:
            problems.append(f"{path.name}: inspect failed ({inspect.returncode}): {inspect.stderr.strip()[-300:]}")
            continue
        if json.loads(inspect.stdout)["samples"] == 0:
            problems.append(f"{path.name}: 0 samples")
            continue
        jsonl = tmp_path / f"disk-{i}.jsonl"
        convert = subprocess.run([str(BINARY), "convert", str(path), str(jsonl)], capture_output=True, text=True)
        if convert.returncode != 0:
            problems.append(f"{path.name}: convert failed: {convert.stderr.strip()[-300:]}")
            continue
        last = max(last or 0.0, json.loads(jsonl.read_text().splitlines()[-1])["t"])
    return problems, last


def unread_bytes(fd):
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def waiting_on_pipe(pid, pipe_inode):
    """Whether a thread of `pid` is blocked in read(2) on the pipe with inode `pipe_inode`."""
    for path in glob.glob(f"/proc/{pid}/task/*/syscall"):
        try:
            fields = open(path).read().split()
            if fields and fields[0] in READ_SYSCALLS:
                if os.readlink(f"/proc/{pid}/fd/{int(fields[1], 16)}") == f"pipe:[{pipe_inode}]":
                    return True
        except (OSError, ValueError, IndexError):
            continue  # the thread or fd went away while we looked
    return False


def feed_record(events, kill_at, tmp_path, corpus=False):
    """`pantrace record --from -` (into a corpus file with `corpus`): returns (files, stderr, note)."""
    source = os.environ.get("PANTRACE_RECORD_FROM", "-")
    output = tmp_path / ("rec.pantraces" if corpus else "rec")
    process = subprocess.Popen(
        [str(BINARY), "record", "--from", source, "--format", "csv", "-o", str(output),
         "--created", "2026-11-21T10:00:00Z"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    fd, note = process.stdin.fileno(), ""
    inode = os.fstat(fd).st_ino
    lines = ["t_ms,x,y,phase,pointer\n" + csv_line(events[0])] + [csv_line(e) for e in events[1:kill_at + 1]]
    try:
        for line in lines:
            os.write(fd, line.encode())
            deadline = time.monotonic() + 5
            while not (unread_bytes(fd) == 0 and waiting_on_pipe(process.pid, inode)):
                if process.poll() is not None:
                    raise RuntimeError(f"exited with {process.returncode} before the kill")
                if time.monotonic() > deadline:
                    raise RuntimeError("did not take the line within 5 s (no thread back in read(2) on the pipe)")
                time.sleep(0.0005)  # poll interval only: the condition above decides, not the time
    except (RuntimeError, BrokenPipeError) as error:
        note = str(error)
    if process.poll() is not None:  # it stopped before the kill: every trial would say the same
        pytest.fail(f"pantrace record --from {source} {note or 'exited'} ({process.returncode}): "
                    f"{process.stderr.read().decode(errors='replace').strip()[-500:]}")
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    stderr = process.stderr.read().decode(errors="replace")
    process.stdin.close()
    return sorted(tmp_path.glob("rec*.pantrace" + ("s" if corpus else ""))), stderr, note


def csv_line(event):
    t_us, x, y, phase = event
    return f"{t_us // 1000}.{t_us % 1000:03d},{x},{y},{phase},1\n"


def feed_serve(events, kill_at, tmp_path, library_template):
    """`pantrace serve` recording over the wire: returns (files, stderr, note)."""
    server = start(tmp_path, library_template)
    note = ""
    try:
        with connect(server.ws(), origin=server.origin, max_size=None, max_queue=None) as ws:
            json.loads(ws.recv(timeout=5))
            ws.send(json.dumps({"type": "pause"}))
            ws.send(json.dumps({"type": "record", "screen": {"width": 390, "height": 844, "scale": 3}, "preset": "swipe-back"}))
            for n, (t_us, x, y, phase) in enumerate(events[:kill_at + 1]):
                ws.send(json.dumps({"type": "pointer", "t_ms": t_us / 1000, "x": x, "y": y, "phase": phase, "pointer": 1}))
                ws.send(json.dumps({"type": f"ack-{n}"}))
                deadline = time.monotonic() + 5
                while True:
                    m = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                    if m["type"] == "error" and f'"ack-{n}"' in m["message"]:
                        break
                    if m["type"] == "error":
                        note = f"event {n}: {m['code']}: {m['message']}"
            server.process.send_signal(signal.SIGKILL)  # before the socket closes: leaving ends the gesture
    except Exception as error:  # noqa: BLE001 - reported with the trial
        note = f"{type(error).__name__}: {error}"
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)
    stderr = server.stderr()
    return sorted((server.recordings / "live").glob("*.pantrace")), stderr, note


@pytest.mark.parametrize("writer", ["record-stdin", "record-corpus", "serve"])
def test_sigkill_loses_at_most_100_ms_of_a_live_recording(writer, tmp_path, library_template):
    rng = random.Random(f"{SEED}-{writer}")
    results, failures = [], []
    started = time.monotonic()
    for trial in range(TRIALS):
        events = gesture(rng)
        kill_at = rng.randrange(1, len(events))  # after move k (1 = the began sample)
        folder = tmp_path / f"trial-{trial}"
        folder.mkdir()
        if writer == "serve":
            files, stderr, note = feed_serve(events, kill_at, folder, library_template)
        else:
            files, stderr, note = feed_record(events, kill_at, folder, corpus=writer == "record-corpus")
        problems, last = on_disk(files, folder)
        received_ms = (events[kill_at][0] - events[1][0]) / 1000
        lost_ms = received_ms - (last * 1000 if last is not None else 0.0)
        results.append(lost_ms)
        line = (f"trial {trial}: killed after move {kill_at} of {len(events) - 1} at {received_ms:.3f} ms; "
                f"on disk {'nothing' if last is None else f'{last * 1000:.3f} ms'} in {len(files)} file(s); lost {lost_ms:.3f} ms")
        if note:
            problems.append(note)
        if lost_ms > MAX_LOSS_MS + 1e-3 or problems:
            tail = "\n    ".join(stderr.strip().splitlines()[-3:])
            failures.append("\n  ".join([line, *problems] + ([f"stderr: {tail}"] if tail else [])))
    worst = max(range(len(results)), key=results.__getitem__)
    print(f"\n[kill -9 {writer}] {TRIALS} trials in {time.monotonic() - started:.1f} s; "
          f"worst loss {results[worst]:.3f} ms (trial {worst}); {len(failures)} failing")
    assert not failures, f"{len(failures)} of {TRIALS} kill trials ({writer}) failed:\n" + "\n".join(failures)
