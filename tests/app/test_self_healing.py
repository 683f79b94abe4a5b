"""A running ``numjudge serve`` whose working folders a cleaner of ``/tmp`` removed (as
``systemd-tmpfiles`` or ``tmpreaper`` does): each is made again before the next grading, no
learner gets "error" for it, and ``/healthz`` is not ok until it is (docs/reliability.md).

The server runs with a ``/tmp`` of its own (a fresh tmpfs in a mount namespace of its own),
so everything in it is the server's, and the test removes all of it through the server's own
view (``/proc/<pid>/root/tmp``); as root its sandboxes' cgroups too. Its hostname is its own
as well: the names of its state folders and cgroups carry the machine, and other numjudge
processes on this host (another copy of the suite) neither see nor clean up its folders.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shlex
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.db import dispose_engines, upgrade_database
from graders.sandbox.cgroups import CGROUP_ROOT
from graders.sandbox.state import LOCK_NAME, ROOT_NAME, STATE_PREFIX
from tests.app.conftest import read_exercise_file
from tests.app.live import NUMJUDGE, LiveServer, wait_all_done
from tests.graders.sandbox.unprivileged import dropped_to, reachable

pytestmark = pytest.mark.slow

EXERCISE = "gru-update-gate"
CLOUDSDK = 1000
"""The unprivileged user the rootless server runs as."""


CHECKOUT = Path(__file__).resolve().parents[2]
KEPT_IN_TMP = CHECKOUT.relative_to("/tmp").parts[0] if CHECKOUT.is_relative_to("/tmp") else ""
"""The top folder of a checkout under ``/tmp`` (a clone made there, as CI's may be), which the
server's own ``/tmp`` would hide from it: it is bound back at its path, and the cleaner below
leaves it alone."""


class PrivateTmpServer(LiveServer):
    """``numjudge serve`` with its own ``/tmp`` and hostname; as ``uid`` when one is given
    (a rootless sandbox: no cgroup), its data folder then the user's."""

    def __init__(self, folder: Path, database_url: str, uid: int | None) -> None:
        self.uid = uid
        self.hostname = f"heal-{secrets.token_hex(3)}"
        self.headers: dict[str, str] = {}
        """A learner's, made before the start (the test then reaches the data by HTTP only)."""
        super().__init__(folder, database_url, extra_env={"HOME": str(folder)})
        self.program = "unshare"

    def _args(self) -> list[str]:
        steps = ["set -e", f"hostname {self.hostname}"]
        command = [NUMJUDGE, "serve", "--port", str(self.port)]
        if self.uid is not None:
            steps.append(reachable(self.tmp))
            command = [*dropped_to(self.uid), *command]
        own_tmp = "mount -t tmpfs -o mode=1777 tmpfs /tmp"
        if KEPT_IN_TMP:
            kept, holder = shlex.quote(f"/tmp/{KEPT_IN_TMP}"), shlex.quote(str(self.tmp / "kept"))
            own_tmp = "\n".join(
                [
                    f"mkdir -p {holder}",
                    f"mount --bind {kept} {holder}",
                    own_tmp,
                    f"mkdir {kept}",
                    f"mount --bind {holder} {kept}",
                ]
            )
        steps += [own_tmp, "exec " + shlex.join(command)]
        return ["--mount", "--uts", "--propagation", "private", "sh", "-c", "\n".join(steps)]

    @property
    def own_tmp(self) -> Path:
        """Its ``/tmp``, as it sees it."""
        assert self.process is not None
        return Path(f"/proc/{self.process.pid}/root/tmp")

    def state_folders(self) -> set[str]:
        """Its sandboxes' state folders that are whole (their lock and their mount point)."""
        return {
            folder.name
            for folder in self.own_tmp.glob(f"{STATE_PREFIX}*")
            if (folder / LOCK_NAME).is_file() and (folder / ROOT_NAME).is_dir()
        }

    def cgroups(self, names: set[str]) -> set[Path]:
        """The cgroups named ``names`` under the server's own, in every hierarchy."""
        assert self.process is not None
        found = set()
        for line in Path(f"/proc/{self.process.pid}/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for mount in controllers.split(",") if controllers else [""]:
                parent = CGROUP_ROOT / mount.removeprefix("name=") / path.lstrip("/")
                found |= {parent / name for name in names if (parent / name).is_dir()}
        return found


@contextlib.contextmanager
def private_tmp_server(uid: int | None) -> Iterator[PrivateTmpServer]:
    """A started :class:`PrivateTmpServer` with a learner (``headers``) and a SQLite database
    of its own; as ``uid`` when given."""
    # Outside /tmp, which the server's own tmpfs hides from it.
    folder = Path(tempfile.mkdtemp(prefix="numjudge-heal-", dir="/var/tmp"))
    try:
        database_url = f"sqlite:///{folder / 'numjudge.db'}"
        upgrade_database(database_url)
        live = PrivateTmpServer(folder, database_url, uid)
        live.headers = live.add_user("ada")
        # Every connection closed: SQLite's WAL files go with the last, none left root's.
        dispose_engines()
        if uid is not None:
            for path in (folder, *folder.iterdir()):
                os.chown(path, uid, uid)
        live.start(timeout=180)
        try:
            yield live
        finally:
            live.kill()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["root", "rootless"])
def server(request: pytest.FixtureRequest) -> Iterator[PrivateTmpServer]:
    if os.geteuid() != 0:
        pytest.skip("not root: a /tmp of the server's own needs a mount namespace")
    for tool in ("unshare", "setpriv", "mount", "hostname"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is missing: the self-healing test did NOT run")
    with private_tmp_server(CLOUDSDK if request.param == "rootless" else None) as live:
        yield live


class HealthPolls(threading.Thread):
    """``GET /healthz`` every 0.2 s until stopped: each answer's status code, and whether the
    server's folders were whole right after it."""

    def __init__(self, server: PrivateTmpServer, whole: int) -> None:
        super().__init__(daemon=True)
        self.server, self.whole = server, whole
        self.answers: list[tuple[int, bool]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.server.url, timeout=30) as client:
            while not self.stop.wait(0.2):
                code = client.get("/healthz").status_code
                self.answers.append((code, len(self.server.state_folders()) == self.whole))


def submit(client: httpx.Client, code: str, wait_s: int = 0) -> dict[str, Any]:
    response = client.post(
        "/submit", params={"wait": wait_s}, json={"exercise": EXERCISE, "code": code}
    )
    assert response.status_code == 202, response.text
    data: dict[str, Any] = response.json()
    return data


def test_working_folders_removed_under_a_running_server_are_made_again(
    server: PrivateTmpServer,
) -> None:
    solution = read_exercise_file(EXERCISE, "solution.py")
    with server.client(server.headers) as client:
        first = submit(client, solution, wait_s=60)
        assert first["verdict"] == "passed", first
        assert client.get("/healthz").status_code == 200

        # What a cleaner of /tmp finds of the server's: everything there is.
        made = sorted(path.name for path in server.own_tmp.iterdir() if path.name != KEPT_IN_TMP)
        folders = server.state_folders()
        # The root image's folder and one per zygote; not root, the core claims' folder too.
        assert len(folders) >= 2, made
        others = set(made) - folders
        assert others == ({f"numjudge-cores-{server.uid}"} if server.uid else set()), made
        cgroups = server.cgroups(folders)
        # Root: each zygote's cgroup, in every hierarchy (the image's folder has none).
        assert bool(cgroups) is (server.uid is None), cgroups
        for name in made:
            shutil.rmtree(server.own_tmp / name)
        for cgroup in cgroups:
            cgroup.rmdir()

        broken = client.get("/healthz")
        polls = HealthPolls(server, len(folders))
        polls.start()
        try:
            # Together: on a server that does not heal, each ends only after its attempts.
            ids = [submit(client, solution)["id"] for _ in range(3)]
            after = wait_all_done(client, ids, timeout=400)
        finally:
            polls.stop.set()
            polls.join()
        assert [after[i]["verdict"] for i in ids] == ["passed"] * 3, after
        assert all(a["score"] == a["max_score"] for a in after.values()), after
        # Not ok at once: the grading process sees its own folders gone.
        assert broken.status_code == 503, broken.text
        assert broken.json()["sandbox"].startswith("missing: "), broken.json()

        deadline = time.monotonic() + 60
        while client.get("/healthz").status_code != 200:
            assert time.monotonic() < deadline, client.get("/healthz").text
            time.sleep(0.2)
    # Made again: as many whole state folders as before, none of them an old one; as root
    # each zygote's cgroup again.
    rebuilt = server.state_folders()
    assert len(rebuilt) == len(folders) and not rebuilt & folders, (rebuilt, folders)
    assert bool(server.cgroups(rebuilt)) is (server.uid is None)
    # Every ok answer came once the folders were whole again.
    assert all(whole for code, whole in polls.answers if code == 200), polls.answers
    assert "working folders vanished" in server.log_text()
