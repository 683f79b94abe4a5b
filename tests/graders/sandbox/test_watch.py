"""graders/sandbox/watch.py's decisions, on given numbers: which limit a sandbox ran over, and
when to look again."""

from __future__ import annotations

import pytest

from graders.sandbox.exitcodes import EXIT_STARVED, EXIT_TIMEOUT, EXIT_WALL_LIMIT
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.watch import LOOK_PAST_BACKSTOP_S, MIN_LOOK_S, next_look, overrun

LIMITS = SandboxLimits(time_s=2.0)  # backstop at 5 s of wall-clock time, ceiling at 21 s


def no_delay_read() -> float | None:
    raise AssertionError("run_delay is read only past the backstop")


@pytest.mark.parametrize(
    ("cpu", "wall", "delay", "expected"),
    [
        (1.99, 4.9, 0.0, None),  # before the backstop nothing but CPU time counts
        (2.0, 2.5, 0.0, EXIT_TIMEOUT),  # its CPU time, however short the wall-clock time
        (2.0, 30.0, 28.0, EXIT_TIMEOUT),  # ... or long
        (0.01, 5.0, 0.0, EXIT_WALL_LIMIT),  # asleep
        (1.0, 6.0, 1.0, EXIT_WALL_LIMIT),  # waited 4 s of 6
        (1.0, 6.0, 2.1, None),  # waited 2.9 s of 6: mostly running or queued
        (0.01, 6.0, None, None),  # runnable now: its wait is not counted yet
        (0.3, 12.0, 11.5, None),  # starved: it runs on
        (0.3, 21.0, 20.5, EXIT_STARVED),  # starved up to the ceiling: the host's fault
        (0.3, 21.0, None, EXIT_STARVED),
        (0.3, 21.0, 5.0, EXIT_WALL_LIMIT),  # mostly waiting: the learner's, ceiling or not
    ],
)
def test_the_limit_a_sandbox_ran_over(
    cpu: float, wall: float, delay: float | None, expected: int | None
) -> None:
    delay_read = no_delay_read if wall < LIMITS.wall_s else (lambda: delay)
    assert overrun(LIMITS, cpu, wall, delay_read) == expected


def test_it_looks_when_the_cpu_time_could_first_be_used_up() -> None:
    # One CPU's worth (the cgroup's quota): the CPU time left is the soonest it can be spent.
    assert next_look(LIMITS, cpu_s=0.5, wall_s=0.6, parallel=1) == pytest.approx(1.5)
    # Sixteen processes on two CPUs spend it twice as fast.
    assert next_look(LIMITS, cpu_s=0.5, wall_s=0.6, parallel=2) == pytest.approx(0.75)
    # A sandbox that barely ran is looked at again at the backstop, not before.
    assert next_look(LIMITS, cpu_s=0.0, wall_s=4.5, parallel=1) == pytest.approx(0.5)
    # Near the limit it is looked at often, but not in a busy loop.
    assert next_look(LIMITS, cpu_s=1.9999, wall_s=1.0, parallel=1) == MIN_LOOK_S


def test_past_the_backstop_it_looks_often_until_the_ceiling() -> None:
    assert next_look(LIMITS, cpu_s=0.1, wall_s=6.0, parallel=1) == LOOK_PAST_BACKSTOP_S
    assert next_look(LIMITS, cpu_s=0.1, wall_s=20.9, parallel=1) == pytest.approx(0.1)
