"""Running a command as an unprivileged user (``nobody``, or another uid) from a root test run.

The interpreter and the checkout may live where that user cannot go (pyenv under a 0700
``/root``, a clone in a private folder). Without touching them, the command runs in a mount
namespace of its own where each blocking folder is covered by an empty world-readable tmpfs
through which only the interpreter's folders and the checkout are bound back. Nothing else
of what lies under those folders becomes visible, and no permission on the host changes.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from graders.sandbox.isolation import python_roots

NOBODY = 65534
REPO = Path(__file__).resolve().parents[3]


def blocking_folder(path: Path) -> Path | None:
    """The outermost folder on the way to ``path`` that others may not enter."""
    for folder in (*reversed(path.parents), path):
        if not os.stat(folder).st_mode & 0o001:
            return folder
    return None


def mount_script(needed: Sequence[str]) -> str:
    """Shell lines that make ``needed`` reachable by anyone in the current mount namespace."""
    blocked = {str(path): blocking_folder(Path(path)) for path in needed}
    covers = sorted({str(folder) for folder in blocked.values() if folder is not None})
    lines = ["set -e", 'stash="$(mktemp -d)"', 'mount -t tmpfs tmpfs "$stash"']
    rebind = [path for path, folder in blocked.items() if folder is not None]
    for number, path in enumerate(rebind):
        lines += [
            f'mkdir "$stash/{number}"',
            f'mount --rbind {shlex.quote(path)} "$stash/{number}"',
        ]
    for cover in covers:
        lines.append(f"mount -t tmpfs -o mode=0755 tmpfs {shlex.quote(cover)}")
    for number, path in enumerate(rebind):
        lines += [
            f"mkdir -p {shlex.quote(path)}",
            f'mount --rbind "$stash/{number}" {shlex.quote(path)}',
        ]
    return "\n".join(lines)


def dropped_to(uid: int) -> list[str]:
    """The ``setpriv`` words that run what follows them as ``uid`` (its gid the same), with no
    groups and no capabilities."""
    return [
        "setpriv",
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--",
    ]


def reachable(*folders: Path) -> str:
    """:func:`mount_script` for the interpreter's folders, the checkout and ``folders``."""
    return mount_script(sorted({*python_roots(), str(REPO), *map(str, folders)}))


def run_as_nobody(
    argv: Sequence[str],
    timeout: float = 900,
    env: dict[str, str] | None = None,
    reach: Sequence[Path] = (),
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in the checkout as uid/gid 65534, no groups, no capabilities; the folders
    of ``reach`` (a test's temporary folder, say) are made reachable like the checkout."""
    if os.geteuid() != 0:
        pytest.skip("not root: this run is already unprivileged")
    for tool in ("unshare", "setpriv", "mount"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} (util-linux) is missing: the unprivileged run was NOT tested")
    script = reachable(*reach) + "\nexec " + shlex.join([*dropped_to(NOBODY), *argv])
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": str(REPO),
        **(env or {}),
    }
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def pytest_as_nobody(*arguments: str) -> subprocess.CompletedProcess[str]:
    return run_as_nobody(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments]
    )
