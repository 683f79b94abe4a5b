"""End-to-end service benchmark: POST /submit?wait latency and throughput of `numjudge serve`.

Starts a real `numjudge serve` (SQLite database, SQLite queue, the default number of grading
threads: the cores plus two, and one for regrades) in a temporary folder, waits until it is
idle (a fresh server prepares every exercise in the background first), submits the reference
of an exercise, and prints each figure as a ratio to a cold `python -c "import numpy"`
measured in the same run:

- latency: median and p95 of sequential `POST /submit?wait=30` (HTTP + database + queue +
  sandboxed grading + storing the result), goal: median <= 1/4 of the cold start;
- throughput: submissions per second with 8 concurrent clients, goal: >= 4 times what two
  workers that each pay one cold start per submission could do (2 / cold start).

    python bench/service.py [--exercise gru-update-gate] [--requests 60] [--write]

`--write` replaces the "## Service" section of docs/performance.md with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

import httpx

REPO = Path(__file__).resolve().parents[1]
NUMJUDGE = str(Path(sys.executable).parent / "numjudge")
CLIENTS = 8
CPU_GOAL_MS = 12.0
"""Issue 44's goal for the service's CPU per submission (server, zygotes and sandboxes)."""
CPU_BEFORE_MS = 24.1
"""What it was when issue 44 was filed (docs/performance.md keeps the history)."""


@contextlib.contextmanager
def profiled(pid: int, output: Path | None) -> Iterator[None]:
    """Record ``pid``'s threads with py-spy (a sampling profiler that attaches from outside,
    so the server runs unchanged) while the block runs, into ``output``; nothing without it."""
    if output is None:
        yield
        return
    spy = str(Path(sys.executable).parent / "py-spy")
    options = ["--gil", "--rate", "250", "--format", "raw", "--output", str(output)]
    recorder = subprocess.Popen(
        [spy, "record", "--pid", str(pid), *options],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(1)  # attached before the load starts
    try:
        yield
    finally:
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=60)


def cold_numpy_import(runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import numpy"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def engine_only(exercise: str, code: str, runs: int = 40) -> float:
    """Median of the engine's own `grade` with a warm pool (no HTTP, database or queue)."""
    from graders.api import ExerciseCatalog, Sandbox, grade

    prepared = ExerciseCatalog(REPO / "exercises").prepared(exercise)
    with Sandbox(workers=2) as sandbox:
        for _ in range(5):
            grade(prepared, code, sandbox)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            grade(prepared, code, sandbox)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(folder: Path, learners: int) -> tuple[subprocess.Popen[bytes], str, list[str]]:
    """A fresh ``numjudge serve`` and one token per learner (each learner grades one at a
    time, so the load comes from ``learners`` learners, like a class)."""
    env = {
        **os.environ,
        "NUMJUDGE_DATABASE_URL": f"sqlite:///{folder / 'numjudge.db'}",
        "NUMJUDGE_QUEUE_URL": f"sqlite:///{folder / 'queue.db'}",
        "NUMJUDGE_EXERCISES_DIR": str(REPO / "exercises"),
        "NUMJUDGE_LOG_LEVEL": "WARNING",
    }
    tokens = [
        subprocess.run(
            [NUMJUDGE, "users", "add", f"bench{i}"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.strip()
        .splitlines()[-1]
        for i in range(learners)
    ]
    port = free_port()
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(
        [NUMJUDGE, "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url, tokens
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("numjudge serve did not start; see " + str(folder / "serve.log"))


@dataclass(frozen=True)
class Answered:
    """One ``POST /submit?wait`` as its client saw it, in seconds; the three parts read the
    server's times in the answer against this host's clock (the server's own)."""

    elapsed: float
    before_acceptance: float
    """From sending to the row's acceptance: HTTP, the token, the checks, the insert."""
    ladder: float
    """Acceptance to release, as the learner sees it: a boundary of the ladder."""
    after_release: float
    """From the release to the answer's arrival: the wake-up, the answer's JSON, HTTP."""


class Client:
    """One keep-alive connection, like an editor plugin's. The standard library's client:
    the load generator shares the server's two cores, so it should cost as little as it can."""

    def __init__(self, url: str, token: str) -> None:
        address = urlsplit(url)
        self.connection = http.client.HTTPConnection(
            address.hostname or "127.0.0.1", address.port, timeout=60
        )
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def submit(self, exercise: str, code: str) -> Answered:
        body = json.dumps({"exercise": exercise, "code": code})
        sent = time.time()
        start = time.perf_counter()
        self.connection.request("POST", "/submit?wait=30", body=body, headers=self.headers)
        response = self.connection.getresponse()
        data = json.loads(response.read())
        elapsed = time.perf_counter() - start
        came = time.time()
        if (
            response.status != 202
            or data.get("status") != "done"
            or data.get("verdict") != "passed"
        ):
            raise SystemExit(f"unexpected answer {response.status}: {str(data)[:300]}")
        accepted = datetime.fromisoformat(data["started_at"]).timestamp()
        released = datetime.fromisoformat(data["finished_at"]).timestamp()
        return Answered(elapsed, accepted - sent, released - accepted, came - released)

    def close(self) -> None:
        self.connection.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of a process itself and of the children it reaped."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(value) for value in fields[11:15])
    return (utime + stime) / CLOCK_TICKS, (cutime + cstime) / CLOCK_TICKS


def cpu_snapshot(server_pid: int) -> dict[str, float]:
    """CPU seconds so far of the server, its zygotes, their sandboxes, and the whole machine."""
    zygotes = [
        int(pid)
        for task in Path(f"/proc/{server_pid}/task").iterdir()
        for pid in (task / "children").read_text().split()
    ]
    per_zygote = [process_cpu(pid) for pid in zygotes]
    ticks = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return {
        "server": process_cpu(server_pid)[0],
        "zygotes": sum(own for own, _ in per_zygote),
        "sandboxes": sum(reaped for _, reaped in per_zygote),
        "machine": (sum(ticks) - ticks[3] - ticks[4]) / CLOCK_TICKS,
    }


def tree_cpu(root: int) -> float:
    """CPU seconds so far of a process and of every live or reaped descendant."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue  # the process ended while we looked
    tree, grew = {root}, True
    while grew:
        before = len(tree)
        tree |= {pid for pid, parent in parents.items() if parent in tree}
        grew = len(tree) > before
    total = 0.0
    for pid in tree:
        try:
            own, reaped = process_cpu(pid)
        except (OSError, ValueError):
            continue
        total += own + reaped
    return total


def wait_until_idle(pid: int, limit_s: float = 120.0, window_s: float = 0.5) -> float:
    """Wait until the server and its descendants together stay below a tenth of a core for a
    whole window: a fresh server first prepares every exercise in the background (seconds of
    CPU, part of it in subprocesses that run the mutants, while the server itself waits),
    which would otherwise be counted in the figures below. Returns the seconds waited."""
    start = time.monotonic()
    used = tree_cpu(pid)
    while time.monotonic() - start < limit_s:
        time.sleep(window_s)
        now = tree_cpu(pid)
        if now - used < window_s / 10:
            break
        used = now
    return time.monotonic() - start


def throughput(url: str, tokens: list[str], exercise: str, code: str, total: int) -> float:
    counter = iter(range(total))
    lock = threading.Lock()

    def client_loop(token: str) -> None:
        client = Client(url, token)
        try:
            while True:
                with lock:
                    if next(counter, None) is None:
                        return
                client.submit(exercise, code)
        finally:
            client.close()

    threads = [threading.Thread(target=client_loop, args=(token,)) for token in tokens]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return total / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exercise", default="gru-update-gate")
    parser.add_argument("--requests", type=int, default=60, help="sequential latency samples")
    parser.add_argument("--load", type=int, default=160, help="submissions of the load run")
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    parser.add_argument(
        "--costs", type=Path, help="write the CPU per submission as JSON for bench/capacity.py"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="record with py-spy where the server's threads hold the interpreter lock during "
        "the load run (collapsed stacks)",
    )
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    code = (REPO / "exercises" / args.exercise / "solution.py").read_text()

    cold = cold_numpy_import()
    engine = engine_only(args.exercise, code)
    with tempfile.TemporaryDirectory(prefix="numjudge-bench-") as tmp:
        process, url, tokens = start_server(Path(tmp), CLIENTS)
        try:
            waited = wait_until_idle(process.pid)
            threads = httpx.get(f"{url}/healthz", timeout=5).json()["grading_threads"]
            client = Client(url, tokens[0])
            for _ in range(10):
                client.submit(args.exercise, code)  # warm-up
            answers = [client.submit(args.exercise, code) for _ in range(args.requests)]
            client.close()
            before = cpu_snapshot(process.pid)
            with profiled(process.pid, args.profile):
                rate = throughput(url, tokens, args.exercise, code, args.load)
            after = cpu_snapshot(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)
    cold_cost = 2 / cold  # submissions/s of two workers that each start Python + numpy cold
    latencies = [answer.elapsed for answer in answers]
    median, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    ahead, span, behind = (
        statistics.median(getattr(answer, part) for answer in answers) * 1000
        for part in ("before_acceptance", "ladder", "after_release")
    )
    rows = [
        ('cold `python -c "import numpy"`', f"{cold * 1000:.0f} ms", "1", "reference"),
        (
            "`POST /submit?wait` median",
            f"{median * 1000:.1f} ms",
            f"{median / cold:.2f}",
            "<= 0.25 " + ("met" if median <= cold / 4 else "NOT met"),
        ),
        ("`POST /submit?wait` p95", f"{p95 * 1000:.1f} ms", f"{p95 / cold:.2f}", ""),
        (
            "acceptance to release (the first rung), median",
            f"{span:.1f} ms",
            f"{span / 1000 / cold:.2f}",
            f"before it {ahead:.1f} ms (HTTP, checks, insert), after it {behind:.1f} ms "
            "(wake-up, answer)",
        ),
        (
            "engine alone (`graders.grade`, warm pool), median",
            f"{engine * 1000:.1f} ms",
            f"{engine / cold:.2f}",
            "context: the floor under the service's latency",
        ),
        (
            f"throughput, {CLIENTS} clients",
            f"{rate:.1f} /s",
            f"{rate / cold_cost:.2f} x (2/cold)",
            ">= 4 " + ("met" if rate >= 4 * cold_cost else "NOT met"),
        ),
    ]
    table = ["| figure | value | ratio to cold start | goal |", "|---|---|---|---|"]
    table += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    per_submission = {part: (after[part] - before[part]) / args.load * 1000 for part in after}
    service_cpu = sum(per_submission[part] for part in ("server", "zygotes", "sandboxes"))
    table += [
        "",
        "CPU time per submission during the load run: "
        + ", ".join(f"{part} {ms:.1f} ms" for part, ms in per_submission.items())
        + " (the machine's includes the load generator and the kernel's own threads); "
        f"the service's own (server, zygotes and sandboxes) {service_cpu:.1f} ms, "
        f"{service_cpu / CPU_GOAL_MS:.2f}x the goal of {CPU_GOAL_MS:g} ms "
        f"({service_cpu / CPU_BEFORE_MS:.2f}x issue 44's {CPU_BEFORE_MS:g} ms: "
        + ("met" if service_cpu <= CPU_GOAL_MS else "NOT met")
        + f"). The server was measured once idle, {waited:.1f} s after it answered, with "
        f"{threads} grading threads (one of them for regrades only); the host's load average "
        f"was {load_before:.1f} before the run and {os.getloadavg()[0]:.1f} after it "
        f"({os.cpu_count()} cores): other work on it slows every figure but the ratios.",
    ]
    if args.costs:
        args.costs.write_text(json.dumps(per_submission))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    text = "\n".join(table)
    print(text)
    if args.write:
        write_section(text, machine, args)


def write_section(table: str, machine: str, args: argparse.Namespace) -> None:
    path = REPO / "docs" / "performance.md"
    current = path.read_text() if path.exists() else "# Performance\n"
    section = (
        "## Service\n\n"
        f"`python bench/service.py --write` ({machine}; {time.strftime('%Y-%m-%d')}): a real "
        "`numjudge serve` with SQLite database and SQLite queue, its default grading threads, "
        f"`{args.exercise}`'s reference; latency over {args.requests} sequential "
        f"`POST /submit?wait=30` after 10 warm-ups, throughput over {args.load} submissions "
        f"from {CLIENTS} concurrent clients, each a learner of its own. Each figure is "
        "end-to-end: HTTP, token check, database insert, queue, sandboxed grading, storing "
        "the report, the long-poll wake-up. Measured once the server is idle: a fresh one "
        "first prepares every exercise in the background, seconds of CPU that would "
        "otherwise be counted in the figures."
        "\n\n" + table + "\n"
    )
    pattern = re.compile(r"^## Service\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(current):
        updated = pattern.sub(lambda _: section + "\n", current).rstrip() + "\n"
    else:
        updated = current.rstrip() + "\n\n" + section
    path.write_text(updated)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
