"""``numjudge serve`` / ``worker`` refuse an unreachable queue at start; ``worker-check``;
``serve --forwarded-allow-ips``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.core.db import session_scope
from app.grading.heartbeat import HeartbeatThread
from app.models import Worker, utcnow
from app.runtime.context import GradingRuntime
from tests.app.live import NUMJUDGE, REPO, free_port


@pytest.mark.slow
@pytest.mark.parametrize("command", [["serve", "--port", "0"], ["worker"]])
def test_an_unreachable_redis_at_start_exits_with_a_clear_message(
    command: list[str], database_url: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "NUMJUDGE_DATABASE_URL": database_url,
        "NUMJUDGE_QUEUE_URL": f"redis://127.0.0.1:{free_port()}/0",
        "NUMJUDGE_EXERCISES_DIR": str(REPO / "exercises"),
    }
    done = subprocess.run(
        [NUMJUDGE, *command], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert "error: cannot reach the queue at redis://127.0.0.1:" in done.stderr
    assert "NUMJUDGE_QUEUE_URL" in done.stderr and "Traceback" not in done.stderr


def test_worker_check_needs_a_heartbeat_and_a_passing_canary(
    runtime: GradingRuntime, tmp_path: Path
) -> None:
    env = {**os.environ, "NUMJUDGE_DATABASE_URL": runtime.settings.database_url}

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [NUMJUDGE, "worker-check"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )

    missing = check()
    assert missing.returncode == 1 and "no heartbeat from" in missing.stderr
    heartbeat = HeartbeatThread(runtime, threads=1)
    heartbeat.beat_now()  # this process is a worker on this host now
    try:
        assert check().returncode == 0
        with session_scope(runtime.settings.database_url) as session:
            for row in session.scalars(select(Worker)):  # alive, but its canary failed
                row.heartbeat_at = utcnow()
                row.canary_ok, row.canary_message = False, "SandboxFault: zygote died"
        failing = check()
        assert failing.returncode == 1 and "zygote died" in failing.stderr
    finally:
        heartbeat.stop()


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'serve.db'}")
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", "memory://")
    # no handler on CliRunner's stream, which is closed once the command returns
    monkeypatch.setattr("app.cli.common.configure_logging", lambda *args: None)
    # The command runs in the test process: keeping its threads on one core would pin the
    # whole test run (tests/graders/sandbox/test_cpu_affinity.py runs the real thing in a child).
    monkeypatch.setattr("app.cli.serve.keep_threads_on", pin_nothing)
    pinned.clear()
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


pinned: list[tuple[int, Path | None]] = []


def pin_nothing(count: int, folder: Path | None = None) -> frozenset[int]:
    pinned.append((count, folder))
    return frozenset({0})


def test_serve_keeps_its_threads_on_the_configured_number_of_cores(
    cli_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMJUDGE_SERVICE_CPUS", "3")
    with mock.patch("uvicorn.run") as run:
        result = CliRunner().invoke(cli, ["serve", "--workers", "0"])
    assert result.exit_code == 0, result.output
    assert pinned == [(3, None)] and run.called  # None: the host's shared folder


def test_serve_claims_its_cores_in_the_configured_folder(
    cli_env: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NUMJUDGE_CORES_DIR", str(tmp_path / "cores"))
    with mock.patch("uvicorn.run"):
        result = CliRunner().invoke(cli, ["serve", "--workers", "0"])
    assert result.exit_code == 0, result.output
    assert pinned == [(1, tmp_path / "cores")]


@pytest.mark.parametrize(
    ("option", "proxy_headers", "allowed"),
    [
        ([], True, "127.0.0.1"),
        (["--forwarded-allow-ips", "10.0.0.5,10.0.0.6"], True, "10.0.0.5,10.0.0.6"),
        (["--forwarded-allow-ips", ""], False, None),
    ],
)
def test_serve_passes_the_trusted_proxies_to_uvicorn(
    cli_env: None, option: list[str], proxy_headers: bool, allowed: str | None
) -> None:
    with mock.patch("uvicorn.run") as run:
        result = CliRunner().invoke(cli, ["serve", "--workers", "0", *option])
    assert result.exit_code == 0, result.output
    kwargs = run.call_args.kwargs
    assert (kwargs["proxy_headers"], kwargs["forwarded_allow_ips"]) == (proxy_headers, allowed)
