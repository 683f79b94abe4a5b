"""Which isolation layers are active here, seen from inside a real sandbox.

``diagnose`` starts a zygote that may run with missing layers, grades a probe in it, and
compares what the probe sees (its namespaces, uid, capabilities, seccomp mode, rlimits,
cgroup) with the trusted process's own, so the answer is what a submission would get, not
what the configuration promises.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from graders.errors import SandboxError
from graders.sandbox import landlock
from graders.sandbox.cgroups import detect_version
from graders.sandbox.isolation import rootless
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.protocol import Ending, Task
from graders.sandbox.runner import Sandbox

NAMESPACES = ("user", "net", "mnt", "pid", "ipc", "uts")
PROBE = """
import json, os, resource, sys

def probe(x):
    # The device of each file mapping as the kernel lists it (its path may lie outside the
    # root), with one path per device: the answer must stay small however much is mapped.
    devices = {}
    for line in open("/proc/self/maps"):
        fields = line.split()
        if len(fields) > 5 and fields[4] != "0":
            major, minor = fields[3].split(":")
            devices.setdefault(os.makedev(int(major, 16), int(minor, 16)), fields[5])
    for path in (sys.executable, os.__file__, json.__file__):
        devices.setdefault(os.stat(path).st_dev, path)
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
    return json.dumps({
        "ns": {kind: os.readlink("/proc/self/ns/" + kind) for kind in NAMESPACES},
        "uid": os.getuid(), "pid": os.getpid(), "root": sorted(os.listdir("/")),
        "caps": int(status["CapEff"].strip(), 16), "seccomp": int(status["Seccomp"].strip()),
        "no_new_privs": int(status["NoNewPrivs"].strip()),
        "memory": resource.getrlimit(resource.RLIMIT_AS)[0],
        "cgroup": open("/proc/self/cgroup").read(),
        "mount_table": readable("/proc/self/mountinfo"),
        "devices": devices,
        "fork": fork(),
    })

def fork():
    try:
        pid = os.fork()
    except OSError as exc:
        return exc.strerror
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return "allowed"

def readable(path):
    try:
        open(path).close()
    except PermissionError:  # Landlock answers opening only, not access()
        return False
    return True
""".replace("NAMESPACES", repr(NAMESPACES))


class LayerState(Enum):
    ACTIVE = "active"
    MISSING = "missing"
    NOT_NEEDED = "not needed"


@dataclass(frozen=True)
class Layer:
    name: str
    state: LayerState
    detail: str = ""
    required: bool = True
    """A strict sandbox refuses to grade without it (the cgroup is an extra)."""


def diagnose(limits: SandboxLimits | None = None) -> list[Layer]:
    """Every layer, active or missing with why, from a probe graded in a real sandbox."""
    limits = replace(limits or SandboxLimits(), strict=False)
    try:
        with Sandbox(workers=1, limits=limits) as pool:
            zygote = pool.zygotes[0]
            run = pool.run(PROBE, "probe", [Task(("x",), (np.zeros(1),))], limits)
            missing, reduced, uid = zygote.unavailable, zygote.reduced, zygote.uid
            image = RootImage.of(zygote.process.pid, zygote.state_folder)
            zygote_image, one_process = zygote.image, zygote.one_process
    except SandboxError as exc:
        return [Layer("sandbox", LayerState.MISSING, f"no sandbox could run: {exc}")]
    outcome = run.outcomes.get(0)
    if run.ending is not Ending.COMPLETED or outcome is None or not outcome.ok:
        failure = outcome.error if outcome is not None and outcome.error else {}
        why = run.message or f"{failure.get('type', '')}: {failure.get('message', '')}"
        return [Layer("sandbox", LayerState.MISSING, f"the probe did not run: {why}")]
    seen: dict[str, Any] = json.loads(outcome.value)
    mapped = {path: int(device) for device, path in seen["devices"].items()}
    why = "; ".join(missing)
    layers = [namespace_layer(kind, seen["ns"][kind], why) for kind in NAMESPACES]
    private_root = sorted(seen["root"]) == image.top_level
    in_memory = image.on_tmpfs(mapped.values())
    layers += [
        Layer(
            "private root",
            state(private_root),
            f"only {', '.join(image.top_level)}" if private_root else why,
        ),
        Layer(
            "root in memory",
            state(in_memory),
            zygote_image
            if in_memory
            else f"{zygote_image}; files off tmpfs: " + ", ".join(image.off_tmpfs(mapped)),
        ),
        Layer("PID 1 of its own", state(seen["pid"] == 1), f"pid {seen['pid']}"),
        Layer(
            "unprivileged uid",
            state(seen["uid"] != 0 and seen["caps"] == 0),
            f"uid {seen['uid']} (the slot's: {uid}), capabilities {seen['caps']:#x}",
        ),
        Layer("no_new_privs", state(seen["no_new_privs"] == 1)),
        Layer("seccomp filter", state(seen["seccomp"] == 2), f"mode {seen['seccomp']}"),
        Layer(
            "rlimits",
            state(seen["memory"] == limits.memory_mb * 1024 * 1024),
            f"address space {seen['memory'] // (1024 * 1024)} MB",
        ),
        Layer(
            "cgroup",
            state("numjudge-sandbox-" in seen["cgroup"]),
            f"{detect_version().value}: memory, pids, cpu of all processes together"
            if not reduced
            else "; ".join(reduced),
            required=False,
        ),
        memory_budget_layer(seen, one_process),
        Layer(
            "mount table",
            state(not seen["mount_table"]),
            landlock.unavailable() or "Landlock: /proc/self/mountinfo and the like are unreadable",
            required=False,
        ),
    ]
    return layers


@dataclass(frozen=True)
class RootImage:
    """The sandboxes' root image as the trusted side sees it, through a zygote's
    ``/proc/<pid>``: what it holds at its top, and the file system of each device."""

    top_level: list[str]
    filesystems: dict[int, str]
    """``st_dev`` -> file system type, for every mount in the zygote's mount namespace."""

    @classmethod
    def of(cls, pid: int, state_folder: Path) -> RootImage:
        filesystems = {}
        for line in Path(f"/proc/{pid}/mountinfo").read_text().splitlines():
            fields, _, after = line.partition(" - ")
            major, minor = fields.split()[2].split(":")
            filesystems[os.makedev(int(major), int(minor))] = after.split()[0]
        image = Path(f"/proc/{pid}/root") / str(state_folder).lstrip("/") / "root"
        return cls(sorted(os.listdir(image)), filesystems)

    def on_tmpfs(self, devices: Iterable[int]) -> bool:
        return all(self.filesystems.get(device) == "tmpfs" for device in devices)

    def off_tmpfs(self, devices: dict[str, int]) -> list[str]:
        return [path for path, device in devices.items() if not self.on_tmpfs([device])]


def memory_budget_layer(seen: dict[str, Any], one_process: bool) -> Layer:
    """All of a submission's processes within ``memory_mb``: by the cgroup, or, without one,
    by letting it start no process (its one address space is then the whole budget)."""
    if not one_process:
        in_cgroup = "numjudge-sandbox-" in seen["cgroup"]
        return Layer("memory budget", state(in_cgroup), "the cgroup: all processes together")
    refused = seen["fork"] != "allowed"
    return Layer(
        "memory budget",
        state(refused),
        "one process: a new one is refused (threads are allowed), so the address-space "
        f"limit bounds the whole submission (fork: {seen['fork']})",
    )


def namespace_layer(kind: str, inside: str, why: str) -> Layer:
    outside = os.readlink(f"/proc/self/ns/{kind}")
    if kind == "user" and not rootless():
        return Layer("user namespace", LayerState.NOT_NEEDED, "root: the host's users are used")
    active = inside != outside
    return Layer(f"{kind} namespace", state(active), "" if active else why)


def state(active: bool) -> LayerState:
    return LayerState.ACTIVE if active else LayerState.MISSING
