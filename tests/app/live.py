"""Real ``numjudge serve`` / ``numjudge worker`` processes for end-to-end tests: the one
live-server helper of the suite (the service's, the clients', the browser and the security
tests all start theirs here)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from app.core.db import session_scope
from app.models import Role
from app.store import accounts as account_store

REPO = Path(__file__).resolve().parents[2]
NUMJUDGE = str(Path(sys.executable).parent / "numjudge")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def service_env(settings: dict[str, str]) -> dict[str, str]:
    """This process's environment without its ``NUMJUDGE_*`` settings, plus ``settings``: a
    developer's own settings never reach a test's server."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMJUDGE_")}
    return env | settings


class LiveProcess:
    """A ``numjudge`` subprocess (or ``program``'s) with its own environment and log file, run
    in the log's folder (where a ``.env`` file would be read: the checkout's is not)."""

    def __init__(
        self, args: list[str], env: dict[str, str], log: Path, program: str = NUMJUDGE
    ) -> None:
        self.args, self.env, self.log, self.program = args, env, log, program
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [self.program, *self.args],
                env=self.env,
                cwd=self.log.parent,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` and wait for the end; a process still there after 30 s is killed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_for_log(self, text: str, timeout: float = 120) -> None:
        """Wait until the log holds ``text`` (a process's start takes longer on a busy host:
        each sandbox builds its root image first)."""
        deadline = time.monotonic() + timeout
        while text not in self.log_text():
            if self.process is None or self.process.poll() is not None:
                raise AssertionError(f"{self.args} ended: {self.log_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} in {timeout} s: {self.log_text()[-3000:]}")
            time.sleep(0.1)


class PortTaken(RuntimeError):
    """Another process bound the server's port between :func:`free_port` and the server."""


class LiveServer(LiveProcess):
    """``numjudge serve`` on a free port of 127.0.0.1, with an SQLite queue of its own.

    It prepares each exercise at its first submission (``NUMJUDGE_PREPARE_AT_START=false``):
    a test submits to a few of the 26 exercises, and preparing them all at each start cost the
    suite about 9 s of CPU per server, 40 s where the server's mutants' cache starts empty."""

    def __init__(
        self,
        tmp: Path,
        database_url: str,
        *,
        workers: int = 2,
        queue_url: str | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.tmp, self.database_url = tmp, database_url
        env = service_env(
            {
                "NUMJUDGE_DATABASE_URL": database_url,
                "NUMJUDGE_QUEUE_URL": queue_url or f"sqlite:///{tmp / 'queue.db'}",
                "NUMJUDGE_EXERCISES_DIR": str(REPO / "exercises"),
                "NUMJUDGE_WORKERS": str(workers),
                "NUMJUDGE_RECOVERY_INTERVAL_S": "1",
                "NUMJUDGE_PREPARE_AT_START": "false",
                # As the test apps (tests/app/conftest.py): idle-policy work waits while
                # anything else wants the CPU, minutes beside a second copy of the suite.
                "NUMJUDGE_BACKGROUND_LOWEST_PRIORITY": "false",
                **(extra_env or {}),
            }
        )
        self.port = free_port()
        super().__init__(self._args(), env, self._log())
        self.started = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _args(self) -> list[str]:
        return ["serve", "--port", str(self.port)]

    def _log(self) -> Path:
        return self.tmp / f"serve-{self.port}.log"

    def _take_another_port(self) -> None:
        self.port = free_port()
        self.args, self.log = self._args(), self._log()

    def start(self, timeout: float = 60.0) -> None:
        """Start it and wait until it answers. A first start whose port another process took
        meanwhile (the port is only known free when chosen) starts again on another; a
        restart keeps its port, which its clients know."""
        for _ in range(5):
            since = self.log.stat().st_size if self.log.exists() else 0
            super().start()
            try:
                self._wait_healthy(timeout, since)
            except PortTaken:
                self.kill()
                if self.started:
                    raise
                self._take_another_port()
                continue
            except BaseException:
                self.kill()
                raise
            self.started = True
            return
        raise PortTaken(
            f"five free ports were taken before numjudge serve bound them:\n"
            f"{self.log_text()[-3000:]}"
        )

    def _wait_healthy(self, timeout: float, since: int) -> None:
        """Wait until this start's log says the server listens, then until it answers
        /healthz: an answer alone could come from another process that took the port."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            log = self.log.read_bytes()[since:].decode(errors="replace")
            if self.process.poll() is not None:
                if "address already in use" in log:
                    raise PortTaken(log[-3000:])
                raise RuntimeError(f"numjudge serve exited:\n{log[-3000:]}")
            try:
                if f"running on {self.url} " in log and httpx.get(
                    f"{self.url}/healthz", timeout=1
                ).status_code in (200, 503):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"numjudge serve did not answer /healthz:\n{self.log_text()[-3000:]}")

    def add_user(
        self, name: str, role: Role = Role.LEARNER, password: str | None = None
    ) -> dict[str, str]:
        """A user of the server's database (with a password to sign in on the web, if given),
        and the headers of a new API token of theirs."""
        with session_scope(self.database_url) as session:
            user = account_store.create_user(
                session=session, name=name, role=role, password=password
            )
            _, token = account_store.create_token(session=session, user=user)
        return {"Authorization": f"Bearer {token}"}

    def client(self, headers: dict[str, str]) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


def wait_all_done(
    client: httpx.Client, ids: list[str], timeout: float = 120
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


class CuttableProxy:
    """A TCP forwarder to ``target`` that a test can cut (every connection dropped, new ones
    refused) and restore: a database outage without touching the shared server."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None

    def start(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self._listener is not None:
            with contextlib.suppress(OSError):  # wakes the thread blocked in accept()
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            self._listener = None
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def restore(self) -> None:
        self.start()


class RedisServer:
    """A redis-server of the test's own on a free port (the shared one is never stopped)."""

    def __init__(self, folder: Path, password: str = "") -> None:
        self.folder = folder
        self.port = free_port()
        self.password = password
        self.url = f"redis://{f':{password}@' if password else ''}127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        auth = ["--requirepass", self.password] if self.password else []
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--dir",
                str(self.folder),
                "--appendonly",
                "yes",
                "--save",
                "",
                *auth,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
