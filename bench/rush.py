"""Deadline rush: do well-behaved learners stay fast while a few flood the grader?

Starts a real `numjudge serve` (`--workers` grading threads; a SQLite database and queue, or
the `--database-url` and `--queue-url` given: PostgreSQL and Redis, as deployed) with
`--learners` learners. First the idle figure: one learner's sequential `POST /submit?wait=30`
of the reference, nothing else running. Then the rush for `--seconds`: every well-behaved
learner submits the reference at random moments (on average every `--period` seconds) while
`--flooders` learners keep their waiting queue full of code that sleeps past the time limit
(each grading holds a slot for the whole limit; extra submissions get 429). Prints p50 and
p95 of the well-behaved learners' latency as a ratio to the idle service's; goal: p95 <= 3x.

    python bench/rush.py [--learners 200] [--flooders 2] [--workers 4] [--seconds 40]
    python bench/rush.py --flooders 0 --regrades 2000     # a regrade backlog instead
    python bench/rush.py --database-url postgresql+psycopg://... --queue-url redis://...

With `--regrades N`, N graded submissions of an earlier version of the exercise are in the
database. The rush runs twice with the same arrivals: first as it is, then with those N
queued for regrading (`POST /regrades/...`) as it starts. Regrades have threads of their own
at the lowest CPU priority, so the second rush's latency should be the first's.

The per-learner limit (one grading running each, by default) is what keeps the flood to the
flooders' own slots: keep `--flooders` below `--workers`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
NUMJUDGE = str(Path(sys.executable).parent / "numjudge")
EXERCISE = "gru-update-gate"
PLAN_GOAL_S = 2.0
"""The p95 a capacity plan keeps a deadline rush under (issue 44, bench/capacity.py)."""
UNCHANGED = 1.2
"""A regrade backlog leaves the class's latency unchanged: within this factor (the spread of
two rushes without one on a quiet machine)."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def make_learners(database_url: str, count: int, stale: int) -> tuple[list[str], str]:
    """``count`` learners with a token each, an instructor's token, and ``stale`` graded
    submissions of an earlier version, written straight into the database."""
    from app.core.db import session_scope, upgrade_database
    from app.models import Role, SubmissionKind, SubmissionStatus, utcnow
    from app.store import accounts as account_store
    from app.store import submissions as submission_store

    upgrade_database(database_url)
    tokens = []
    solution = (REPO / "exercises" / EXERCISE / "solution.py").read_text()
    with session_scope(database_url) as session:
        learners = []
        for index in range(count):
            user = account_store.create_user(session=session, name=f"rush{index}")
            tokens.append(account_store.create_token(session=session, user=user)[1])
            learners.append(user)
        for index in range(stale):  # spread over the learners, as a class's history is
            row = submission_store.create_submission(
                session=session,
                user=learners[index % count],
                exercise_id=EXERCISE,
                exercise_version="earlier",
                code=solution,
                kind=SubmissionKind.SUBMIT,
                lease_expires_at=utcnow(),
            )
            row.status, row.score, row.max_score = SubmissionStatus.DONE, 1.0, 1.0
        instructor = account_store.create_user(session=session, name="prof", role=Role.INSTRUCTOR)
        instructor_token = account_store.create_token(session=session, user=instructor)[1]
    return tokens, instructor_token


def start_server(
    folder: Path, args: argparse.Namespace
) -> tuple[subprocess.Popen[bytes], str, list[str], str]:
    database_url = args.database_url or f"sqlite:///{folder / 'numjudge.db'}"
    workers, learners, stale = args.workers, args.learners, args.regrades
    env = {
        **os.environ,
        "NUMJUDGE_DATABASE_URL": database_url,
        "NUMJUDGE_QUEUE_URL": args.queue_url or f"sqlite:///{folder / 'queue.db'}",
        "NUMJUDGE_EXERCISES_DIR": str(REPO / "exercises"),
        "NUMJUDGE_LOG_LEVEL": "WARNING",
        "NUMJUDGE_WORKERS": str(workers),
    }
    tokens, instructor = make_learners(database_url, learners, stale)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(
        [NUMJUDGE, "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=folder,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url, tokens, instructor
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("numjudge serve did not become healthy; see " + str(folder / "serve.log"))


class Learner:
    """One learner's client: a connection per submission (the server drops idle ones after
    a few seconds, and a learner thinks longer than that between submissions)."""

    def __init__(self, url: str, token: str) -> None:
        address = urlsplit(url)
        self.host, self.port = address.hostname or "127.0.0.1", address.port
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def submit(self, code: str, wait: int) -> tuple[int, dict[str, object], float]:
        body = json.dumps({"exercise": EXERCISE, "code": code})
        start = time.perf_counter()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            connection.request("POST", f"/submit?wait={wait}", body=body, headers=self.headers)
            response = connection.getresponse()
            data = json.loads(response.read())
        finally:
            connection.close()
        return response.status, data, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--flooders", type=int, default=2)
    parser.add_argument("--workers", type=int, default=4, help="grading threads")
    parser.add_argument("--seconds", type=float, default=40.0, help="length of the rush")
    parser.add_argument(
        "--period",
        type=float,
        default=60.0,
        help="mean seconds between one well-behaved learner's submissions",
    )
    parser.add_argument("--idle", type=int, default=30, help="idle latency samples")
    parser.add_argument(
        "--regrades",
        type=int,
        default=0,
        help="earlier-version submissions queued for regrading at the start",
    )
    parser.add_argument(
        "--database-url",
        help="an empty database to use (a PostgreSQL one, as deployed); default a SQLite file",
    )
    parser.add_argument("--queue-url", help="the queue (redis://...); default a SQLite file")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    solution = (REPO / "exercises" / EXERCISE / "solution.py").read_text()
    from graders.api import ExerciseCatalog

    limit = ExerciseCatalog(REPO / "exercises").load(EXERCISE).limits.time_s
    slow = f"import time\ntime.sleep({limit + 5})\n" + solution
    with tempfile.TemporaryDirectory(prefix="numjudge-rush-") as tmp:
        process, url, tokens, instructor = start_server(Path(tmp), args)
        try:
            probe = Learner(url, tokens[0])
            warm_up(probe, solution)
            idle = [probe.submit(solution, 30)[2] for _ in range(args.idle)]
            # With a backlog to compare: the same rush (same arrivals) first without it.
            without = rush(url, tokens, solution, slow, args)[0] if args.regrades else []
            queued = left = 0
            if args.regrades:
                queued = httpx.post(
                    f"{url}/regrades/{EXERCISE}",
                    timeout=60,
                    headers={"Authorization": f"Bearer {instructor}"},
                ).json()["queued"]
            latencies, refused, failures = rush(url, tokens, solution, slow, args)
            if args.regrades:
                left = regrades_left(url)
        finally:
            process.terminate()
            process.wait(timeout=30)
    idle_p50, idle_p95 = percentile(idle, 0.5), percentile(idle, 0.95)
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    backlog = (
        f"; {queued} regrades queued at the start, {queued - left} graded during the rush"
        if args.regrades
        else ""
    )
    lines = [
        f"rush: {args.learners} learners ({args.flooders} flooding with code that sleeps past "
        f"the {limit:g} s limit), {args.workers} grading threads, {args.seconds:g} s{backlog}",
        "| figure | idle | rush (well-behaved learners) | ratio | goal |",
        "|---|---|---|---|---|",
        f"| p50 | {idle_p50 * 1000:.0f} ms | {p50 * 1000:.0f} ms | {p50 / idle_p50:.2f}x | |",
        f"| p95 | {idle_p95 * 1000:.0f} ms | {p95 * 1000:.0f} ms | {p95 / idle_p95:.2f}x | "
        f"<= 3x {'met' if p95 <= 3 * idle_p95 else 'NOT met'} |",
        f"| p95 against the capacity plan's goal | | {p95 * 1000:.0f} ms | "
        f"{p95 / PLAN_GOAL_S:.2f}x of {PLAN_GOAL_S:g} s | < 1 "
        f"{'met' if p95 < PLAN_GOAL_S else 'NOT met'} (bench/capacity.py, docs/deploy.md) |",
        f"well-behaved submissions graded: {len(latencies)}; flood submissions refused with "
        f"429: {refused}; unexpected answers: {failures}; the host's load average "
        f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores)",
    ]
    if without:
        lines += [
            "",
            "| figure | rush without regrades | rush with the backlog | ratio | goal |",
            "|---|---|---|---|---|",
        ]
        for name, q in (("p50", 0.5), ("p95", 0.95)):
            before, after = percentile(without, q), percentile(latencies, q)
            lines.append(
                f"| {name} | {before * 1000:.0f} ms | {after * 1000:.0f} ms | "
                f"{after / before:.2f}x | <= {UNCHANGED:g}x "
                f"{'met' if after <= UNCHANGED * before else 'NOT met'} |"
            )
    print("\n".join(lines))


def warm_up(probe: Learner, solution: str, steady: int = 10, limit_s: float = 120.0) -> None:
    """Submit until ``steady`` latencies in a row are within twice the best seen: until every
    sandbox is warm and the server has prepared the exercises (on a fresh machine that runs
    every exercise's mutants once, which takes the CPU for a while)."""
    best, in_a_row, deadline = float("inf"), 0, time.monotonic() + limit_s
    while in_a_row < steady and time.monotonic() < deadline:
        seconds = probe.submit(solution, 30)[2]
        best = min(best, seconds)
        in_a_row = in_a_row + 1 if seconds <= 2 * best else 0


def regrades_left(url: str) -> int:
    """Rows still queued: every learner's own submission has been answered by then."""
    return int(httpx.get(f"{url}/healthz", timeout=60).json()["queued"] or 0)


def rush(
    url: str, tokens: list[str], solution: str, slow: str, args: argparse.Namespace
) -> tuple[list[float], int, int]:
    latencies: list[float] = []
    counts = {"refused": 0, "failures": 0}
    lock = threading.Lock()
    end = time.monotonic() + args.seconds
    seeds = random.Random(7)
    starts = {token: (seeds.uniform(0, args.period), seeds.random()) for token in tokens}

    def flooder(token: str) -> None:
        learner = Learner(url, token)
        while time.monotonic() < end:
            status, _, _ = learner.submit(slow, 0)
            if status == 429:
                with lock:
                    counts["refused"] += 1
                time.sleep(0.5)  # a client honouring Retry-After loosely

    def well_behaved(token: str) -> None:
        learner = Learner(url, token)
        pause, seed = starts[token]
        rng = random.Random(seed)
        while time.monotonic() + pause < end:
            time.sleep(pause)
            status, data, seconds = learner.submit(solution, 30)
            with lock:
                if status == 202 and data.get("verdict") == "passed":
                    latencies.append(seconds)
                else:
                    counts["failures"] += 1
            pause = rng.expovariate(1 / args.period)

    flooders, others = tokens[1 : 1 + args.flooders], tokens[1 + args.flooders :]
    threads = [threading.Thread(target=flooder, args=(t,)) for t in flooders]
    threads += [threading.Thread(target=well_behaved, args=(t,)) for t in others]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, counts["refused"], counts["failures"]


if __name__ == "__main__":
    main()
