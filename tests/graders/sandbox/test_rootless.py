"""The sandbox as an ordinary user: the hostile submissions and the faults again, as nobody.

Not root, each zygote enters a user namespace of its own and every other layer follows
(docs/sandbox.md). These tests run the same files as uid 65534 with no capability.
"""

from __future__ import annotations

import re

from tests.graders.sandbox.unprivileged import pytest_as_nobody, run_as_nobody


def test_the_hostile_submissions_are_contained_as_an_unprivileged_user() -> None:
    done = pytest_as_nobody("tests/graders/sandbox/test_hostile.py",
                            "tests/graders/sandbox/test_faults.py")
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    assert re.search(r"^\d+ passed", done.stdout.splitlines()[-1]), done.stdout[-2000:]
    assert "skipped" not in done.stdout.splitlines()[-1]


def test_the_unprivileged_run_really_is_unprivileged() -> None:
    done = run_as_nobody(["sh", "-c", "id -u; grep CapEff /proc/self/status"])
    assert done.stdout.split() == ["65534", "CapEff:", "0000000000000000"], done.stderr
