"""The zygote's own behaviour: set-up failures, and cleaning up after a killed zygote."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import numpy as np
import pytest

from graders import Sandbox, SandboxLimits
from graders.errors import SandboxError
from graders.sandbox import Task


def mountpoints_of(pid: int) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"numjudge-root-{pid}-*"))


def test_a_killed_zygotes_mount_point_is_removed_by_the_next_zygote() -> None:
    with Sandbox(workers=1) as first:
        zygote = first._all[0].process
        left_behind = mountpoints_of(zygote.pid)
        assert len(left_behind) == 1 and left_behind[0].is_dir()
        os.kill(zygote.pid, signal.SIGKILL)
        zygote.wait()
        assert left_behind[0].is_dir()  # the killed zygote could not remove it
        with Sandbox(workers=1) as second:
            assert not left_behind[0].exists()
            zygote = second._all[0].process
            assert len(mountpoints_of(zygote.pid)) == 1
        assert mountpoints_of(zygote.pid) == []  # a zygote that ends normally cleans up itself


def test_a_layer_that_cannot_be_set_up_is_refused_with_its_reason() -> None:
    # No descriptor may be opened: the sandbox cannot even point its stdio at /dev/null.
    broken = SandboxLimits(max_open_files=0)
    task = [Task(("x",), (np.zeros(2),))]
    with Sandbox(workers=1) as pool:
        with pytest.raises(SandboxError, match=r"sandbox setup: .*Too many open files"):
            pool.run("def f(x):\n    return x\n", "f", task, broken)
        result = pool.run("def f(x):\n    return x + 1\n", "f", task)  # the zygote still serves
        assert result.outcomes[0].value.tolist() == [1.0, 1.0]
