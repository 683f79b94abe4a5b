"""``diagnose``: each layer of the sandbox as a probe inside one saw it (the CLI's ``numjudge
doctor`` prints these; tests/app/cli/test_doctor.py checks how)."""

from __future__ import annotations

import os

import pytest

from graders.sandbox.cgroups import detect_version
from graders.sandbox.doctor import LayerState, diagnose
from graders.sandbox.limits import SandboxLimits

REQUIRED = {
    "net namespace",
    "mnt namespace",
    "pid namespace",
    "ipc namespace",
    "uts namespace",
    "private root",
    "root in memory",
    "PID 1 of its own",
    "unprivileged uid",
    "no_new_privs",
    "seccomp filter",
    "rlimits",
    "memory budget",
}


@pytest.mark.slow  # diagnose() starts a sandbox
def test_as_root_every_layer_is_active() -> None:
    if os.geteuid() != 0:
        pytest.skip("not root: tests/graders/sandbox/test_rootless.py covers this case")
    layers = {layer.name: layer for layer in diagnose()}
    assert layers.pop("user namespace").state is LayerState.NOT_NEEDED
    cgroup = layers.pop("cgroup")
    assert not cgroup.required
    assert cgroup.state is LayerState.ACTIVE, cgroup.detail
    assert cgroup.detail.startswith(f"{detect_version().value}: memory, pids, cpu")
    mount_table = layers.pop("mount table")
    assert not mount_table.required
    assert mount_table.state is LayerState.ACTIVE, mount_table.detail  # Landlock, on this kernel
    assert set(layers) == REQUIRED
    assert {name: layer.state for name, layer in layers.items()} == dict.fromkeys(
        REQUIRED, LayerState.ACTIVE
    )
    assert all(layer.required for layer in layers.values())


@pytest.mark.slow  # diagnose() starts a sandbox
def test_a_probe_that_fails_is_one_missing_layer_saying_why() -> None:
    # Not strict: the sandbox starts, and the probe cannot open what it reads.
    (layer,) = diagnose(SandboxLimits(max_open_files=0))
    assert (layer.name, layer.state) == ("sandbox", LayerState.MISSING)
    assert "Too many open files" in layer.detail
