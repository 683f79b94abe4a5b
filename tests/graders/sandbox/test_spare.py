"""The spare: each zygote forks the next sandbox's PID 1 once a sandbox ended, inside its
namespaces and private root before the request comes (graders/sandbox/zygote.py)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest

from graders.api import Sandbox, SandboxLimits
from graders.sandbox.protocol import Task
from tests.graders.sandbox.processes import descendants, is_gone

TASK = [Task(("x",), (np.zeros(2),))]
ROOT_SIZE = """
import os

def f(x):
    tmp = os.statvfs("/tmp")
    return x + tmp.f_blocks * tmp.f_frsize / 2**20
"""


def below_after_a_grading(pool: Sandbox) -> list[int]:
    """The processes below the pool's zygote once a sandbox ended: the spare among them."""
    zygote = pool.zygotes[0].process.pid
    before = set(descendants(zygote))
    assert pool.run("def f(x):\n    return x\n", "f", TASK).outcomes[0].ok
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not set(descendants(zygote)) - before:
        time.sleep(0.02)
    spares = set(descendants(zygote)) - before
    assert spares, "no sandbox was forked ahead of the next request"
    return [*before, *spares]


@pytest.mark.slow
def test_each_request_gets_the_private_root_it_asks_for() -> None:
    """A spare made for the last request's size is not given to a request for another."""
    with Sandbox(workers=1) as pool:
        for tmpfs_mb in (32, 16, 16, 32):
            limits = SandboxLimits(tmpfs_mb=tmpfs_mb)
            result = pool.run(ROOT_SIZE, "f", TASK, limits)
            assert result.outcomes[0].value.tolist() == [tmpfs_mb, tmpfs_mb]


@pytest.mark.slow
def test_a_waiting_spare_dies_with_its_zygote() -> None:
    with Sandbox(workers=1) as pool:
        processes = below_after_a_grading(pool)
        os.kill(pool.zygotes[0].process.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(map(is_gone, processes)):
            time.sleep(0.02)
        assert all(map(is_gone, processes)), "a spare outlived its zygote"


@pytest.mark.slow
def test_closing_the_pool_ends_its_spares_before_their_cgroup_goes() -> None:
    """The zygote ends its spare before it removes its slot's cgroup, which a live process
    would keep."""
    with Sandbox(workers=1) as pool:
        processes = below_after_a_grading(pool)
        cgroups = pool.zygotes[0].cgroups
        zygote = pool.zygotes[0].process
    zygote.wait(timeout=10)
    assert all(map(is_gone, processes)), "a spare outlived its pool"
    assert not [folder for folder in cgroups if folder.exists()], "a cgroup was left behind"


def unprivileged(pid: int, uid: int) -> bool:
    """Whether the process holds no capability and, as root, runs as ``uid`` (not root, uids
    are seen through the zygote's user namespace)."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    same_uid = os.geteuid() != 0 or set(status["Uid"].split()) == {str(uid)}
    return same_uid and int(status["CapEff"], 16) == 0 and int(status["CapBnd"], 16) == 0


@pytest.mark.slow
def test_a_spare_gives_up_its_privileges_before_any_request() -> None:
    """A spare drops to its slot's uid, with no capability, while it waits: not only once a
    request reaches it. It is found just forked, so it is given a few seconds to get there."""
    with Sandbox(workers=1) as pool:
        zygote = pool.zygotes[0].process.pid
        before = set(descendants(zygote))
        spares = set(below_after_a_grading(pool)) - before
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(
            unprivileged(spare, pool.zygotes[0].uid) for spare in spares
        ):
            time.sleep(0.02)
        assert all(unprivileged(spare, pool.zygotes[0].uid) for spare in spares)
