"""The zygote's own behaviour: set-up failures, and cleaning up after a killed zygote."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from graders import PreparedExercise, Sandbox, SandboxLimits, Verdict, grade
from graders.errors import SandboxError
from graders.sandbox import Task
from graders.sandbox.state import STATE_PREFIX
from tests.graders.helpers import REPO, gate_solution


def state_folders() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob(f"{STATE_PREFIX}*"))


def test_a_killed_zygotes_state_folder_is_removed_by_the_next_zygote() -> None:
    before = state_folders()
    with Sandbox(workers=1) as first:
        (folder,) = state_folders() - before
        assert folder.stat().st_mode & 0o777 == 0o700
        os.killpg(first._all[0].process.pid, signal.SIGKILL)
        first._all[0].process.wait()
        assert folder.is_dir()  # the killed zygote could not remove it
        with Sandbox(workers=1):
            assert not folder.exists()
            (second,) = state_folders() - before
        assert not second.exists()  # a zygote that ends normally cleans up itself


def test_a_live_zygotes_folder_is_kept_even_from_another_pid_namespace() -> None:
    before = state_folders()
    with Sandbox(workers=1):
        (folder,) = state_folders() - before
        # Its PID means nothing in a fresh PID namespace; the lock still says it is alive.
        done = subprocess.run(
            ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c",
             "from pathlib import Path; from graders.sandbox.state import remove_stale; "
             f"print(remove_stale(Path({str(folder.parent)!r})))"],
            capture_output=True, text=True, timeout=60, cwd=REPO)
        assert done.returncode == 0, done.stderr
        assert str(folder) not in done.stdout
        assert folder.is_dir()


def test_a_removed_state_folder_costs_no_grading(gate: PreparedExercise) -> None:
    before = state_folders()
    with Sandbox(workers=1) as pool:
        (folder,) = state_folders() - before
        shutil.rmtree(folder)  # another process removed it: its root is gone with it
        report = grade(gate, gate_solution(), pool)
        assert report.verdict is Verdict.PASSED
        assert len(state_folders() - before) == 1  # the replacement zygote's


def test_a_layer_that_cannot_be_set_up_is_refused_with_its_reason() -> None:
    # No descriptor may be opened: the sandbox cannot even point its stdio at /dev/null.
    broken = SandboxLimits(max_open_files=0)
    task = [Task(("x",), (np.zeros(2),))]
    with Sandbox(workers=1) as pool:
        with pytest.raises(SandboxError, match=r"sandbox setup: .*Too many open files"):
            pool.run("def f(x):\n    return x\n", "f", task, broken)
        result = pool.run("def f(x):\n    return x + 1\n", "f", task)  # the zygote still serves
        assert result.outcomes[0].value.tolist() == [1.0, 1.0]
