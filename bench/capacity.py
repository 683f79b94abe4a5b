"""Capacity plan for a deadline rush: how many web processes and worker machines keep the p95
of a learner's wait under a goal, from the costs `bench/service.py` measured.

A discrete-event simulation (SimPy) of the deployment docs/deploy.md describes: web processes
behind a load balancer take `POST /submit` (each one core for its own threads: HTTP, the
token check, the row's insert); PostgreSQL runs each submission's statements on its cores;
worker machines grade (one `numjudge worker` each, its own threads on one core: the claim,
the trusted side of the grading, the store; its sandboxes on every core of the machine, with
`cores + 2` grading threads). A learner's wait is from the request to the result's release on
the ladder (app.services.release), counted from acceptance, with the exercise's first rung.

Arrivals: `--learners` learners submit `--submissions` times each within the last
`--minutes` before the deadline, with a density that grows exponentially towards it (time
constant `--tau` seconds: with the defaults, two thirds of the submissions come in the last
ten minutes, and the rate at the deadline is 20 times the rate half an hour before), a
learner's submissions at least the think time apart. Each point of the plan is the p95 over
`--seeds` rushes.

    python bench/capacity.py [--costs costs.json] [--learners 2000] [--submissions 5]
    python bench/capacity.py --check   # this host's one process, against bench/rush.py

`--costs` reads the JSON `bench/service.py --costs` writes (CPU milliseconds per submission of
the server, its zygotes and their sandboxes); without it, issue 44's figures on a quiet host.
`--check` simulates what `bench/rush.py --flooders 0` runs on this host, so that the two can
be compared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import simpy

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.services import release  # noqa: E402

GOAL_P95_S = 2.0
WEB_SHARE = 0.4
"""The web part of one process's own CPU per submission: the request's threads (HTTP,
FastAPI, the token check, the insert, the answer) held the interpreter lock in 27 % of the
server's samples under bench/service.py's load (py-spy --gil), the grading threads in 48 %,
and the event loop and the hand-offs between them the rest, split here evenly."""
EPOCH = datetime(2026, 12, 5)  # any moment: the ladder is counted from acceptance


@dataclass(frozen=True)
class Costs:
    """Milliseconds per submission of `gru-update-gate`'s reference (bench/service.py)."""

    web_ms: float = 10.5 * 0.4
    """A web process's own CPU: HTTP, the token check, validation, the insert, the answer
    (issue 44's server figure, 10.5 ms, times :data:`WEB_SHARE`)."""
    worker_ms: float = 10.5 * 0.6
    """A worker process's own CPU: the claim, the trusted side of grading, the store."""
    sandbox_ms: float = 3.1 + 10.3
    """The zygote's and the sandbox's CPU, on any core of the worker's machine."""
    database_ms: float = 1.5
    """PostgreSQL's CPU for a submission's statements (token, insert, claim, finish, reads)."""
    first_rung_ms: float = 25.0
    """The exercise's first rung (app.runtime.rungs)."""
    backstop_s: float = 11.0
    """The exercise's wall-clock backstop (a 5 s limit): where the ladder's top lies."""


@dataclass(frozen=True)
class Deployment:
    web_processes: int
    workers: int
    cores_per_worker: int
    database_cores: int

    @property
    def threads_per_worker(self) -> int:
        return self.cores_per_worker + 2  # NUMJUDGE_WORKERS' default


@dataclass(frozen=True)
class Rush:
    learners: int
    submissions: int
    minutes: float
    tau_s: float
    think_s: float

    def arrivals(self, rng: random.Random) -> list[float]:
        """Each submission's second from the rush's start: each learner's drawn from the
        curve, sorted and pushed at least the think time apart."""
        span = self.minutes * 60
        times: list[float] = []
        for _ in range(self.learners):
            own = sorted(self._draw(rng, span) for _ in range(self.submissions))
            for index in range(1, len(own)):
                own[index] = max(own[index], own[index - 1] + self.think_s)
            times.extend(t for t in own if t <= span)
        return sorted(times)

    def _draw(self, rng: random.Random, span: float) -> float:
        """One moment from the density ∝ exp(t / tau) on [0, span] (inverse transform)."""
        low = math.exp(-span / self.tau_s)
        return span + self.tau_s * math.log(low + rng.random() * (1 - low))


def simulate(costs: Costs, deployment: Deployment, rush: Rush, seed: int) -> list[float]:
    """Each submission's wait in seconds, from its request to its release."""
    rng = random.Random(seed)
    env = simpy.Environment()
    webs = [simpy.Resource(env, capacity=1) for _ in range(deployment.web_processes)]
    database = simpy.Resource(env, capacity=deployment.database_cores)
    own_cores = [simpy.Resource(env, capacity=1) for _ in range(deployment.workers)]
    machine_cores = [
        simpy.Resource(env, capacity=deployment.cores_per_worker) for _ in range(deployment.workers)
    ]
    queue = simpy.Store(env)
    waits: list[float] = []
    first = timedelta(milliseconds=costs.first_rung_ms)
    backstop = timedelta(seconds=costs.backstop_s)

    def cpu(resource: simpy.Resource, ms: float) -> Generator[simpy.Event, Any, None]:
        with resource.request() as turn:
            yield turn
            yield env.timeout(ms / 1000 * rng.uniform(0.8, 1.2))

    def submit(arrived: float) -> Generator[simpy.Event, Any, None]:
        web = min(webs, key=lambda w: len(w.queue) + w.count)  # least busy, as a balancer
        yield env.process(cpu(web, costs.web_ms / 2))
        yield env.process(cpu(database, costs.database_ms / 2))
        accepted = env.now
        done = env.event()
        yield queue.put((accepted, done))
        graded = yield done
        wait = release.release_at(
            EPOCH, EPOCH + timedelta(seconds=graded - accepted), backstop, first
        )
        yield env.timeout(max(0.0, (wait - EPOCH).total_seconds() - (env.now - accepted)))
        yield env.process(cpu(web, costs.web_ms / 2))  # the answer
        waits.append(env.now - arrived)

    def grading_thread(worker: int) -> Generator[simpy.Event, Any, None]:
        while True:
            _, done = yield queue.get()
            yield env.process(cpu(database, costs.database_ms / 2))  # claim and store
            yield env.process(cpu(own_cores[worker], costs.worker_ms / 2))
            yield env.process(cpu(machine_cores[worker], costs.sandbox_ms))
            yield env.process(cpu(own_cores[worker], costs.worker_ms / 2))
            done.succeed(env.now)

    def arrive(times: list[float]) -> Generator[simpy.Event, Any, None]:
        for moment in times:
            yield env.timeout(moment - env.now)
            env.process(submit(moment))

    for worker in range(deployment.workers):
        for _ in range(deployment.threads_per_worker):
            env.process(grading_thread(worker))
    env.process(arrive(rush.arrivals(rng)))
    env.run()
    return waits


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def plans(costs: Costs, rush: Rush, args: argparse.Namespace) -> Iterator[tuple[Deployment, float]]:
    """The smallest deployments meeting the goal: for each count of web processes from the
    fewest the busiest minute keeps below 70 % busy, the fewest workers whose p95 (the worst
    over the seeds) is under it, from the fewest whose cores the busiest minute fills."""
    peak = peak_rate(rush, random.Random(0))
    fewest_web = max(1, math.ceil(peak * costs.web_ms / 1000 / 0.7))
    per_worker = min(1000 / costs.worker_ms, 1000 * args.cores / costs.sandbox_ms)
    fewest_workers = max(1, math.ceil(peak / per_worker))
    for web in range(fewest_web, fewest_web + args.max_web):
        for workers in range(fewest_workers, fewest_workers + args.max_workers):
            deployment = Deployment(web, workers, args.cores, args.database_cores)
            worst = max(p95(simulate(costs, deployment, rush, seed)) for seed in range(args.seeds))
            if worst < GOAL_P95_S:
                yield deployment, worst
                break


def peak_rate(rush: Rush, rng: random.Random) -> float:
    """Submissions per second in the busiest minute."""
    per_minute: dict[int, int] = {}
    for moment in rush.arrivals(rng):
        per_minute[int(moment // 60)] = per_minute.get(int(moment // 60), 0) + 1
    return max(per_minute.values()) / 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--costs", type=Path, help="the JSON bench/service.py --costs wrote")
    parser.add_argument("--learners", type=int, default=2000)
    parser.add_argument("--submissions", type=int, default=5)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--tau", type=float, default=600, help="the curve's time constant, s")
    parser.add_argument("--think", type=float, default=20, help="least seconds between two")
    parser.add_argument("--cores", type=int, default=2, help="cores per worker machine")
    parser.add_argument("--database-cores", type=int, default=4)
    parser.add_argument("--max-web", type=int, default=2, help="web counts tried")
    parser.add_argument("--max-workers", type=int, default=8, help="worker counts tried")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="simulate bench/rush.py's run")
    parser.add_argument(
        "--slowdown",
        type=float,
        default=1.0,
        help="CPU costs times this (a shared host: its load average over its cores)",
    )
    parser.add_argument("--first-rung", type=float, help="the exercise's first rung, ms")
    args = parser.parse_args()
    costs = Costs()
    if args.costs:
        measured = json.loads(args.costs.read_text())
        costs = replace(
            costs,
            web_ms=measured["server"] * WEB_SHARE,
            worker_ms=measured["server"] * (1 - WEB_SHARE),
            sandbox_ms=measured["zygotes"] + measured["sandboxes"],
        )
    costs = replace(
        costs,
        web_ms=costs.web_ms * args.slowdown,
        worker_ms=costs.worker_ms * args.slowdown,
        sandbox_ms=costs.sandbox_ms * args.slowdown,
        database_ms=costs.database_ms * args.slowdown,
        first_rung_ms=args.first_rung or costs.first_rung_ms,
    )
    print(f"costs per submission: {costs}")
    if args.check:
        check(costs, args)
        return
    rush = Rush(args.learners, args.submissions, args.minutes, args.tau, args.think)
    peak = peak_rate(rush, random.Random(0))
    need = peak * (costs.web_ms + costs.worker_ms + costs.sandbox_ms) / 1000
    print(
        f"rush: {args.learners} learners x {args.submissions} submissions in the last "
        f"{args.minutes:g} min (time constant {args.tau:g} s): busiest minute {peak:.1f}/s, "
        f"{need:.1f} cores of numjudge's own CPU then; goal p95 < {GOAL_P95_S:g} s"
    )
    for deployment, worst in plans(costs, rush, args):
        waits = simulate(costs, deployment, rush, 0)
        print(
            f"{deployment.web_processes} web processes, {deployment.workers} workers of "
            f"{deployment.cores_per_worker} cores ({deployment.threads_per_worker} threads "
            f"each), PostgreSQL on {deployment.database_cores} cores: p95 {worst:.2f} s "
            f"(ratio to the goal {worst / GOAL_P95_S:.2f}), median "
            f"{statistics.median(waits) * 1000:.0f} ms, max {max(waits):.2f} s"
        )


def check(costs: Costs, args: argparse.Namespace) -> None:
    """What `bench/rush.py --flooders 0` runs here: one process grading on this host's two
    cores with four threads (its web part and its worker part share one core), 200 learners
    submitting on average every 60 s for 40 s; prints the simulated p50 and p95 to compare."""
    learners, period, seconds = 200, 60.0, 40.0
    submissions = round(learners * seconds / period)  # one each, at uniform moments
    rush = Rush(submissions, 1, seconds / 60, tau_s=1e9, think_s=0.0)
    one_process = Deployment(1, 1, 2, 1)
    shared = replace(costs, web_ms=0.0, worker_ms=costs.worker_ms + costs.web_ms)
    waits = simulate(shared, one_process, rush, 0)
    print(
        f"bench/rush.py's run simulated ({learners} learners, one submission every {period:g} s "
        f"each, {seconds:g} s, one process on 2 cores, {submissions} submissions): p50 "
        f"{statistics.median(waits) * 1000:.0f} ms, p95 {p95(waits) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
