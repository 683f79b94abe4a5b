"""app/core/config.py: the sandbox settings reach the engine's limits."""

from __future__ import annotations

import pytest

from app.core.config import Settings
from graders import SandboxLimits


def test_sandbox_limits_default_to_the_strict_engine_defaults() -> None:
    limits = Settings(_env_file=None).sandbox_limits  # type: ignore[call-arg]
    assert limits == SandboxLimits()
    assert limits.strict is True


def test_sandbox_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMJUDGE_SANDBOX_STRICT", "false")
    monkeypatch.setenv("NUMJUDGE_SANDBOX_UID_BASE", "70000")
    monkeypatch.setenv("NUMJUDGE_SANDBOX_MAX_OUTPUT_MB", "8")
    limits = Settings(_env_file=None).sandbox_limits  # type: ignore[call-arg]
    assert (limits.strict, limits.uid_base, limits.max_output_mb) == (False, 70000, 8)
