"""Real ``numjudge serve`` / ``numjudge worker`` processes for end-to-end tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from app import crud
from app.core.db import session_scope
from app.models import Role

REPO = Path(__file__).resolve().parents[2]
NUMJUDGE = str(Path(sys.executable).parent / "numjudge")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LiveProcess:
    """A ``numjudge`` subprocess with its own environment and log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.args, self.env, self.log = args, env, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([NUMJUDGE, *self.args], env=self.env, cwd=REPO,
                                            stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)
        self.process = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class LiveServer(LiveProcess):
    def __init__(self, tmp: Path, database_url: str, *, workers: int = 2,
                 queue_url: str | None = None, extra_env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url
        env = {**os.environ, "NUMJUDGE_DATABASE_URL": database_url,
               "NUMJUDGE_QUEUE_URL": queue_url or f"sqlite:///{tmp / 'queue.db'}",
               "NUMJUDGE_EXERCISES_DIR": str(REPO / "exercises"),
               "NUMJUDGE_WORKERS": str(workers), "NUMJUDGE_RECOVERY_INTERVAL_S": "1",
               "NUMJUDGE_SECRET_KEY": "live-test", **(extra_env or {})}
        super().__init__(["serve", "--port", str(self.port)], env, tmp / f"serve-{self.port}.log")

    def start(self, timeout: float = 60.0) -> None:
        super().start()
        try:
            self._wait_healthy(timeout)
        except BaseException:
            self.kill()
            raise

    def _wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"numjudge serve exited:\n{self.log_text()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code in (200, 503):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"numjudge serve did not answer /healthz:\n{self.log_text()[-3000:]}")

    def add_user(self, name: str, role: Role = Role.LEARNER) -> dict[str, str]:
        with session_scope(self.database_url) as session:
            user = crud.create_user(session=session, name=name, role=role)
            _, token = crud.create_token(session=session, user=user)
        return {"Authorization": f"Bearer {token}"}

    def client(self, headers: dict[str, str]) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


def wait_all_done(client: httpx.Client, ids: list[str], timeout: float = 120
                  ) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while len(results) < len(ids) and time.monotonic() < deadline:
        for submission_id in ids:
            if submission_id not in results:
                data = client.get(f"/submissions/{submission_id}").json()
                if data["status"] == "done":
                    results[submission_id] = data
        time.sleep(0.2)
    return results
