"""The programs some tests need beside Python: Chromium for the browser tests, node and npm for
the VS Code extension's tests, code-server (a real VS Code) for the extension's host test.
``make test`` and pytest both ask here, so they say the same.

As root (CI), ``make test`` installs what is missing (``make e2e-deps vscode-deps
vscode-host``), and a test whose program is still missing fails: a skip there would hide it.
Anyone else is told in one line what to install, and pytest skips those tests with that line as
the reason; every other test runs.

Run as a script (standard library only, before the virtual environment exists), it prints that
line if something is missing.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Need:
    """Programs that the tests carrying ``marker`` run, and the Debian packages that bring them."""

    marker: str
    tests: str
    programs: tuple[str, ...]
    packages: tuple[str, ...]
    # the make target that installs the programs once the packages are there ("" if they do)
    target: str = ""

    def absent(self) -> list[str]:
        return [program for program in self.programs if find(program) is None]


NEEDS = (
    Need("browser", "browser tests", ("chromium",), ("chromium",)),
    Need("vscode", "VS Code tests", ("node", "npm"), ("nodejs", "npm")),
    # code-server from npm builds native modules (a compiler, Kerberos' headers) and takes
    # Debian's ripgrep: see the Makefile's vscode-host
    Need(
        "vscode_host",
        "VS Code host test",
        ("code-server",),
        ("nodejs", "npm", "g++", "make", "libkrb5-dev", "ripgrep"),
        "make vscode-host",
    ),
)
# Where ``make vscode-host`` installs code-server (clients/vscode/host, ignored by git).
CODE_SERVER = (
    Path(__file__).resolve().parents[1] / "clients/vscode/host/node_modules/.bin/code-server"
)


def find(program: str) -> str | None:
    """The program's path on PATH; Chromium's may be named by ``NUMJUDGE_CHROMIUM`` instead,
    and code-server is the one ``make vscode-host`` installed (or ``NUMJUDGE_CODE_SERVER``)."""
    if program == "chromium":
        program = os.environ.get("NUMJUDGE_CHROMIUM", program)
    if program == "code-server":
        program = os.environ.get("NUMJUDGE_CODE_SERVER", str(CODE_SERVER))
    return shutil.which(program)


def chromium() -> str | None:
    return find("chromium")


def missing() -> list[Need]:
    return [need for need in NEEDS if need.absent()]


def message(unmet: list[Need]) -> str:
    """The one line that says what is missing, what is skipped and what to install."""
    programs = [program for need in unmet for program in need.absent()]
    packages = " ".join(dict.fromkeys(package for need in unmet for package in need.packages))
    targets = "".join(f", then {need.target}" for need in unmet if need.target)
    return (
        f"{_and(programs)} {'is' if len(programs) == 1 else 'are'} missing and this is "
        f"not root: the {_and([need.tests for need in unmet])} are skipped (to run them: "
        f"sudo apt-get install {packages}{targets})"
    )


def root_failure(unmet: list[Need]) -> str:
    """Why a test fails as root: ``make test`` installs its programs there."""
    programs = [program for need in unmet for program in need.absent()]
    return (
        f"{_and(programs)} missing: as root, `make test` installs "
        f"{'it' if len(programs) == 1 else 'them'} (make e2e-deps vscode-deps vscode-host)"
    )


def _and(words: list[str]) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


if __name__ == "__main__":
    if unmet := missing():
        print(message(unmet))
