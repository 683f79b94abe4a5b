"""Machines of their own on one kernel, for the cluster test: each in a network namespace on a
bridge, and each of its processes in a mount and UTS namespace of its own (its hostname, a
/tmp of its own with HOME in it, a /run of its own), as docs/deploy.md's machines would run.
A data machine runs PostgreSQL and Redis, both with a password.

Only root can build this; :func:`unmet` says in one line why it cannot be built here.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from graders.sandbox import cgroups
from tests.app.live import REPO

PROGRAMS = ("ip", "nsenter", "unshare", "runuser", "redis-server")
SHARED_RUN = Path("/run/numjudge")
"""uid and core claims are per kernel: every machine on it sees the host's folder (compose
shares it as a volume), while the rest of its /run is its own."""


def postgres_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL server's programs."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"))
    return found[-1].parent if found else None


def unmet() -> str | None:
    """Why the cluster cannot be built on this host, in one line (None: it can)."""
    if os.geteuid() != 0:
        return "not root: the cluster test needs network and mount namespaces (run it as root)"
    missing = [program for program in PROGRAMS if shutil.which(program) is None]
    if postgres_bin() is None:
        missing.append("the PostgreSQL server (/usr/lib/postgresql/*/bin/postgres)")
    if missing:
        return f"the cluster test needs {', '.join(missing)}: not installed"
    if not os.access(parent_cgroup(), os.W_OK):
        return f"no writable cgroup here ({parent_cgroup()}): the machines' sandboxes need one"
    return None


def parent_cgroup() -> Path:
    """The cgroup (memory's, in v1) under which this process's children make their
    sandboxes' cgroups: the machines started here share it."""
    version = cgroups.detect_version()
    return cgroups.own_cgroup("" if version is cgroups.CgroupVersion.V2 else "memory", version)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


def _free_subnet() -> ipaddress.IPv4Network:
    """A /24 of 10.0.0.0/8 that no interface of this host is on."""
    used = (
        subprocess.run(
            ["ip", "-4", "-o", "addr"], check=True, capture_output=True, text=True
        ).stdout
        + subprocess.run(["ip", "-4", "route"], check=True, capture_output=True, text=True).stdout
    )
    while True:
        subnet = ipaddress.IPv4Network(
            f"10.{random.randint(64, 254)}.{random.randint(0, 255)}.0/24"
        )
        if str(subnet.network_address).rsplit(".", 1)[0] + "." not in used:
            return subnet


@dataclass
class Machine:
    """A network namespace on the bridge; each process started on it gets its own hostname,
    /tmp (HOME in it), and /run."""

    hostname: str
    """The machine's name and its cluster's: another cluster's worker1 is not this one's."""
    namespace: str
    address: str
    hold: Path
    """A folder outside /tmp where the setup keeps what it moves into the fresh /tmp and /run."""
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(
        self, argv: list[str], env: dict[str, str], log: Path, *, private: bool = True
    ) -> subprocess.Popen[bytes]:
        """Run ``argv`` on this machine. Each ``exec`` replaces the process, so the returned
        process is ``argv``'s own (a signal to it reaches the program itself)."""
        # nsenter, not `ip netns exec`: that mounts a fresh /sys without the cgroup hierarchy,
        # and the sandbox's cgroups would be missing.
        enter = ["nsenter", f"--net=/run/netns/{self.namespace}"]
        if private:
            command = [
                *enter,
                "unshare",
                "--uts",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                self._setup(),
                "sh",
                *argv,
            ]
            env = {key: value for key, value in env.items() if key != "TMPDIR"}
            env["HOME"] = "/tmp/home"
        else:
            command = [*enter, *argv]
        with log.open("ab") as out:
            process = subprocess.Popen(
                command, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        self.processes.append(process)
        return process

    def _setup(self) -> str:
        """The shell steps that give the process its hostname, /tmp and /run. The host's
        /run/numjudge is set aside before the fresh /run hides it, then moved in; what the
        process runs from (the checkout, its virtual environment, the interpreter) stays
        visible if it lives under /tmp, bound back from the host's /tmp, set aside first."""
        kept_run, kept_tmp = self.hold / "run-numjudge", self.hold / "tmp"
        for folder in (kept_run, kept_tmp):
            folder.mkdir(parents=True, exist_ok=True)
        SHARED_RUN.mkdir(parents=True, exist_ok=True)
        used = {Path(os.path.realpath(p)) for p in (REPO, sys.prefix, sys.base_prefix)}
        under_tmp = sorted(p.relative_to("/tmp") for p in used if p.is_relative_to("/tmp"))
        steps = [
            f"hostname {self.hostname}",
            f"mount --bind {SHARED_RUN} {kept_run}",
            f"mount --bind /tmp {kept_tmp}",
            "mount -t tmpfs -o mode=1777 tmpfs /tmp",
            *(f"mkdir -p /tmp/{p} && mount --bind {kept_tmp / p} /tmp/{p}" for p in under_tmp),
            "mkdir /tmp/home",
            "mount -t tmpfs tmpfs /run",
            f"mkdir -p {SHARED_RUN}",
            f"mount --move {kept_run} {SHARED_RUN}",
            'exec "$@"',
        ]
        return " && ".join(steps)


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Send ``sig`` and wait for the end; still there after 30 s: killed."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for_port(address: str, port: int, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((address, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {address}:{port}")


class Cluster:
    """The bridge, the machines on it and the data machine's servers; :meth:`close` removes
    everything it made."""

    def __init__(self, folder: Path) -> None:
        self.token = secrets.token_hex(2)
        self.folder = folder
        self.subnet = _free_subnet()
        self.bridge = f"njbr{self.token}"
        self.machines: dict[str, Machine] = {}
        self.database_password = secrets.token_hex(12)
        self.redis_password = secrets.token_hex(12)
        self._data_folder = Path(tempfile.mkdtemp(prefix="numjudge-cluster-", dir="/var/tmp"))
        self._redis: subprocess.Popen[bytes] | None = None
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self._host(1)}/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")

    def _host(self, number: int) -> str:
        return str(self.subnet.network_address + number)

    def add(self, name: str) -> Machine:
        number = len(self.machines) + 2
        namespace = f"nj-{self.token}-{name}"
        outside, inside = f"nj{self.token}{number}h", f"nj{self.token}{number}n"
        _ip("netns", "add", namespace)
        _ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        _ip("link", "set", outside, "master", self.bridge)
        _ip("link", "set", outside, "up")
        _ip("link", "set", inside, "netns", namespace)
        address = self._host(number)
        _ip("-n", namespace, "addr", "add", f"{address}/24", "dev", inside)
        _ip("-n", namespace, "link", "set", inside, "up")
        _ip("-n", namespace, "link", "set", "lo", "up")
        machine = Machine(f"{name}-{self.token}", namespace, address, self._data_folder / name)
        self.machines[name] = machine
        return machine

    @property
    def database_url(self) -> str:
        data = self.machines["data"].address
        return f"postgresql+psycopg://numjudge:{self.database_password}@{data}:5432/postgres"

    @property
    def redis_url(self) -> str:
        return f"redis://:{self.redis_password}@{self.machines['data'].address}:6379/0"

    def start_postgres(self) -> None:
        """A PostgreSQL of the data machine's own, with password authentication over the
        bridge, run as the ``postgres`` user (it refuses root)."""
        data = self.machines["data"]
        programs = postgres_bin()
        assert programs is not None
        pgdata = self._data_folder / "pgdata"
        password_file = self._data_folder / "password"
        password_file.write_text(self.database_password + "\n")
        shutil.chown(self._data_folder, "postgres")
        shutil.chown(password_file, "postgres")
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(programs / "initdb"),
                "-D",
                str(pgdata),
                "-U",
                "numjudge",
                f"--pwfile={password_file}",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        with (pgdata / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {self.subnet} scram-sha-256\n")
        data.start(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(programs / "postgres"),
                "-D",
                str(pgdata),
                "-c",
                f"listen_addresses={data.address}",
                "-c",
                f"unix_socket_directories={self._data_folder}",
                "-c",
                "fsync=off",
            ],
            dict(os.environ),
            self.folder / "postgres.log",
            private=False,
        )
        wait_for_port(data.address, 5432, "PostgreSQL")

    def start_redis(self) -> None:
        data = self.machines["data"]
        self._redis = data.start(
            [
                "redis-server",
                "--bind",
                data.address,
                "--port",
                "6379",
                "--requirepass",
                self.redis_password,
                "--dir",
                str(self._data_folder),
                "--appendonly",
                "yes",
                "--save",
                "",
            ],
            dict(os.environ),
            self.folder / "redis.log",
            private=False,
        )
        wait_for_port(data.address, 6379, "Redis")

    def stop_redis(self) -> None:
        if self._redis is not None:
            stop(self._redis)
            self._redis = None

    def close(self) -> None:
        for machine in reversed(self.machines.values()):  # the data machine last
            for process in reversed(machine.processes):
                stop(process)
        for machine in self.machines.values():
            with contextlib.suppress(subprocess.CalledProcessError):
                _ip("netns", "del", machine.namespace)  # its end of the veth goes with it
        with contextlib.suppress(subprocess.CalledProcessError):
            _ip("link", "del", self.bridge)
        shutil.rmtree(self._data_folder, ignore_errors=True)
