"""graders/sandbox/machine.py: each machine removes only what it created (state folders,
cgroups) and keeps its uid and core claims in its kernel's folder."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.sandbox import cgroups, cpu_affinity, machine, state

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def other_machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The prefix another machine on this kernel (another hostname) names its folders with."""
    machine.machine_id.cache_clear()
    monkeypatch.setattr(socket, "gethostname", lambda: "another-machine")
    theirs = state.own_prefix()
    monkeypatch.undo()
    machine.machine_id.cache_clear()
    yield theirs


def test_the_machine_is_the_kernel_and_the_hostname(other_machine: str) -> None:
    assert other_machine != state.own_prefix()
    assert state.own_prefix().startswith(state.STATE_PREFIX)
    assert machine.kernel_id() == machine._digest(machine._boot_id())  # the same kernel


def test_another_machines_cgroup_under_the_same_parent_is_kept(
    other_machine: str, tmp_path: Path
) -> None:
    # Its state folder is in the other machine's /tmp, never in ours: not a sign it is dead.
    theirs = tmp_path / f"{other_machine}abc"
    ours = tmp_path / f"{state.own_prefix()}def"
    theirs.mkdir()
    ours.mkdir()
    cgroups.remove_stale(tmp_path)
    assert theirs.is_dir()
    assert not ours.exists()  # ours with no state folder in our /tmp: a killed zygote's


def test_an_unlocked_state_folder_of_another_machine_is_kept(
    other_machine: str, tmp_path: Path
) -> None:
    theirs = tmp_path / f"{other_machine}abc"
    ours = tmp_path / f"{state.own_prefix()}def"
    for folder in (theirs, ours):
        (folder / state.ROOT_NAME).mkdir(parents=True)
        (folder / state.LOCK_NAME).touch()
    assert state.remove_stale(tmp_path) == [ours]
    assert theirs.is_dir()


def test_a_claimed_state_folder_carries_the_machine(tmp_path: Path) -> None:
    folder = state.claim(tmp_path)
    try:
        assert folder.path.name.startswith(state.own_prefix())
    finally:
        os.close(folder.lock_fd)
        assert state.remove(folder.path)


def test_uid_and_core_claims_live_in_the_kernels_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state, "UID_FOLDERS", (tmp_path / "uids",))
    monkeypatch.setattr(cpu_affinity, "CORE_FOLDERS", (tmp_path / "cores",))
    uid, fd = state.claim_uid(61000)
    try:
        assert uid == 61000 and (tmp_path / "uids" / machine.kernel_id() / "0").is_file()
    finally:
        os.close(fd)
    assert cpu_affinity.claim_cores([0], 1) == frozenset({0})
    assert (tmp_path / "cores" / machine.kernel_id() / "0").is_file()


@pytest.mark.slow
def test_a_machine_in_namespaces_of_its_own_leaves_our_cgroups() -> None:
    """Another hostname and another temporary folder on this kernel, as a second worker beside
    ours. Its temporary folder is a fresh tmpfs named by TMPDIR rather than one over /tmp,
    which would hide a checkout (and its interpreter) that lives under /tmp."""
    if os.geteuid() != 0:
        pytest.skip("not root: no namespaces of our own to make a second machine in")
    ours = state.claim(Path(tempfile.gettempdir()))  # a live zygote's, on this machine
    # The shared parent stands for a parent cgroup: outside /tmp, which the other replaces.
    parent = Path(tempfile.mkdtemp(dir="/var/tmp"))
    other_tmp = Path(tempfile.mkdtemp(dir="/var/tmp"))
    try:
        (parent / ours.path.name).mkdir()
        script = (
            f"import socket; socket.sethostname('second-machine'); "
            f"from pathlib import Path; from graders.sandbox import cgroups; "
            f"cgroups.remove_stale(Path({str(parent)!r}))"
        )
        done = subprocess.run(
            [
                "unshare",
                "--uts",
                "--mount",
                "--propagation",
                "private",
                "sh",
                "-c",
                f"mount -t tmpfs tmpfs {other_tmp} && "
                f'TMPDIR={other_tmp} {sys.executable} -c "{script}"',
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
        )
        assert done.returncode == 0, done.stderr
        assert (parent / ours.path.name).is_dir()
    finally:
        os.close(ours.lock_fd)
        state.remove(ours.path)
        shutil.rmtree(parent)
        other_tmp.rmdir()
