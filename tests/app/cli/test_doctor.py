"""``numjudge doctor``: every layer a submission gets here, from a probe in a real sandbox."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from app.cli.main import app
from tests.graders.sandbox.test_doctor import REQUIRED


@pytest.mark.slow  # a real sandbox
def test_doctor_lists_every_layer_and_the_cgroup_version() -> None:
    if os.geteuid() != 0:
        pytest.skip("not root: tests/graders/sandbox/test_rootless.py covers this case")
    result = CliRunner().invoke(app, ["doctor"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    states = {line[:17].strip(): line[17:].split()[0] for line in lines[:-1]}
    assert states.pop("user namespace") == "not"  # "not needed": root uses the host's users
    cgroup = next(line for line in lines if line.startswith("cgroup"))
    if states.pop("cgroup") == "active":
        assert " v1: memory, pids, cpu" in cgroup or " v2: memory, pids, cpu" in cgroup
    else:
        assert cgroup.split("missing", 1)[1].strip().startswith("cgroup"), cgroup  # the why
    assert set(states) == REQUIRED | {"mount table"}
    assert set(states.values()) == {"active"}, result.output
    assert lines[-1] == "NUMJUDGE_SANDBOX_STRICT: on"
