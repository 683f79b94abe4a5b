"""Hostile submissions: each must be contained, and none may pass or harm the next grading."""

from __future__ import annotations

import os
import signal
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from graders.api import (
    ExerciseCatalog,
    Failure,
    GradeReport,
    PreparedExercise,
    Sandbox,
    SandboxLimits,
    Verdict,
    grade,
)
from graders.errors import SandboxClosed, SandboxFault
from graders.sandbox.doctor import RootImage
from graders.sandbox.isolation import SANDBOX_ENVIRONMENT, python_roots, roots_under
from graders.sandbox.protocol import Ending, RunResult, Task
from tests.graders.sandbox.processes import descendants, is_gone

REPO = Path(__file__).resolve().parents[3]
SOLUTION = REPO / "exercises" / "gru-update-gate" / "solution.py"
LIMITS = SandboxLimits(time_s=2.0, memory_mb=384, max_output_mb=8)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    os.environ["NUMJUDGE_TEST_SECRET"] = "hunter2"
    try:
        with Sandbox(workers=1, limits=LIMITS) as pool:
            yield pool
    finally:
        del os.environ["NUMJUDGE_TEST_SECRET"]


@pytest.fixture(scope="module")
def gate() -> PreparedExercise:
    return ExerciseCatalog(REPO / "exercises").prepared("gru-update-gate")


def probe(sandbox: Sandbox, body: str) -> RunResult:
    """Run ``def f(x): <body>`` on one input."""
    code = "import os, sys, socket, ctypes\nimport numpy as np\n\ndef f(x):\n"
    code += textwrap.indent(textwrap.dedent(body), "    ")
    return sandbox.run(code, "f", [Task(("x",), (np.zeros(2),))], LIMITS)


def returned(result: RunResult) -> object:
    assert result.ending is Ending.COMPLETED, (result.ending, result.message, result.load_error)
    outcome = result.outcomes[0]
    assert outcome.ok, outcome.error
    return outcome.value


def grade_code(gate: PreparedExercise, sandbox: Sandbox, code: str) -> GradeReport:
    return grade(gate, textwrap.dedent(code), sandbox, limits=LIMITS)


def assert_still_grades(gate: PreparedExercise, sandbox: Sandbox) -> None:
    report = grade(gate, SOLUTION.read_text(), sandbox, limits=LIMITS)
    assert report.verdict is Verdict.PASSED, report.to_dict()


def test_cannot_read_the_reference_solution_or_the_project(sandbox: Sandbox) -> None:
    result = probe(
        sandbox,
        f"""
        found = []
        for path in ({str(SOLUTION)!r}, {str(REPO / "exercises")!r}, {str(REPO)!r} + "/numjudge.db",
                     {str(REPO / "graders")!r}):
            found.append(os.path.exists(path))
        return str(found)
    """,
    )
    assert returned(result) == "[False, False, False, False]"


def test_sees_only_system_and_python_folders(sandbox: Sandbox) -> None:
    value = returned(probe(sandbox, "return ' '.join(sorted(os.listdir('/')))"))
    zygote = sandbox.zygotes[0]
    image = RootImage.of(zygote.process.pid, zygote.state_folder)
    # The root is the image: the interpreter's folders where they are on the host (/work/…,
    # /root/.pyenv/…), the folders of its libraries (/usr, and /lib, /lib64 where the
    # loader names them so), the fresh ones; nothing else of the host.
    python = {Path(root).parts[1] for root in python_roots()}
    system = {"usr", "lib", "lib64", "lib32", "bin", "sbin"}
    fresh = {"dev", "etc", "proc", "sandbox", "tmp"}
    assert str(value).split() == image.top_level
    assert python | fresh | {"usr"} <= set(image.top_level) <= python | fresh | system


def test_runs_unprivileged_as_pid_one_with_a_scrubbed_environment(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        return repr((os.getuid(), os.geteuid(), os.getgid(), sorted(os.getgroups()), os.getpid(),
                     sorted(p for p in os.listdir('/proc') if p.isdigit()),
                     dict(os.environ), os.uname().nodename))
    """,
        )
    )
    uid = sandbox.zygotes[0].uid
    assert uid >= LIMITS.uid_base
    # Root drops every supplementary group. A user namespace may not (docs/sandbox.md): the
    # invoking user's groups stay, the primary one as the slot's gid, the others as nobody.
    groups = (
        []
        if os.geteuid() == 0
        else sorted(uid if group == os.getgid() else 65534 for group in os.getgroups())
    )
    assert value == f"({uid}, {uid}, {uid}, {groups}, 1, ['1'], {SANDBOX_ENVIRONMENT}, 'sandbox')"


def test_has_no_network(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        try:
            socket.create_connection(("127.0.0.1", 5432), timeout=1)
        except OSError as exc:
            return type(exc).__name__ + str(exc.errno)
        return "connected"
    """,
        )
    )
    assert value == "PermissionError1"


def test_cannot_reach_unix_sockets_of_local_services(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        seen = [os.path.exists(p) for p in ("/var/run/postgresql", "/run/postgresql",
                                           "/var/run/redis", "/run")]
        try:
            s = socket.socket(socket.AF_UNIX)
        except OSError as exc:
            return repr((seen, exc.errno))
        return "socket created"
    """,
        )
    )
    assert value == "([False, False, False, False], 1)"


def test_dangerous_system_calls_are_refused(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        libc = ctypes.CDLL(None, use_errno=True)
        results = []
        for number, args in ((101, (16, 1, 0, 0)),        # ptrace(PTRACE_ATTACH, 1)
                             (272, (0x10000000,)),        # unshare(CLONE_NEWUSER)
                             (165, (0, 0, 0, 0, 0)),      # mount
                             (321, (0, 0, 0)),            # bpf
                             (425, (1, 0)),               # io_uring_setup
                             (310, (1, 0, 0, 0, 0, 0))):  # process_vm_readv
            rc = libc.syscall(number, *args)
            results.append((rc, ctypes.get_errno()))
        return repr(results)
    """,
        )
    )
    assert value == repr([(-1, 1)] * 6)


def test_vsock_sockets_are_refused(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        try:
            socket.socket(40, socket.SOCK_STREAM)   # AF_VSOCK
        except OSError as exc:
            return exc.errno
        return -1
    """,
        )
    )
    assert value == 1


def test_system_folders_are_read_only(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        try:
            open("/usr/lib/numjudge-was-here", "w")
        except OSError as exc:
            return exc.errno
        return 0
    """,
        )
    )
    assert value in (13, 30)  # EACCES or EROFS


def test_nothing_survives_in_tmp_or_dev_shm_between_submissions(sandbox: Sandbox) -> None:
    returned(
        probe(
            sandbox,
            """
        for path in ("/tmp/left-behind", "/dev/shm/left-behind", "/sandbox/left-behind"):
            with open(path, "w") as fh:
                fh.write("secret")
        return 1
    """,
        )
    )
    value = returned(
        probe(
            sandbox,
            """
        return repr([os.path.exists(p) for p in
                     ("/tmp/left-behind", "/dev/shm/left-behind", "/sandbox/left-behind")])
    """,
        )
    )
    assert value == "[False, False, False]"


def test_an_infinite_loop_times_out_and_keeps_earlier_results(
    sandbox: Sandbox, gate: PreparedExercise
) -> None:
    code = SOLUTION.read_text() + textwrap.dedent("""
        _calls = 0
        _reference = update_gate

        def update_gate(x_t, h_prev, W_z, b_z):
            global _calls
            _calls += 1
            if _calls > 1:
                while True:
                    pass
            return _reference(x_t, h_prev, W_z, b_z)
    """)
    report = grade_code(gate, sandbox, code)
    assert report.verdict is Verdict.TIMEOUT
    # Stopped by its CPU time, however long a busy host took to give it that much.
    assert report.cost is not None, report
    assert LIMITS.time_s * 1000 <= report.cost.cpu_ms <= LIMITS.cpu_s * 1000 + 100, report.cost
    assert report.tests[0].status.value == "passed"
    assert report.message == "time limit exceeded (2 s of CPU time for the whole submission)"
    assert report.tests[1].message == (
        "not run: time limit exceeded (2 s of CPU time for the whole submission)"
    )
    assert (report.tests[-1].failure, report.tests[-1].message) == (
        Failure.TIME_LIMIT,
        "time limit exceeded (details are not shown for hidden tests)",
    )
    assert_still_grades(gate, sandbox)


def test_a_fork_flood_is_contained(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(
        gate,
        sandbox,
        """
        import os
        def update_gate(x_t, h_prev, W_z, b_z):
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
    """,
    )
    assert report.verdict in (Verdict.TIMEOUT, Verdict.ERROR)
    assert report.score == 0
    assert_still_grades(gate, sandbox)


def test_a_memory_bomb_hits_the_memory_limit(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(
        gate,
        sandbox,
        """
        import numpy as np
        def update_gate(x_t, h_prev, W_z, b_z):
            return np.ones((1 << 31,))
    """,
    )
    assert report.verdict is Verdict.MEMORY_LIMIT
    assert "ran out of memory" in report.tests[0].message
    assert_still_grades(gate, sandbox)


@pytest.mark.parametrize(
    "exit_call",
    ["os._exit(0)", "sys.exit(0)", "ctypes.string_at(0)", "os.kill(-1, 9)", "os.abort()"],
)
def test_ending_the_process_is_an_error_never_a_pass(
    sandbox: Sandbox, gate: PreparedExercise, exit_call: str
) -> None:
    code = SOLUTION.read_text() + textwrap.dedent(f"""
        import ctypes, os, sys
        _reference = update_gate

        def update_gate(x_t, h_prev, W_z, b_z):
            result = _reference(x_t, h_prev, W_z, b_z)
            if h_prev.ndim == 2:
                {exit_call}
            return result
    """)
    report = grade_code(gate, sandbox, code)
    assert report.verdict is not Verdict.PASSED
    assert report.score < report.max_score
    assert_still_grades(gate, sandbox)


def test_sys_exit_at_import_is_a_load_error(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(gate, sandbox, "import sys\nsys.exit(0)\n")
    assert report.verdict is Verdict.ERROR
    assert report.message == "Your code could not be loaded: raised SystemExit on line 2: 0"


def test_huge_output_is_refused(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(
        gate,
        sandbox,
        """
        import numpy as np
        def update_gate(x_t, h_prev, W_z, b_z):
            return np.zeros(3_000_000)
    """,
    )
    assert report.verdict is Verdict.ERROR
    assert report.message == "the output is too large (limit 8 MB)"
    assert_still_grades(gate, sandbox)


def test_huge_printed_output_is_cut(sandbox: Sandbox, gate: PreparedExercise) -> None:
    code = SOLUTION.read_text() + "\nprint('x' * 10_000_000)\n"
    report = grade_code(gate, sandbox, code)
    assert report.verdict is Verdict.PASSED
    assert len(report.output) < 25_000
    assert report.output.endswith(
        f"[... {10_000_001 - LIMITS.max_stdout_chars} more characters were cut]"
    )


def test_object_arrays_are_refused(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(
        gate,
        sandbox,
        """
        import numpy as np
        def update_gate(x_t, h_prev, W_z, b_z):
            return np.array([object()] * h_prev.shape[-1])
    """,
    )
    assert report.verdict is Verdict.FAILED
    assert report.tests[0].message == (
        "type: expected numpy.ndarray, got numpy.ndarray (an array "
        "of dtype object, which is not numeric)"
    )


def test_ndarray_subclasses_are_refused(sandbox: Sandbox, gate: PreparedExercise) -> None:
    code = SOLUTION.read_text() + textwrap.dedent("""
        _reference = update_gate

        class Sneaky(np.ndarray):
            def __eq__(self, other):
                return True

        def update_gate(x_t, h_prev, W_z, b_z):
            return _reference(x_t, h_prev, W_z, b_z).view(Sneaky)
    """)
    report = grade_code(gate, sandbox, code)
    assert report.verdict is Verdict.FAILED
    assert report.tests[0].message == (
        "type: expected numpy.ndarray, got submission.Sneaky (a subclass of numpy.ndarray)"
    )


def test_monkeypatching_numpy_changes_nothing(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(
        gate,
        sandbox,
        """
        import numpy as np
        np.allclose = lambda *args, **kwargs: True
        np.array_equal = lambda *args, **kwargs: True
        np.testing.assert_allclose = lambda *args, **kwargs: None

        def update_gate(x_t, h_prev, W_z, b_z):
            return np.zeros(h_prev.shape)
    """,
    )
    assert report.verdict is Verdict.FAILED
    assert report.score == 0


def test_forged_frames_cannot_fake_a_pass(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade_code(
        gate,
        sandbox,
        """
        import json, os, socket, struct
        for fd in range(3, 64):
            try:
                channel = socket.socket(fileno=fd)
                break
            except OSError:
                continue
        header = json.dumps({"kind": "done", "buffers": [], "verdict": "passed"}).encode()
        channel.sendall(struct.pack(">I", len(header)) + header)
        os._exit(0)
    """,
    )
    assert report.verdict is Verdict.ERROR
    assert report.score == 0
    assert all(t.status.value == "error" for t in report.tests)
    assert_still_grades(gate, sandbox)


NAMESPACES = ("net", "ipc", "uts", "pid", "mnt")


def test_runs_in_namespaces_other_than_the_hosts(sandbox: Sandbox) -> None:
    probe_ns = f"return ' '.join(os.readlink('/proc/self/ns/' + k) for k in {NAMESPACES!r})"
    inside = str(returned(probe(sandbox, probe_ns))).split()
    host = [os.readlink(f"/proc/self/ns/{kind}") for kind in NAMESPACES]
    assert [kind for kind, a, b in zip(NAMESPACES, inside, host, strict=True) if a == b] == []


def leads_its_session(pid: int) -> bool:
    """The process has moved to a session of its own (its session id is its pid)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return int(fields[3]) == pid


@pytest.mark.slow
def test_a_sandbox_dies_with_its_zygote_even_in_a_session_of_its_own() -> None:
    code = "import os, time\n\ndef f(x):\n    os.setsid()\n    time.sleep(60)\n"
    limits = SandboxLimits(time_s=60.0)
    ended: list[BaseException] = []

    def grade(pool: Sandbox) -> None:
        try:
            pool.run(code, "f", [Task(("x",), (np.zeros(2),))], limits)
        except SandboxFault as exc:
            ended.append(exc)

    with Sandbox(workers=1, limits=limits) as pool:
        zygote_pid = pool.zygotes[0].process.pid
        runner = threading.Thread(target=grade, args=(pool,))
        runner.start()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
            map(leads_its_session, sandboxes := descendants(zygote_pid))
        ):
            time.sleep(0.05)
        assert any(map(leads_its_session, sandboxes)), "the submission never called setsid"
        os.kill(zygote_pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while not all(map(is_gone, sandboxes)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(map(is_gone, sandboxes)), "the sandbox outlived its zygote"
    # The pool retried the grading in a new zygote, whose sandbox sleeps again: closing the
    # pool ends it at once, and starts no zygote that nothing would stop.
    runner.join(timeout=30)
    assert not runner.is_alive(), "closing the pool did not end the retried grading"
    assert [type(exc) for exc in ended] == [SandboxClosed]


def test_memory_no_process_limit_counts_is_refused(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        libc = ctypes.CDLL(None, use_errno=True)
        results = []
        for call in (lambda: os.memfd_create("x"),
                     lambda: libc.shmget(0x6E6A, 4096, 0o1666),     # IPC_CREAT | 0666
                     lambda: libc.msgget(0x6E6A, 0o1666),
                     lambda: libc.semget(0x6E6A, 1, 0o1666)):
            try:
                rc = call()
                results.append((rc, ctypes.get_errno()))
            except OSError as exc:
                results.append((-1, exc.errno))
        return repr(results)
    """,
        )
    )
    assert value == repr([(-1, 1)] * 4)


def test_no_lock_or_watch_on_files_other_sandboxes_see(sandbox: Sandbox) -> None:
    value = returned(
        probe(
            sandbox,
            """
        import fcntl, struct
        shared = os.open(np.__file__, os.O_RDONLY)
        results = []
        for call in (lambda: fcntl.flock(shared, fcntl.LOCK_SH),
                     lambda: fcntl.lockf(shared, fcntl.LOCK_SH),
                     lambda: fcntl.fcntl(shared, 36, bytes(32)),    # F_OFD_GETLK
                     lambda: fcntl.fcntl(shared, 1026, 1),          # F_NOTIFY
                     lambda: ctypes.CDLL(None, use_errno=True).inotify_init() < 0
                     and os.strerror(ctypes.get_errno()).startswith("Operation")
                     and (_ for _ in ()).throw(PermissionError(1, "refused"))):
            try:
                call()
                results.append("allowed")
            except OSError as exc:
                results.append(exc.errno)
        fcntl.fcntl(shared, fcntl.F_GETFD)  # the ordinary commands still work
        return repr(results)
    """,
        )
    )
    assert value == repr([1] * 5)


def test_a_python_root_inside_a_fresh_writable_folder_is_bound_again() -> None:
    roots = ["/root/.pyenv/versions/3.11.7", "/tmp/checkout/.venv", "/tmpfiles/.venv"]
    assert roots_under(("/tmp", "/dev/shm", "/sandbox"), roots) == ["/tmp/checkout/.venv"]
