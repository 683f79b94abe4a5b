"""Fixtures shared by the engine's and the service's tests."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders.api import Sandbox
from tests import needs
from tests.graders.helpers import GATE

if TYPE_CHECKING:
    from playwright.sync_api import Browser

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def gate_copy(tmp_path: Path) -> Path:
    """A private copy of exercises/gru-update-gate, free to edit."""
    target = tmp_path / "gru-update-gate"
    shutil.copytree(GATE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture(autouse=True, scope="session")
def the_test_run_keeps_every_core() -> Iterator[None]:
    """A service command run in the test process would keep the whole run on one core
    (``graders.sandbox.cpu_affinity``): slower, and wrong for the tests that count cores."""
    every = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    yield
    if every is not None:
        assert os.sched_getaffinity(0) == every, "a test pinned the test process's threads"


SLOW_FIXTURES = frozenset(
    {"sandbox", "shared_grader", "live_server", "limited_server", "learner", "browser"}
)
"""The fixtures that start real processes: a sandbox pool (this file's, tests/graders's and the
test modules' own ``sandbox``, and the app tests' ``shared_grader``, which every in-process app
that grades uses), a live server (tests/clients's ``live_server`` and ``limited_server``;
tests/security/test_exfiltration.py's ``learner``, on a server of its own) or Chromium."""
SLOW_MARKERS = ("browser", "vscode", "vscode_host")
"""The markers of tests that drive outside programs: Chromium, node and npm, code-server."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that starts a real sandbox, a server or an outside program is ``slow``: each
    takes seconds to start and to wait for, and ``make test-fast`` is for the tests that do
    not. Marked here by the fixtures and markers they use (the tests that start such a process
    in their own body are marked where they are written: tests/test_slow_marks.py checks
    them)."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())) or any(
            item.get_closest_marker(marker) for marker in SLOW_MARKERS
        ):
            item.add_marker(pytest.mark.slow)


FULL_COLLECTION_EVERY = 100
"""Collections of the cyclic GC's middle generation between two of its full ones (Python's
default: 10)."""


def pytest_collection_finish(session: pytest.Session) -> None:
    """The objects the imports made (about 400,000: the service, the engine, numpy, FastAPI,
    pydantic, the tests) are kept out of the cyclic GC's full collections, which scanned them
    all again each time (about 250 ms, 14 times in 40 of the pages' tests: 7 % of their CPU),
    and full collections come ten times less often. What the tests make is still collected;
    a cycle among the frozen objects is not, and those live as long as the process anyway."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test of a submission's several processes is skipped where no cgroup can be made (not
    root): there a submission may start none (``graders.sandbox.seccomp``), which
    ``tests/security/test_sandbox_channels.py`` checks instead.

    A browser or VS Code test whose programs are missing (``tests/needs.py``) fails as root,
    for whom ``make test`` installs them, and is skipped for anyone else with the line ``make
    test`` printed; before its fixtures, so no server starts for it."""
    if item.get_closest_marker("several_processes") and os.geteuid() != 0:
        pytest.skip("not root: no cgroup, so a submission may start no process")
    unmet = [need for need in needs.NEEDS if item.get_closest_marker(need.marker) and need.absent()]
    if not unmet:
        return
    if os.geteuid() == 0:
        pytest.fail(needs.root_failure(unmet), pytrace=False)
    pytest.skip(needs.message(needs.missing()))


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``NUMJUDGE_SCREENSHOTS=docs/screenshots`` keeps them in the
    repository, by default a temporary folder."""
    wanted = os.environ.get("NUMJUDGE_SCREENSHOTS")
    folder = (REPO / wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole run, for the tests marked ``browser``: Playwright's
    synchronous API refuses a second instance in a thread while one is open, so a browser of
    one folder's tests broke those of another that ran after it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=needs.chromium(), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    """A warm one-slot sandbox pool of the test module's own (tests/graders share one)."""
    with Sandbox(workers=1) as pool:
        yield pool
