"""tests/needs.py: without Chromium, node and npm, ``make test`` as an ordinary user names them
in one line and the browser and VS Code tests are skipped with it; as root they fail."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import needs
from tests.graders.sandbox.unprivileged import REPO, run_as_nobody

LINE = (
    "chromium, node and npm are missing and this is not root: the browser tests and VS Code "
    "tests are skipped (to run them: sudo apt-get install chromium nodejs npm)"
)
# code-server (``make vscode-host``) counts as installed: these lines are about the others.
CODE_SERVER_PRESENT = "/bin/true"
# One browser test, one VS Code test and one that is both.
MARKED = ["tests/e2e/test_api_docs.py", "tests/clients/test_vscode.py"]


def path_without(tmp_path: Path, left_out: set[str]) -> str:
    """A PATH of every program of /usr/bin but ``left_out`` (set by ``env`` as the command
    starts: the folder is reachable only once the unprivileged run has bound it), where each
    program the tests need is there unless left out: a stand-in if this machine lacks it."""
    folder = tmp_path / "bin"
    folder.mkdir(parents=True)
    for program in Path("/usr/bin").iterdir():
        if program.name not in left_out:
            (folder / program.name).symlink_to(program)
    needed = {program for need in needs.NEEDS for program in need.programs}
    for name in needed - left_out:
        stand_in = folder / name
        if not stand_in.exists():
            stand_in.write_text("#!/bin/sh\nexit 0\n")
            stand_in.chmod(0o755)
    for path in (tmp_path, folder):  # pytest makes its folders for its user alone
        path.chmod(0o755)
    return str(folder)


def path_without_the_programs(tmp_path: Path) -> str:
    return path_without(tmp_path, {program for need in needs.NEEDS for program in need.programs})


def test_the_line_names_what_is_missing_the_tests_skipped_and_the_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMJUDGE_CHROMIUM", raising=False)
    monkeypatch.setenv("NUMJUDGE_CODE_SERVER", CODE_SERVER_PRESENT)
    monkeypatch.setenv("PATH", path_without_the_programs(tmp_path / "none"))
    assert needs.message(needs.missing()) == LINE
    assert needs.root_failure(needs.missing()) == (
        "chromium, node and npm missing: as root, "
        "`make test` installs them (make e2e-deps "
        "vscode-deps vscode-host)"
    )
    monkeypatch.setenv("PATH", path_without(tmp_path / "npm", {"npm"}))
    assert needs.message(needs.missing()) == (
        "npm is missing and this is not root: the VS Code "
        "tests are skipped (to run them: sudo apt-get "
        "install nodejs npm)"
    )
    monkeypatch.setenv("PATH", path_without(tmp_path / "chromium", {"chromium"}))
    named = tmp_path / "named-chromium"
    named.write_text("#!/bin/sh\nexit 0\n")
    named.chmod(0o755)
    monkeypatch.setenv("NUMJUDGE_CHROMIUM", str(named))  # found where it is named
    assert needs.missing() == []


@pytest.mark.slow
def test_make_test_as_an_ordinary_user_names_what_to_install_in_one_line(tmp_path: Path) -> None:
    done = run_as_nobody(
        [
            "env",
            f"PATH={path_without_the_programs(tmp_path)}",
            f"NUMJUDGE_CODE_SERVER={CODE_SERVER_PRESENT}",
            "make",
            "--no-print-directory",
            "test-tools",
            f"PYTHON={sys.executable}",
        ],
        timeout=120,
        reach=[tmp_path],
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (done.stdout, done.stderr) == (LINE + "\n", "")  # no apt-get tried


@pytest.mark.slow
def test_pytest_as_an_ordinary_user_skips_the_browser_and_vscode_tests_with_that_line(
    tmp_path: Path,
) -> None:
    done = run_as_nobody(
        [
            "env",
            f"PATH={path_without_the_programs(tmp_path)}",
            f"NUMJUDGE_CODE_SERVER={CODE_SERVER_PRESENT}",
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rs",
            *MARKED,
        ],
        timeout=300,
        reach=[tmp_path],
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.fullmatch(r"4 skipped in .*", lines[-1]), lines[-1]  # MARKED: 1 + 3 tests
    skips = [line for line in lines if line.startswith("SKIPPED")]
    assert skips and all(line.endswith(f": {LINE}") for line in skips), skips


@pytest.mark.slow
def test_as_root_a_browser_or_vscode_test_without_its_programs_fails(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("not root: root's side of tests/needs.py was NOT tested")
    env = {
        **os.environ,
        "PATH": path_without_the_programs(tmp_path),
        "NUMJUDGE_CODE_SERVER": CODE_SERVER_PRESENT,
    }
    env.pop("NUMJUDGE_CHROMIUM", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *MARKED],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stdout[-3000:]
    assert re.fullmatch(r"4 errors in .*", lines[-1]), lines[-1]
    assert "chromium missing: as root, `make test` installs it" in done.stdout
    assert "node and npm missing: as root, `make test` installs them" in done.stdout
