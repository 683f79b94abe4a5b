"""Scale-out benchmark: throughput of 1, 2 and 4 `numjudge worker` processes on one queue.

This host has two cores, so a CPU-bound exercise would measure the cores, not the workers.
The benchmark makes a test-only exercise folder whose reference and submissions wait on the
clock (``time.sleep``) instead of the CPU: a grading then holds a grading thread, not a core,
and the capacity is threads x worker processes. Each run uses a fresh PostgreSQL database and
its own Redis queue name, a `numjudge serve --workers 0` that takes the submissions, and the
workers; every learner submits several times (one grading per learner at a time, as in
production). The submissions are stored and woken at once, as a class's burst arrives (the
web side has bench/service.py); the time runs from the first grading's start to the last's
end. It prints each run's throughput beside the capacity (threads x workers / sleep) and
whether every verdict was right, then each count's median over the rounds (the counts
alternate, so the host's other load falls on all of them) and its ratio to one worker's.
Goal: 2 workers >= 1.9x, 4 workers >= 3.6x.

A grading still costs this host some CPU (the sandbox, the checks): the default wait (2 s)
and threads (2 per worker) keep four workers' share of it well under the two cores, so the
figure measures the workers rather than the cores.

    python bench/scale_out.py [--threads 2] [--learners 16] [--per-learner 3] [--sleep 2]
                              [--workers 1,2,4] [--repeat 3]

Needs PostgreSQL (NUMJUDGE_BENCH_PG_URL, default the local server as postgres) and Redis
(NUMJUDGE_BENCH_REDIS_URL, default redis://127.0.0.1:6379/15).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import httpx
from sqlalchemy import create_engine, func, select, text

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.core.db import session_scope, upgrade_database  # noqa: E402
from app.models import (  # noqa: E402
    Submission,
    SubmissionKind,
    SubmissionStatus,
    Worker,
    utcnow,
)
from app.runtime.queue import GradingQueue  # noqa: E402  (the repository's)
from app.store import accounts as account_store  # noqa: E402
from app.store import submissions as submission_store  # noqa: E402
from graders.api import ExerciseCatalog, Verdict  # noqa: E402

NUMJUDGE = str(Path(sys.executable).parent / "numjudge")
PG_URL = os.environ.get(
    "NUMJUDGE_BENCH_PG_URL", "postgresql+psycopg://postgres@localhost:5432/postgres"
)
REDIS_URL = os.environ.get("NUMJUDGE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
EXERCISE = "sleepy-identity"


def write_exercise(folder: Path, sleep_s: float) -> str:
    """The clock-bound exercise; returns a right submission."""
    exercise = folder / EXERCISE
    exercise.mkdir(parents=True)
    (exercise / "exercise.toml").write_text(
        f'id = "{EXERCISE}"\ntitle = "Identity, slowly"\ndifficulty = "easy"\n'
        'tags = ["benchmark"]\nentry = "identity"\n\n[limits]\ntime_s = 5\nmemory_mb = 256\n'
    )
    (exercise / "statement.md").write_text("Return `x` as float64, after a wait.\n")
    (exercise / "starter.py").write_text("def identity(x):\n    raise NotImplementedError\n")
    solution = (
        "import time\n\nimport numpy as np\n\n\ndef identity(x):\n"
        f"    time.sleep({sleep_s})\n    return np.asarray(x, dtype=np.float64)\n"
    )
    (exercise / "solution.py").write_text(solution)
    (exercise / "cases.py").write_text(
        "import numpy as np\n\nfrom graders.cases import case\n\n\n"
        "@case(public=True, points=1)\ndef small(rng):\n    return {'x': np.arange(3.0)}\n"
    )
    return solution


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fresh_database() -> tuple[str, str]:
    name = f"numjudge_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    url = PG_URL.rsplit("/", 1)[0] + f"/{name}"
    upgrade_database(url)
    return name, url


def drop_database(name: str) -> None:
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def run(
    workers: int, args: argparse.Namespace, exercises: Path, solution: str, logs: Path
) -> tuple[float, bool]:
    """Submissions per second with ``workers`` worker processes, and whether all passed."""
    name, database = fresh_database()
    env = {
        **os.environ,
        "NUMJUDGE_DATABASE_URL": database,
        "NUMJUDGE_QUEUE_URL": REDIS_URL,
        "NUMJUDGE_QUEUE_NAME": f"bench-{uuid.uuid4().hex[:8]}",
        "NUMJUDGE_EXERCISES_DIR": str(exercises),
        "NUMJUDGE_LOG_LEVEL": "WARNING",
        "NUMJUDGE_REGRADE_WORKERS": "0",
        "NUMJUDGE_AUTO_MIGRATE": "false",
        # Unpinned: on two cores, pinning would measure which core a process got.
        "NUMJUDGE_SERVICE_CPUS": "0",
    }
    port = free_port()
    processes = [
        subprocess.Popen(
            [NUMJUDGE, "serve", "--workers", "0", "--port", str(port)],
            env=env,
            stdout=(logs / "serve.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
    ]
    processes += [
        subprocess.Popen(
            [NUMJUDGE, "worker", "--workers", str(args.threads)],
            env=env,
            stdout=(logs / f"worker{i}.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        for i in range(workers)
    ]
    try:
        wait_until(lambda: ready(database, port, workers), 120)
        total = args.learners * args.per_learner
        # Stored and woken at once, the way a class's burst arrives: the web side's speed
        # (measured by bench/service.py) stays out of the figure.
        version = ExerciseCatalog(exercises).load(EXERCISE).version
        queue = GradingQueue(REDIS_URL, env["NUMJUDGE_QUEUE_NAME"])
        with session_scope(database) as session:
            users = [
                account_store.create_user(session=session, name=f"learner{i}")
                for i in range(args.learners)
            ]
            ids = [
                submission_store.create_submission(
                    session=session,
                    user=user,
                    exercise_id=EXERCISE,
                    exercise_version=version,
                    code=solution,
                    kind=SubmissionKind.SUBMIT,
                    lease_expires_at=utcnow() + timedelta(minutes=10),
                ).id
                for _ in range(args.per_learner)
                for user in users
            ]
        for submission_id in ids:
            queue.enqueue(submission_id)
        wait_until(lambda: done(database) == total, 600)
        with session_scope(database) as session:
            first, last = session.execute(
                select(func.min(Submission.started_at), func.max(Submission.finished_at))
            ).one()
            verdicts = set(session.scalars(select(Submission.verdict).distinct()))
        assert first is not None and last is not None  # every row was graded
        return total / (last - first).total_seconds(), verdicts == {Verdict.PASSED}
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=60)
        drop_database(name)


def ready(database: str, port: int, workers: int) -> bool:
    try:
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
    except httpx.HTTPError:
        return False
    with session_scope(database) as session:
        return int(session.scalar(select(func.count()).select_from(Worker)) or 0) == workers


def done(database: str) -> int:
    with session_scope(database) as session:
        return int(
            session.scalar(select(func.count()).where(Submission.status == SubmissionStatus.DONE))
            or 0
        )


def wait_until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out (see the logs in the temporary folder)")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2, help="grading threads per worker")
    parser.add_argument("--learners", type=int, default=16)
    parser.add_argument("--per-learner", type=int, default=3)
    parser.add_argument("--sleep", type=float, default=2.0, help="seconds each grading waits")
    parser.add_argument("--workers", default="1,2,4", help="worker processes per run")
    parser.add_argument("--repeat", type=int, default=3, help="rounds, the counts alternating")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="numjudge-scale-") as temp:
        exercises = Path(temp) / "exercises"
        solution = write_exercise(exercises, args.sleep)
        rates: dict[int, list[float]] = {count: [] for count in counts}
        for round_ in range(args.repeat):
            # Alternating the counts spreads the host's other load over all of them.
            for count in counts:
                rate, right = run(count, args, exercises, solution, Path(temp))
                rates[count].append(rate)
                capacity = count * args.threads / args.sleep
                sys.stdout.write(
                    f"round={round_ + 1} workers={count} threads={args.threads} "
                    f"throughput={rate:.2f}/s capacity={capacity:.2f}/s "
                    f"every_verdict_right={right}\n"
                )
                sys.stdout.flush()
        base = statistics.median(rates[min(counts)])
        for count in counts:
            median = statistics.median(rates[count])
            sys.stdout.write(
                f"workers={count} median={median:.2f}/s ratio={median / base:.2f}x "
                f"(rounds: {', '.join(f'{rate / base:.2f}x' for rate in rates[count])})\n"
            )


if __name__ == "__main__":
    main()
