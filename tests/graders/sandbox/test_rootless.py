"""The sandbox as an ordinary user: the hostile submissions, the faults, the time limits (per
case and speed rules too) and what a run used again, as nobody.

Not root, each zygote enters a user namespace of its own and every other layer follows
(docs/sandbox.md). These tests run the same files as uid 65534 with no capability.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from tests.graders.sandbox.unprivileged import pytest_as_nobody, run_as_nobody


# Seven files of real sandboxes: 318 s on a loaded 2-core host, past the 300 s default; the
# unprivileged run has its own limit of 900 s.
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_hostile_submissions_are_contained_as_an_unprivileged_user() -> None:
    done = pytest_as_nobody(
        "tests/graders/sandbox/test_hostile.py",
        "tests/graders/sandbox/test_faults.py",
        "tests/graders/sandbox/test_time.py",
        "tests/graders/sandbox/test_usage.py",
        "tests/security/test_sandbox_channels.py",
        "tests/security/test_user_accounting.py",
        # CPU time read from /proc, 10 ms ticks: per-case limits and speed rules still hold.
        "tests/graders/checks/test_timing.py",
        # The harness's count of repeated work (sys.settrace) under every layer, as nobody.
        "tests/graders/checks/test_rules_at_run_time.py",
        # Without a cgroup a submission may start no process: test_sandbox_channels.py's
        # test_without_a_cgroup_a_submission_is_one_process checks that instead.
        "-m",
        "not several_processes",
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    assert re.search(r"^\d+ passed", done.stdout.splitlines()[-1]), done.stdout[-2000:]
    assert "skipped" not in done.stdout.splitlines()[-1]


def test_the_unprivileged_run_really_is_unprivileged() -> None:
    done = run_as_nobody(["sh", "-c", "id -u; grep CapEff /proc/self/status"])
    assert done.stdout.split() == ["65534", "CapEff:", "0000000000000000"], done.stderr


GRADE = """
from pathlib import Path
from graders.api import ExerciseCatalog, Sandbox, SandboxLimits, SandboxUnavailable, grade
prepared = ExerciseCatalog(Path("exercises")).prepared("gru-update-gate")
code = Path("exercises/gru-update-gate/solution.py").read_text()
with Sandbox(workers=1, limits=SandboxLimits(strict=STRICT)) as sandbox:
    try:
        report = grade(prepared, code, sandbox)
    except SandboxUnavailable as exc:
        print("refused:", exc)
    else:
        print(report.verdict.value)
        print(report.message)
"""


def grade_without_user_namespaces(strict: bool) -> list[str]:
    # In a user namespace where it has no uid of its own (``unshare --user`` maps none), a
    # process may not create a further one: the kernel refuses as it does with unprivileged
    # user namespaces turned off, without touching the host's settings.
    script = GRADE.replace("STRICT", str(strict))
    done = run_as_nobody(["unshare", "--user", sys.executable, "-c", script], timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


@pytest.mark.slow
def test_without_user_namespaces_a_strict_sandbox_names_the_cause_and_the_way_out() -> None:
    (refusal,) = grade_without_user_namespaces(strict=True)
    assert refusal.startswith(
        "refused: sandbox setup: unshare (user namespace): Operation not "
        "permitted; not root, the sandbox needs unprivileged user "
        "namespaces: allow them"
    )
    assert "docker compose up" in refusal and "NUMJUDGE_SANDBOX_STRICT=false" in refusal


@pytest.mark.slow
def test_without_user_namespaces_a_lenient_sandbox_grades_and_says_so() -> None:
    verdict, message = grade_without_user_namespaces(strict=False)
    assert verdict == "passed"
    assert message.startswith(
        "graded with reduced isolation (NUMJUDGE_SANDBOX_STRICT=false), "
        "without: unshare (user namespace): Operation not permitted"
    )


@pytest.mark.slow
def test_doctor_lists_the_layers_an_unprivileged_user_gets() -> None:
    done = run_as_nobody(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv = ['numjudge', 'doctor']; from app.cli.main import main; main()",
        ],
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    states = {line[:17].strip(): line[17:].split()[0] for line in done.stdout.splitlines()[:-1]}
    assert states.pop("cgroup") == "missing"  # not root: none can be made (optional)
    assert set(states.values()) == {"active"}, done.stdout
    assert "user namespace" in states


PIN = """
import json, os
from graders.api import keep_threads_on
from graders.sandbox.cpu_affinity import CORE_FOLDERS
from graders.sandbox.machine import kernel_id
chosen = keep_threads_on(1)
claimed_in = [str(folder) for folder in CORE_FOLDERS
              if os.access(folder / kernel_id(), os.W_OK | os.X_OK)
              and str(min(chosen)) in os.listdir(folder / kernel_id())]
print(json.dumps([sorted(chosen), sorted(os.sched_getaffinity(0)), claimed_in]))
"""


@pytest.mark.slow
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs at least two CPUs")
def test_an_unprivileged_service_claims_its_core_in_a_folder_of_its_own_user(
    tmp_path: Path,
) -> None:
    # /run/numjudge, where root's services claim theirs, is not the user's to write. The
    # temporary folder is the test's own: in the host's, claims left by other runs (another
    # copy of the suite) would decide the core, and files of older runs could pass the test.
    tmp_path.chmod(0o1777)
    done = run_as_nobody(
        ["env", f"TMPDIR={tmp_path}", sys.executable, "-c", PIN], timeout=120, reach=[tmp_path]
    )
    assert done.returncode == 0, done.stderr[-3000:]
    chosen, own, claimed_in = json.loads(done.stdout)
    assert len(chosen) == 1 and own == chosen
    assert [Path(folder).name for folder in claimed_in] == ["numjudge-cores-65534"]
