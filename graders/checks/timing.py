"""Rules on a case's CPU time: its own time limit (``@case(time_s=...)``) and the speed rule
(``@case(max_slowdown=...)``), judged from CPU times the trusted side read.

Both count CPU time (user + system, of all the sandbox's processes), read by the zygote from
the sandbox's cgroup (or ``/proc``) before a case's frame is sent and after its results came
back, never by anything in the sandbox; a host busy with other work slows a case down without
bringing it nearer a limit. A speed case is run ``SPEED_RUNS`` times, each time on inputs of
its own, and so is the reference, in the same grading on the same host: the ratio of the two
best runs is what the rule bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

SPEED_RUNS = 3
"""Runs of a speed case, for the learner's code and for the reference alike: the best of them
counts, the others having paid for cold caches and the host's other work."""
SPEED_MARGIN = 2.0
"""How far within its own speed rule the reference must be (``numjudge validate``): measured
against itself, its ratio is at most ``max_slowdown / SPEED_MARGIN``."""
MIN_SPEED_CPU_S = 0.02
"""The least CPU time the reference may take on a speed case (``numjudge validate``): below it
a clock tick (10 ms where ``/proc`` is read) is too large a share of the measurement."""
CPU_RESOLUTION_S = 0.01
"""The coarsest CPU clock's tick: no measurement is taken as smaller."""


def over_time_limit(name: str, limit_s: float, used_s: float | None) -> str:
    """The message of a case that went over its own time limit (``used_s`` None: it was
    stopped there)."""
    used = "was stopped at" if used_s is None else f"used {used_s:.3f} s of CPU time, over"
    return (
        f"time limit exceeded: test {name!r} {used} its limit of {limit_s:g} s of CPU "
        "time; look for work that grows faster than the input (a Python loop over its "
        "elements, a copy inside a loop)"
    )


def stopped_message(name: str, limit_s: float) -> str:
    """Why a case after the one stopped at its own limit did not run."""
    return f"the code was stopped when test {name!r} reached its limit of {limit_s:g} s"


@dataclass(frozen=True)
class Speed:
    """The best CPU times over a speed case's runs: the learner's code's and the reference's."""

    code_s: float
    reference_s: float

    @property
    def ratio(self) -> float:
        return max(self.code_s, CPU_RESOLUTION_S) / max(self.reference_s, CPU_RESOLUTION_S)


def best_cpu(times: Sequence[float | None]) -> float | None:
    """The best of a speed case's runs, or None unless every run was timed."""
    if not times or any(t is None for t in times):
        return None
    return min(t for t in times if t is not None)


def slow_message(name: str, speed: Speed, max_slowdown: float) -> str:
    """The message of a speed case that is too slow, with how much slower it is."""
    return (
        f"speed: {speed.ratio:.1f}x the reference's CPU time on test {name!r} "
        f"({speed.code_s:.3f} s against {speed.reference_s:.3f} s, the best of "
        f"{SPEED_RUNS} runs each); the rule is at most {max_slowdown:g}x: replace Python "
        "loops over the elements by whole-array operations"
    )


SPEED_RUN_WRONG = (
    "values: right on this test's inputs, but wrong on another run of it on inputs made the "
    f"same way (a speed test is run {SPEED_RUNS} times, each on inputs of its own)"
)
