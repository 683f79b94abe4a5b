"""The zygote's own behaviour: set-up failures, and cleaning up after a killed zygote."""

from __future__ import annotations

import ast
import os
import platform
import shutil
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from graders.api import CpuPriority, PreparedExercise, Sandbox, SandboxLimits, Verdict, grade
from graders.errors import SandboxError
from graders.sandbox.cgroups import CgroupVersion, detect_version, own_cgroup
from graders.sandbox.exitcodes import EXIT_MEMORY_LIMIT
from graders.sandbox.isolation import FAVOR_MOVES_HIERARCHY
from graders.sandbox.launch import child_environment, launcher
from graders.sandbox.protocol import Task
from graders.sandbox.state import MOVES_NAME
from tests.graders.helpers import REPO, gate_solution


@pytest.mark.slow
def test_the_zygote_starts_without_the_rest_of_the_engine() -> None:
    # The zygote's launcher (the second stage's) up to ``main()``: the modules every fork of
    # a zygote starts with.
    modules_then = launcher("graders.sandbox.zygote").replace(
        "\nmain()\n",
        "\nimport sys\nprint(sorted(m for m in sys.modules if m.startswith('graders')))\n",
    )
    printed = subprocess.run(
        [sys.executable, "-c", modules_then],
        env=child_environment(),
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    modules = set(ast.literal_eval(printed))
    assert {"graders.sandbox.zygote", "graders.sandbox.harness", "graders.sandbox.wire"} <= modules
    assert not modules & {
        "graders.exercises",
        "graders.checks.diagnosis",
        "graders.mutation.mutants",
        "graders.grading.grade",
        "graders.sandbox.runner",
    }


@pytest.mark.slow
def test_a_killed_zygotes_state_folder_is_removed_by_the_next_zygote() -> None:
    with Sandbox(workers=1) as first:
        folder = first.zygotes[0].state_folder
        assert folder.stat().st_mode & 0o777 == 0o700
        os.killpg(first.zygotes[0].process.pid, signal.SIGKILL)
        first.zygotes[0].process.wait()
        assert folder.is_dir()  # the killed zygote could not remove it
        with Sandbox(workers=1) as second:
            assert not folder.exists()
            own = second.zygotes[0].state_folder
            assert own.is_dir()
        assert not own.exists()  # a zygote that ends normally cleans up itself


def test_a_zygote_with_cgroups_makes_moves_into_them_fast_in_its_own_mount_table() -> None:
    """The hierarchy whose option spares each move an RCU grace period (docs/sandbox.md, "What
    the cgroup costs") is mounted in the zygote's mount namespace, on its state folder; the
    host's mount table never shows it."""
    if int(platform.release().split(".")[0]) < 6:
        pytest.skip("Linux before 6.0 has no favordynmods")
    with Sandbox(workers=1) as pool:
        zygote = pool.zygotes[0]
        if zygote.one_process:
            pytest.skip("no cgroup here, so no move into one")
        theirs = Path(f"/proc/{zygote.process.pid}/mountinfo").read_text().splitlines()
        ours = Path("/proc/self/mountinfo").read_text()
        moves = [line for line in theirs if f"name={FAVOR_MOVES_HIERARCHY}" in line]
        assert len(moves) == 1, theirs
        assert f" {zygote.state_folder / MOVES_NAME} " in moves[0]
        assert "favordynmods" in moves[0].split(" - ")[1]  # the hierarchy's own options
        assert f"name={FAVOR_MOVES_HIERARCHY}" not in ours


def moves_hierarchy() -> str | None:
    """This process's line for the hierarchy that makes cgroup moves fast (every process is in
    every hierarchy): its number first, which any submission reads the same way."""
    lines = Path("/proc/self/cgroup").read_text().splitlines()
    return next((line for line in lines if f"name={FAVOR_MOVES_HIERARCHY}" in line), None)


def test_the_moves_hierarchy_outlives_its_zygotes_with_the_same_number() -> None:
    """Made again each time the host's last zygote ended, its number would count those moments
    for any submission to read in /proc/self/cgroup."""
    if int(platform.release().split(".")[0]) < 6:
        pytest.skip("Linux before 6.0 has no favordynmods")
    with Sandbox(workers=1) as pool:
        if pool.zygotes[0].one_process:
            pytest.skip("no cgroup here, so no move into one")
        first = moves_hierarchy()
    assert first is not None
    assert moves_hierarchy() == first  # with no zygote of this pool left
    with Sandbox(workers=1):
        assert moves_hierarchy() == first


@pytest.mark.slow
def test_a_live_zygotes_folder_is_kept_even_from_another_pid_namespace() -> None:
    with Sandbox(workers=1) as pool:
        folder = pool.zygotes[0].state_folder
        # Its PID means nothing in a fresh PID namespace; the lock still says it is alive.
        user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
        done = subprocess.run(
            [
                "unshare",
                *user,
                "--pid",
                "--fork",
                "--mount-proc",
                sys.executable,
                "-c",
                "from pathlib import Path; from graders.sandbox.state import remove_stale; "
                f"print(remove_stale(Path({str(folder.parent)!r})))",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
        )
        assert done.returncode == 0, done.stderr
        assert str(folder) not in done.stdout
        assert folder.is_dir()


@pytest.mark.slow
def test_a_removed_state_folder_costs_no_grading(gate: PreparedExercise) -> None:
    with Sandbox(workers=1) as pool:
        folder = pool.zygotes[0].state_folder
        shutil.rmtree(folder)  # another process removed it: its root is gone with it
        report = grade(gate, gate_solution(), pool)
        assert report.verdict is Verdict.PASSED
        assert pool.zygotes[0].state_folder.is_dir()  # the replacement zygote's


@pytest.mark.slow
def test_a_layer_that_cannot_be_set_up_is_refused_with_its_reason() -> None:
    # No descriptor may be opened: the sandbox cannot even point its stdio at /dev/null.
    broken = SandboxLimits(max_open_files=0)
    task = [Task(("x",), (np.zeros(2),))]
    with Sandbox(workers=1) as pool:
        with pytest.raises(SandboxError, match=r"sandbox setup: .*Too many open files"):
            pool.run("def f(x):\n    return x\n", "f", task, broken)
        result = pool.run("def f(x):\n    return x + 1\n", "f", task)  # the zygote still serves
        assert result.outcomes[0].value.tolist() == [1.0, 1.0]


@pytest.mark.slow
def test_a_submission_finds_no_engine_module_by_name() -> None:
    """The zygote took them out of ``sys.modules`` before its first fork, so every sandbox
    starts without them (and none walks ``sys.modules`` itself: docs/performance.md)."""
    code = (
        "import sys\n"
        "def f(x):\n"
        "    return [name for name in sys.modules if name.partition('.')[0] == 'graders']\n"
    )
    task = [Task(("x",), (np.zeros(1),))]
    with Sandbox(workers=1) as pool:
        for _ in range(2):  # the second from the same zygote, after the first sandbox
            result = pool.run(code, "f", task)
            assert result.outcomes[0].ok and result.outcomes[0].value == []


@pytest.mark.slow
def test_every_pool_on_a_host_grades_as_uids_of_its_own() -> None:
    with Sandbox(workers=2) as first, Sandbox(workers=2) as second:
        uids = [zygote.uid for zygote in (*first.zygotes, *second.zygotes)]
    if os.geteuid() != 0:
        pytest.skip("not root: each zygote's uid lives in a user namespace of its own")
    assert len(set(uids)) == 4 and min(uids) >= SandboxLimits().uid_base


# 16 processes of 100 MB each: each under its own RLIMIT_AS, 1.6 GB together.
SIXTEEN_PROCESSES = """
import os, time
import numpy as np

def f(x):
    children = []
    for _ in range(15):
        pid = os.fork()
        if pid == 0:
            block = np.ones(100 * 1024 * 1024 // 8)
            time.sleep(30)
            os._exit(0)
        children.append(pid)
    block = np.ones(100 * 1024 * 1024 // 8)
    for pid in children:
        os.waitpid(pid, 0)
    return x
"""

# Three children of 100 MB: the kernel kills the largest process, a child, and would leave the
# parent sleeping until the wall clock ran out, a timeout for what was the memory limit.
A_CHILD_KILLED = """
import os, time
import numpy as np

def f(x):
    children = []
    for _ in range(3):
        pid = os.fork()
        if pid == 0:
            try:
                block = np.ones(100 * 1024 * 1024 // 8)
                time.sleep(5)
            finally:
                os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    time.sleep(30)
    return x
"""


@pytest.mark.slow
@pytest.mark.parametrize("code", [SIXTEEN_PROCESSES, A_CHILD_KILLED], ids=["sixteen", "a-child"])
def test_all_the_processes_of_a_submission_share_one_memory_budget(code: str) -> None:
    limits = SandboxLimits(time_s=10.0, memory_mb=256, max_processes=32)
    with Sandbox(workers=1, limits=limits) as pool:
        if pool.zygotes[0].one_process:
            pytest.skip(
                "no cgroup: a submission may start no process, which "
                "tests/security/test_sandbox_channels.py checks instead"
            )
        result = pool.run(code, "f", [Task(("x",), (np.zeros(2),))], limits)
        assert result.exit_code == EXIT_MEMORY_LIMIT, (result.ending, result.message)
        assert "went over the memory limit (256 MB)" in result.message
        again = pool.run("def f(x):\n    return x + 1\n", "f", [Task(("x",), (np.zeros(2),))])
        assert again.outcomes[0].value.tolist() == [1.0, 1.0]


@pytest.mark.slow
def test_a_background_sandbox_leaves_the_cpu_to_the_others() -> None:
    """A regrade's sandbox runs at the lowest priority (and its cgroup at the lowest weight);
    the zygote's next, normal sandbox is back at the normal priority."""
    code = textwrap.dedent("""
        import os
        import numpy as np

        def f(x):
            return np.array([os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0)],
                            dtype=float)
    """)
    task = [Task(("x",), (np.zeros(1),))]
    with Sandbox(workers=1) as pool:
        zygote = pool.zygotes[0]
        for priority, expected, weight in (
            (CpuPriority.BACKGROUND, [19, os.SCHED_IDLE], ("2", "1")),
            # Normal is the service's own niceness (0 unless the suite itself runs niced).
            (
                CpuPriority.NORMAL,
                [os.getpriority(os.PRIO_PROCESS, 0), os.SCHED_OTHER],
                ("1024", "100"),
            ),
        ):
            result = pool.run(code, "f", task, replace(pool.limits, priority=priority))
            assert result.outcomes[0].value.tolist() == expected, priority
            if not zygote.reduced:  # a cgroup per zygote: its weight follows the priority
                assert cpu_weight(zygote.state_folder.name) in weight


def cpu_weight(cgroup_name: str) -> str:
    version = detect_version()
    controller = "" if version is CgroupVersion.V2 else "cpu"
    folder = own_cgroup(controller, version) / cgroup_name
    file = "cpu.weight" if version is CgroupVersion.V2 else "cpu.shares"
    return (folder / file).read_text().strip()
