"""app/core/config.py: the sandbox settings reach the engine's limits; default thread count."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.core.config import Settings
from graders.api import SandboxLimits


def test_sandbox_limits_default_to_the_strict_engine_defaults() -> None:
    limits = Settings(_env_file=None).sandbox_limits
    assert limits == SandboxLimits()
    assert limits.strict is True


def test_sandbox_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMJUDGE_SANDBOX_STRICT", "false")
    monkeypatch.setenv("NUMJUDGE_SANDBOX_UID_BASE", "70000")
    monkeypatch.setenv("NUMJUDGE_SANDBOX_MAX_OUTPUT_MB", "8")
    limits = Settings(_env_file=None).sandbox_limits
    assert (limits.strict, limits.uid_base, limits.max_output_mb) == (False, 70000, 8)


@pytest.mark.parametrize("cores", [1, 2])
def test_grading_threads_default_to_two_more_than_the_usable_cores(cores: int) -> None:
    # The process's CPU affinity, not the host's core count: a container or taskset limits it.
    script = (
        f"import os; os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:{cores}]); "
        "from app.core.config import Settings; print(Settings(_env_file=None).workers)"
    )
    env = {key: value for key, value in os.environ.items() if key != "NUMJUDGE_WORKERS"}
    if len(os.sched_getaffinity(0)) < cores:
        pytest.skip(f"this machine lets the process use fewer than {cores} cores")
    printed = subprocess.run(
        [sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert int(printed) == cores + 2
