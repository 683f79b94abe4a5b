"""Service threads kept on a core of their own, their child processes on every core (each
case in a child process of the test, so that the test run itself is not pinned)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.sandbox import cpu_affinity
from graders.sandbox.launch import PACKAGE_ROOT
from graders.sandbox.machine import kernel_id

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs Linux and at least two CPUs",
)

EVERY = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []

PINNED = textwrap.dedent("""
    import json, os, subprocess, sys, threading
    from pathlib import Path
    from graders.sandbox import cpu_affinity

    def cpus(tid=0):
        return sorted(os.sched_getaffinity(tid))

    def child_cpus():
        return json.loads(subprocess.run(
            [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
            capture_output=True, text=True, check=True).stdout)

    started, release = threading.Event(), threading.Event()
    earlier = threading.Thread(target=lambda: (started.set(), release.wait()))
    earlier.start()
    started.wait()
    chosen = sorted(cpu_affinity.keep_threads_on(int(sys.argv[1]), Path(sys.argv[2])))
    later = []
    thread = threading.Thread(target=lambda: later.append(cpus()))
    thread.start()
    thread.join()
    with cpu_affinity.children_use_every_cpu():
        lent = child_cpus()
    print(json.dumps({"chosen": chosen, "main": cpus(), "earlier": cpus(earlier.native_id),
                      "later": later[0], "child": child_cpus(), "lent": lent,
                      "process": sorted(cpu_affinity.process_cpus())}), flush=True)
    release.set()
    sys.stdin.read()  # holds its claim until the test closes stdin
""")


class Pinned:
    """A process that pinned itself and holds its claim until closed."""

    def __init__(self, count: int, folder: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", PINNED, str(count), str(folder)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": PACKAGE_ROOT},
        )
        assert self.process.stdout is not None
        self.seen: dict[str, list[int]] = json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.communicate(timeout=30)


def pinned(count: int, folder: Path) -> dict[str, list[int]]:
    process = Pinned(count, folder)
    process.close()
    return process.seen


def test_every_thread_is_kept_on_one_core_and_children_get_every_core(tmp_path: Path) -> None:
    seen = pinned(1, tmp_path)
    assert seen["chosen"] == [EVERY[-1]]
    # Threads started before and after, and this one; a plain child inherits its thread's.
    assert seen["main"] == seen["earlier"] == seen["later"] == seen["child"] == seen["chosen"]
    assert seen["lent"] == EVERY
    assert seen["process"] == EVERY


def test_processes_on_one_host_take_cores_no_other_holds(tmp_path: Path) -> None:
    holders = [Pinned(1, tmp_path) for _ in EVERY]
    try:
        assert sorted(holder.seen["chosen"][0] for holder in holders) == EVERY
        # Every core is held: one more process is not pinned at all.
        assert pinned(1, tmp_path)["main"] == EVERY
    finally:
        for holder in holders:
            holder.close()
    # A claim ends with its process.
    assert pinned(1, tmp_path)["chosen"] == [EVERY[-1]]


@pytest.mark.parametrize("count", [0, 64])
def test_zero_or_as_many_cores_as_there_are_pins_nothing(count: int, tmp_path: Path) -> None:
    seen = pinned(count, tmp_path)
    assert seen["chosen"] == seen["main"] == seen["earlier"] == seen["child"] == EVERY


@pytest.fixture
def claims_released() -> Iterator[None]:
    """The claims a test makes in this process are let go of after it."""
    held = len(cpu_affinity._claims)
    yield
    while len(cpu_affinity._claims) > held:
        os.close(cpu_affinity._claims.pop())


@pytest.mark.usefixtures("claims_released")
def test_a_claim_takes_the_first_unclaimed_cores_in_the_order_asked(tmp_path: Path) -> None:
    # Here the claims are made in this process, which pins nothing: only the lock files count.
    assert cpu_affinity.claim_cores([3, 2, 1, 0], 2, [tmp_path]) == {3, 2}
    assert cpu_affinity.claim_cores([3, 2, 1, 0], 3, [tmp_path]) == {1, 0}
    assert cpu_affinity.claim_cores([3, 2, 1, 0], 1, [tmp_path]) == frozenset()
    assert sorted(int(file.name) for file in (tmp_path / kernel_id()).iterdir()) == [0, 1, 2, 3]


@pytest.mark.usefixtures("claims_released")
def test_the_first_usable_folder_holds_the_claims(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    assert cpu_affinity.claim_cores([1], 1, [not_a_folder, tmp_path]) == {1}
    assert cpu_affinity.claim_cores([1], 1, [not_a_folder]) == frozenset()
