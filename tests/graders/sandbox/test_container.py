"""The sandbox with only the capabilities docs/deploy.md asks of a container.

Docker's default capability set plus SYS_ADMIN, the bounding set of the `worker` service in
docker-compose.yml (its seccomp and AppArmor profiles are unconfined there, as here).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(
    os.geteuid() != 0,
    reason="the container's worker is root with fewer capabilities; a normal user's sandbox is "
    "rootless (test_rootless.py)",
)
DOCKER_DEFAULT_CAPABILITIES = (
    "chown",
    "dac_override",
    "fsetid",
    "fowner",
    "mknod",
    "net_raw",
    "setgid",
    "setuid",
    "setfcap",
    "setpcap",
    "net_bind_service",
    "sys_chroot",
    "kill",
    "audit_write",
)
GRADE_THE_REFERENCE = textwrap.dedent("""
    from pathlib import Path
    from graders.api import ExerciseCatalog, Sandbox, grade
    from graders.errors import SandboxError
    prepared = ExerciseCatalog(Path("exercises")).prepared("gru-update-gate")
    code = Path("exercises/gru-update-gate/solution.py").read_text()
    with Sandbox(workers=1) as sandbox:
        try:
            report = grade(prepared, code, sandbox)
        except SandboxError as exc:
            print("refused:", exc)
        else:
            denied = grade(prepared, "import os\\nos.setuid(0)\\n", sandbox)
            print(report.verdict.value, report.score, report.max_score)
            print(denied.message)
""")


def grade_with_capabilities(capabilities: tuple[str, ...]) -> list[str]:
    """Grade in a process whose capabilities (as root) are only ``capabilities``."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip(
            "setpriv (util-linux) is not installed: the container's capability set was NOT tested"
        )
    bounding = ",".join(["-all", *(f"+{capability}" for capability in capabilities)])
    done = subprocess.run(
        [
            setpriv,
            "--bounding-set",
            bounding,
            "--inh-caps",
            "-all",
            "--",
            sys.executable,
            "-c",
            GRADE_THE_REFERENCE,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.slow
def test_grades_with_the_capabilities_of_the_documented_container() -> None:
    verdict, denied = grade_with_capabilities((*DOCKER_DEFAULT_CAPABILITIES, "sys_admin"))
    assert verdict == "passed 26.0 26.0"
    assert "PermissionError" in denied and "Operation not permitted" in denied


@pytest.mark.slow
def test_refuses_to_grade_without_sys_admin_and_says_why() -> None:
    (refusal,) = grade_with_capabilities(DOCKER_DEFAULT_CAPABILITIES)
    assert refusal == (
        "refused: sandbox setup: root image not built: unshare (mount namespace): Operation "
        "not permitted; unshare (network namespace): Operation not permitted"
    )
