"""Channels and limits of issue 22 (parts A, B, F, G): the page cache, host-wide counters, the
stack's hard limit, and results that would cost the trusted side more to read than a grading
should.

Run as root here and as an unprivileged user by ``tests/graders/sandbox/test_rootless.py``.
"""

from __future__ import annotations

import errno
import io
import json
import resource
import struct
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.api import (
    ExerciseCatalog,
    HeaderTooComplex,
    PreparedExercise,
    Sandbox,
    SandboxLimits,
    Verdict,
    grade,
)
from graders.checks.hidden import HIDDEN_MESSAGES
from graders.results import Failure
from graders.sandbox import wire
from graders.sandbox.doctor import RootImage
from graders.sandbox.exitcodes import EXIT_MEMORY_LIMIT
from graders.sandbox.protocol import MAX_RESULT_VALUES, Ending, RunResult, Task
from graders.sandbox.wire import MAX_HEADER_DEPTH, HeaderBudget, header_values, recv_frame

REPO = Path(__file__).resolve().parents[2]
LIMITS = SandboxLimits(time_s=4.0, memory_mb=512)
HOST_WIDE = (
    "meminfo",
    "vmstat",
    "diskstats",
    "loadavg",
    "stat",
    "uptime",
    "cpuinfo",
    "zoneinfo",
    "buddyinfo",
    "pressure/cpu",
    "schedstat",
    "interrupts",
    "softirqs",
    "swaps",
    "net/dev",
    "sys/fs/file-nr",
    "sys/kernel/random/entropy_avail",
)


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(workers=1, limits=LIMITS) as pool:
        yield pool


@pytest.fixture(scope="module")
def gate() -> PreparedExercise:
    return ExerciseCatalog(REPO / "exercises").prepared("gru-update-gate")


def returned(sandbox: Sandbox, body: str) -> Any:
    """What ``def f(x): <body>`` returns in a sandbox, as JSON text, decoded."""
    code = "import ctypes, errno, json, os, resource\n\ndef f(x):\n"
    code += textwrap.indent(textwrap.dedent(body), "    ")
    result: RunResult = sandbox.run(code, "f", [Task(("x",), (np.zeros(1),))], LIMITS)
    assert result.ending is Ending.COMPLETED, (result.ending, result.message, result.load_error)
    outcome = result.outcomes[0]
    assert outcome.ok, outcome.error
    return json.loads(outcome.value)


READ_COUNTERS = f"""
seen = {{}}
for read in (1, 2):  # twice: a counter would show whatever changed in between
    for name in {HOST_WIDE!r}:
        try:
            with open("/proc/" + name, "rb") as file:
                seen.setdefault(name, []).append(file.read().decode(errors="replace"))
        except OSError as exc:
            seen.setdefault(name, []).append(errno.errorcode[exc.errno])
others = [entry for entry in os.listdir("/proc") if not entry.isdigit()]
return json.dumps([seen, sorted(os.listdir("/proc")), others])
"""


def test_proc_shows_the_sandboxs_processes_and_no_host_wide_counter(sandbox: Sandbox) -> None:
    seen, listing, others = returned(sandbox, READ_COUNTERS)
    assert seen == {name: ["ENOENT", "ENOENT"] for name in HOST_WIDE}
    assert listing == ["1", "self", "thread-self"]
    assert others == ["self", "thread-self"]


def test_what_the_sandbox_needs_of_proc_still_works(sandbox: Sandbox) -> None:
    # The doctor's probe reads these; Python and numpy read nothing else of /proc once loaded.
    value = returned(
        sandbox,
        """
        status = open("/proc/self/status").read()
        return json.dumps([status.startswith("Name:\tpython"), os.readlink("/proc/self/ns/pid")[:5],
                           "0" in os.listdir("/proc/self/fd"), os.cpu_count() >= 1])
        """,
    )
    assert value == [True, "pid:[", True, True]


READ_MOUNT_TABLES = """
import threading
tables = ["/proc/self/mountinfo", "/proc/self/mounts", "/proc/self/mountstats",
          "/proc/1/mountinfo", "/proc/self/task/1/mountinfo", "/proc/thread-self/mountinfo",
          "/proc/self/fdinfo/0"]

def read_all():
    seen = []
    for path in tables:
        try:
            with open(path) as file:
                seen.append(file.read())
        except OSError as exc:
            seen.append(errno.errorcode[exc.errno])
    return seen

seen = {"process 1": read_all()}
thread = threading.Thread(target=lambda: seen.update(thread=read_all()))
thread.start()
thread.join()
try:
    reader, writer = os.pipe()
    child = os.fork()
except PermissionError:  # no cgroup: a submission is one process (and has no pipe)
    child = None
    seen["child"] = "no process"
if child == 0:
    os.write(writer, json.dumps(read_all()).encode())
    os._exit(0)
if child is not None:
    os.close(writer)
    seen["child"] = json.loads(os.read(reader, 1 << 20))
    os.waitpid(child, 0)
libc = ctypes.CDLL(None, use_errno=True)
buffer = ctypes.create_string_buffer(4096)
calls = {"statmount": 457, "listmount": 458, "statx": 332}
for name, number in calls.items():
    arguments = (-100, b"/", 0, 0xFFF, buffer) if name == "statx" else (buffer, buffer, 64, 0)
    seen[name] = [libc.syscall(number, *arguments), errno.errorcode[ctypes.get_errno()]]
os.stat("/usr")  # libc's stat needs none of them
return json.dumps(seen)
"""


def test_no_process_of_the_sandbox_reads_the_mount_table(sandbox: Sandbox) -> None:
    seen = returned(sandbox, READ_MOUNT_TABLES)
    # Unreadable, so no path of the host (the interpreter's, the virtualenv's, the devices')
    # and no mount id shows. (A forked child has no thread 1.)
    assert seen.pop("process 1") == ["EACCES"] * 7
    assert seen.pop("thread") == ["EACCES"] * 7
    child = (
        "no process"
        if sandbox.zygotes[0].one_process
        else ["EACCES"] * 4 + ["ENOENT"] + ["EACCES"] * 2
    )
    assert seen.pop("child") == child
    assert seen == {
        "statmount": [-1, "EPERM"],
        "listmount": [-1, "EPERM"],
        "statx": [-1, "ENOSYS"],
    }


def test_sysinfo_and_ustat_are_refused(sandbox: Sandbox) -> None:
    value = returned(
        sandbox,
        """
        libc = ctypes.CDLL(None, use_errno=True)
        answers = []
        for number, argument in ((99, ctypes.create_string_buffer(512)),  # sysinfo
                                 (136, ctypes.create_string_buffer(64))):  # ustat
            answers.append([libc.syscall(number, 0x800, argument) if number == 136
                            else libc.syscall(number, argument), ctypes.get_errno()])
        return json.dumps(answers)
        """,
    )
    assert value == [[-1, errno.EPERM], [-1, errno.EPERM]]


def test_the_stack_has_a_hard_limit_the_code_cannot_raise(sandbox: Sandbox) -> None:
    value = returned(
        sandbox,
        """
        before = resource.getrlimit(resource.RLIMIT_STACK)
        try:
            resource.setrlimit(resource.RLIMIT_STACK, (before[1], before[1] * 2))
            raised = "raised"
        except ValueError as exc:
            raised = str(exc)
        return json.dumps([before, raised, resource.getrlimit(resource.RLIMIT_STACK)])
        """,
    )
    limit = LIMITS.stack_mb * 1024 * 1024
    assert limit != resource.RLIM_INFINITY
    assert value == [[limit, limit], "not allowed to raise maximum limit", [limit, limit]]


class CountingJson:
    """``json`` as ``graders.sandbox.wire`` uses it, noting the size of every header parsed."""

    def __init__(self) -> None:
        self.parsed: list[int] = []

    def loads(self, raw: bytes) -> Any:
        self.parsed.append(len(raw))
        return json.loads(raw)

    def dumps(self, value: Any, **options: Any) -> str:
        return json.dumps(value, **options)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> CountingJson:
    spy = CountingJson()
    monkeypatch.setattr(wire, "json", spy)
    return spy


def frame(header: bytes) -> io.BytesIO:
    return io.BytesIO(struct.pack(">I", len(header)) + header)


def list_header(items: int) -> bytes:
    value = {"t": "list", "items": [{"t": "py", "v": 0.5}] * items}
    results = [{"ok": True, "value": value}]
    return json.dumps({"kind": "results", "first": 0, "results": results, "buffers": []}).encode()


def test_an_oversized_header_is_refused_before_it_is_parsed(counting: CountingJson) -> None:
    header = list_header(100_000)  # within the 4 MB a single header may have
    headers = HeaderBudget(len(header), MAX_RESULT_VALUES)
    with pytest.raises(HeaderTooComplex, match="values is over the limit"):
        recv_frame(frame(header), [1 << 30], headers)
    assert counting.parsed == []
    # The count is an upper bound of the values parsing builds: every dict, list, str, float.
    small = list_header(100)
    assert header_values(small) >= 5 + 4 + 3 * 100 + 3
    assert recv_frame(frame(small), [1 << 30], HeaderBudget(len(small), MAX_RESULT_VALUES))
    assert counting.parsed == [len(small)]


def test_header_bytes_over_the_submissions_budget_are_not_even_read(
    counting: CountingJson,
) -> None:
    header = json.dumps({"kind": "loaded", "stdout": "x" * 100_000, "buffers": []}).encode()
    reader = frame(header)
    with pytest.raises(HeaderTooComplex, match="bytes is over the limit"):
        recv_frame(reader, [1 << 30], HeaderBudget(len(header) - 1, MAX_RESULT_VALUES))
    assert counting.parsed == [] and reader.tell() == 4


def test_an_over_deep_header_is_refused_before_it_is_parsed(counting: CountingJson) -> None:
    for depth in (MAX_HEADER_DEPTH + 1, 100_000):
        header = b'{"buffers":[],"v":' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"
        with pytest.raises(HeaderTooComplex, match="nests deeper"):
            recv_frame(frame(header), [1 << 30], HeaderBudget(len(header), 1 << 30))
    assert counting.parsed == []
    deepest = b'{"buffers":[],"v":' + b"[" * (MAX_HEADER_DEPTH - 1) + b"]" * (MAX_HEADER_DEPTH - 1)
    assert recv_frame(frame(deepest + b"}"), [1 << 30], HeaderBudget(1 << 20, 1 << 20))


def test_brackets_and_escaped_quotes_in_text_are_no_nesting() -> None:
    text = '[[[{{{ "\\" \\\\" ' * 50 + "\\"
    header = json.dumps({"kind": "loaded", "stdout": text, "buffers": []}).encode()
    assert b'\\\\\\"' in header  # an escaped backslash, then an escaped quote
    parsed, _ = recv_frame(frame(header), [1 << 30], HeaderBudget(1 << 20, 1 << 20))
    assert parsed["stdout"] == text


HUGE_LISTS = """
import numpy as np

def update_gate(x_t, h_prev, W_z, b_z):
    return [0.5] * 200_000
"""


def test_a_submission_returning_huge_lists_is_refused_unparsed(
    sandbox: Sandbox, gate: PreparedExercise, counting: CountingJson
) -> None:
    report = grade(gate, HUGE_LISTS, sandbox, limits=LIMITS)
    assert report.verdict is Verdict.ERROR
    assert report.message.startswith(
        f"the output is too large: a submission's results may hold at most {MAX_RESULT_VALUES} "
        "values"
    )
    assert {test.failure for test in report.tests} == {Failure.CRASHED}
    # Whatever was parsed was small: the lists never were.
    assert counting.parsed and max(counting.parsed) < 20_000


def test_a_refusal_during_a_hidden_case_says_only_that_it_crashed(
    sandbox: Sandbox, gate: PreparedExercise
) -> None:
    solution = (REPO / "exercises" / "gru-update-gate" / "solution.py").read_text()
    # The harness drops what the code prints once the first hidden case is in.
    code = solution + textwrap.dedent(
        """
        import sys
        _answer = update_gate

        def update_gate(*args):
            hidden = type(sys.stdout).__name__ == "Discard"
            return [0.5] * 100_000 if hidden else _answer(*args)
        """
    )
    report = grade(gate, code, sandbox, limits=LIMITS)
    assert report.verdict is Verdict.ERROR
    hidden = [test for test in report.tests if test.visibility.value == "hidden"]
    assert hidden and {test.failure for test in hidden} == {Failure.CRASHED}
    assert report.message.startswith(HIDDEN_MESSAGES[Failure.CRASHED] + ": it ended during")


PAGE_CACHE_CALLS = """
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
mapped = ctypes.CDLL(None).mmap
mapped.restype, mapped.argtypes = ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_size_t,
                                                   ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                                   ctypes.c_long]
fd = os.open(os.__file__, os.O_RDONLY)
page = mapped(None, 4096, 1, 2, fd, 0)  # PROT_READ, MAP_PRIVATE
vector = ctypes.create_string_buffer(1)

def call(number, *arguments):
    ctypes.set_errno(0)
    return [libc.syscall(number, *arguments), ctypes.get_errno()]

answers = {
    "fadvise64": call(221, fd, 0, 4096, 4),  # POSIX_FADV_DONTNEED
    "readahead": call(187, fd, 0, 4096),
    "mincore": call(27, ctypes.c_void_p(page), 4096, vector),
    "cachestat": call(451, fd, ctypes.create_string_buffer(16), ctypes.create_string_buffer(64), 0),
}
for name, advice in (("willneed", 3), ("cold", 20), ("pageout", 21), ("populate_read", 22),
                     ("dontneed", 4)):
    answers["madvise " + name] = call(28, ctypes.c_void_p(page), 4096, advice)
buffer = bytearray(8)
try:
    answers["preadv2 nowait"] = os.preadv(fd, [buffer], 0, os.RWF_NOWAIT)
except OSError as exc:
    answers["preadv2 nowait"] = errno.errorcode[exc.errno]
answers["preadv2"] = os.preadv(fd, [buffer], 0, 0)
return json.dumps(answers)
"""


def test_the_page_cache_can_be_neither_probed_nor_steered(sandbox: Sandbox) -> None:
    answers = returned(sandbox, PAGE_CACHE_CALLS)
    refused = [-1, errno.EPERM]
    assert answers == {
        "fadvise64": refused,
        "readahead": refused,
        "mincore": refused,
        "cachestat": refused,
        "madvise willneed": refused,
        "madvise cold": refused,
        "madvise pageout": refused,
        "madvise populate_read": refused,
        "madvise dontneed": [0, 0],  # what allocators use stays
        "preadv2 nowait": "EPERM",
        "preadv2": 8,  # a read that may wait stays
    }


READ_EVERYTHING = """
# Every file the sandbox can reach, and every file it has mapped, with its device; and what
# opening a host file outside the image gives.
devices = {}
for parent, folders, files in os.walk("/"):
    if parent == "/":
        folders[:] = [name for name in folders if name not in ("proc", "dev", "tmp", "sandbox")]
    for name in files:
        path = os.path.join(parent, name)
        devices[path] = os.lstat(path).st_dev
with open("/proc/self/maps") as maps:
    for line in maps:
        fields = line.split()
        if len(fields) > 5 and fields[4] != "0":
            major, minor = fields[3].split(":")
            devices["mapped " + fields[5]] = os.makedev(int(major, 16), int(minor, 16))
try:
    open(OUTSIDE, "rb").close()
    outside = "opened"
except OSError as exc:
    outside = errno.errorcode[exc.errno]
# Per device: how many files, and one of them (the answer's length is bounded).
summary = {}
for path, device in sorted(devices.items()):
    summary.setdefault(device, [0, path])[0] += 1
return json.dumps([summary, outside])
"""


def host_file_outside_the_image(image_root: Path) -> str:
    """A file of the host's /usr that the image does not hold (a program no grading runs)."""
    for folder in (Path("/usr/bin"), Path("/usr/share/doc"), Path("/usr/lib")):
        for path in sorted(folder.rglob("*"))[:2000]:
            copy = image_root / str(path).lstrip("/")
            if path.is_file() and not path.is_symlink() and not copy.exists():
                return str(path)
    pytest.fail("every file under /usr is in the image")


def test_the_sandbox_reads_only_files_held_in_memory(sandbox: Sandbox) -> None:
    zygote = sandbox.zygotes[0]
    # Seen from the trusted side, through the zygote's /proc entry: its mount namespace's
    # file systems, and the image on its state folder (statfs may be refused inside).
    image = RootImage.of(zygote.process.pid, zygote.state_folder)
    image_root = Path(f"/proc/{zygote.process.pid}/root") / str(zygote.state_folder).lstrip("/")
    outside = host_file_outside_the_image(image_root / "root")
    summary, opened = returned(sandbox, READ_EVERYTHING.replace("OUTSIDE", repr(outside)))
    assert opened == "ENOENT"
    # The interpreter, the standard library, numpy and its libraries; read and mapped.
    assert sum(count for count, _ in summary.values()) > 1000
    assert image.off_tmpfs({example: int(device) for device, (_, example) in summary.items()}) == []


STARTING_PROCESSES = """
import subprocess, sys, threading
answers = {}
try:
    pid = os.fork()
except OSError as exc:
    answers["fork"] = errno.errorcode[exc.errno]
else:
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    answers["fork"] = "started"
try:
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    answers["subprocess"] = "started"
except OSError as exc:
    answers["subprocess"] = errno.errorcode[exc.errno]
sums = []
thread = threading.Thread(target=lambda: sums.append(sum(range(10))))
thread.start()
thread.join()
answers["thread"] = sums
return json.dumps(answers)
"""


def test_without_a_cgroup_a_submission_is_one_process(sandbox: Sandbox) -> None:
    answers = returned(sandbox, STARTING_PROCESSES)
    if sandbox.zygotes[0].one_process:  # not root: seccomp refuses all but threads
        assert answers == {"fork": "EPERM", "subprocess": "EPERM", "thread": [45]}
    else:  # the cgroup bounds the processes together
        assert answers == {"fork": "started", "subprocess": "started", "thread": [45]}


# 16 processes of 100 MB each: each under its own RLIMIT_AS, 1.6 GB together.
SIXTEEN_PROCESSES = """
import os, time
import numpy as np

def f(x):
    children = []
    for _ in range(15):
        pid = os.fork()
        if pid == 0:
            block = np.ones(100 * 1024 * 1024 // 8)
            time.sleep(30)
            os._exit(0)
        children.append(pid)
    block = np.ones(100 * 1024 * 1024 // 8)
    for pid in children:
        os.waitpid(pid, 0)
    return x
"""


def test_the_processes_of_a_submission_never_hold_more_than_its_memory_budget(
    sandbox: Sandbox,
) -> None:
    limits = SandboxLimits(time_s=10.0, memory_mb=256, max_processes=32)
    result = sandbox.run(SIXTEEN_PROCESSES, "f", [Task(("x",), (np.zeros(2),))], limits)
    assert result.usage is not None
    if sandbox.zygotes[0].one_process:
        # Not root: the first fork is refused, so one address space of 256 MB holds it all.
        assert result.ending is Ending.COMPLETED, (result.ending, result.message)
        error = result.outcomes[0].error
        assert error is not None and error["type"] == "PermissionError", error
        assert result.usage.memory_bytes <= 256 * 1024 * 1024
    else:  # the cgroup counts them together and stops them at the budget
        assert result.exit_code == EXIT_MEMORY_LIMIT, (result.ending, result.message)


WRITE_THE_IMAGE = """
import hashlib, numpy, sys
libc = ctypes.CDLL(None, use_errno=True)
folder = os.path.dirname(numpy.__file__)
tried = {}
for what, path in (("numpy", numpy.__file__), ("into numpy", folder + "/_hostile.py"),
                   ("standard library", os.__file__), ("venv", sys.prefix + "/pyvenv.cfg"),
                   ("root", "/hostile")):
    try:
        with open(path, "a") as file:
            file.write("raise SystemExit")
        tried[what] = "written"
    except OSError as exc:
        tried[what] = errno.errorcode[exc.errno]
for what, call in (("chmod", lambda: os.chmod(folder, 0o777)),
                   ("utime", lambda: os.utime(numpy.__file__))):
    try:
        call()
        tried[what] = "done"
    except OSError as exc:
        tried[what] = errno.errorcode[exc.errno]
# MS_REMOUNT | MS_BIND: the image writable again; a tmpfs over numpy's folder
for what, flags, kind in (("remount", 32 | 4096, None), ("tmpfs", 0, b"tmpfs")):
    failed = libc.mount(b"none", folder.encode(), kind, flags, None) != 0
    tried[what] = errno.errorcode[ctypes.get_errno()] if failed else "mounted"
with open(numpy.__file__, "rb") as file:
    digest = hashlib.sha256(file.read()).hexdigest()
return json.dumps([tried, digest])
"""


def test_the_shared_image_cannot_be_written(sandbox: Sandbox) -> None:
    """Every zygote of the process runs from the one image in memory (shared_image.py), and
    imports numpy from it when it starts: a change would reach other learners' gradings."""
    tried, digest = returned(sandbox, WRITE_THE_IMAGE)
    assert set(tried.values()) <= {"EROFS", "EACCES", "EPERM"}, tried
    assert returned(sandbox, WRITE_THE_IMAGE)[1] == digest  # the next sandbox: the same numpy
