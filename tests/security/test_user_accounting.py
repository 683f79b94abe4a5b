"""What the kernel counts per host user, which every sandbox of that user shares, as a channel
between submissions running at once.

Not root, every sandbox runs as the service's own host user (its uid exists only inside the
zygote's user namespace), and the kernel keeps some counts per host user whatever the
namespace: a sandbox that fills one could signal another that measures what is left. Each
count is closed in the sandbox but the tasks a sandbox may hold (docs/security.md, "Counts kept
per host user"); the pipe channel of the report is measured, two senders beside a receiver.

Run as root here and as an unprivileged user by ``tests/graders/sandbox/test_rootless.py``.
"""

from __future__ import annotations

import json
import textwrap
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from graders.api import Sandbox, SandboxLimits
from graders.sandbox.protocol import Ending, RunResult, Task

LIMITS = SandboxLimits(time_s=4.0, memory_mb=512)
HOLD_S = 4.0
"""How long a sender holds its pipes, and a receiver keeps measuring: the three overlap."""

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(workers=3, limits=LIMITS) as pool:
        yield pool


def returned(sandbox: Sandbox, body: str) -> Any:
    """What ``def f(x): <body>`` returns in a sandbox, as JSON text, decoded."""
    code = "import ctypes, errno, fcntl, json, os, signal, time\n\ndef f(x):\n"
    code += textwrap.indent(textwrap.dedent(body), "    ")
    result: RunResult = sandbox.run(code, "f", [Task(("x",), (np.zeros(1),))], LIMITS)
    assert result.ending is Ending.COMPLETED, (result.ending, result.message, result.load_error)
    outcome = result.outcomes[0]
    assert outcome.ok, outcome.error
    return json.loads(outcome.value)


# Every pipe the sandbox can open, each grown to 1 MiB where the kernel lets it (F_SETPIPE_SZ,
# 1031); one end closed, so that the descriptors (RLIMIT_NOFILE) hold the most pipes.
OPEN_PIPES = """
def open_pipes():
    held, grown = [], 0
    while True:
        try:
            reader, writer = os.pipe()
        except OSError:  # out of descriptors, or no pipe at all (not root)
            return held, grown
        os.close(writer)
        held.append(reader)
        try:
            fcntl.fcntl(reader, 1031, 1 << 20)
            grown += 1
        except OSError:
            pass

def pages(held):
    return sum(fcntl.fcntl(reader, 1032) for reader in held) // 4096  # F_GETPIPE_SZ
"""

SENDER = (
    OPEN_PIPES
    + f"""
held, grown = open_pipes()
time.sleep({HOLD_S})
return json.dumps([pages(held), grown])
"""
)

RECEIVER = (
    OPEN_PIPES
    + f"""
least, deadline = None, time.monotonic() + {HOLD_S}
while time.monotonic() < deadline:
    held, _ = open_pipes()
    least = pages(held) if least is None else min(least, pages(held))
    for reader in held:
        os.close(reader)
    time.sleep(0.05)
return json.dumps(least)
"""
)


@dataclass(frozen=True)
class PipeChannel:
    """Pages of pipe buffer a receiver could get, alone and beside senders holding theirs."""

    alone: int
    beside_senders: int
    held_by_senders: tuple[int, ...]
    grown_by_senders: tuple[int, ...]
    """How many of its pipes each sender grew past the default 16 pages."""


def measure_pipe_channel(sandbox: Sandbox, senders: int = 2) -> PipeChannel:
    """The receiver alone, then beside ``senders`` sandboxes that hold every pipe they can."""
    alone = returned(sandbox, RECEIVER)
    held: dict[int, list[int]] = {}

    def send(number: int) -> None:
        held[number] = returned(sandbox, SENDER)

    threads = [threading.Thread(target=send, args=(number,)) for number in range(senders)]
    for thread in threads:
        thread.start()
    beside = returned(sandbox, RECEIVER)
    for thread in threads:
        thread.join()
    assert len(held) == senders, "a sender failed: its assertion is in the output above"
    return PipeChannel(
        alone,
        beside,
        tuple(pages for pages, _ in held.values()),
        tuple(grown for _, grown in held.values()),
    )


def test_no_sandbox_grows_a_pipe_so_none_sees_what_others_hold(sandbox: Sandbox) -> None:
    channel = measure_pipe_channel(sandbox)
    # F_SETPIPE_SZ is refused, so the receiver gets as many pages beside two senders holding
    # every pipe they can as alone. Before, not root: 15 104 pages alone (59 pipes of 1 MiB),
    # 118 beside two senders (59 pipes of the 2 pages left past the user's soft limit).
    assert channel.grown_by_senders == (0, 0)
    assert channel.beside_senders == channel.alone
    if sandbox.zygotes[0].one_process:
        # Not root: no pipe at all, whose default 16 pages would still count for the user.
        assert (channel.alone, *channel.held_by_senders) == (0, 0, 0)
    else:
        # Root: each slot its own uid, so its own allowance; every pipe keeps its 16 pages.
        assert channel.alone > 0 and channel.alone % 16 == 0
        assert channel.held_by_senders == (channel.alone, channel.alone)


PROBE_COUNTS = """
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
buffer = ctypes.create_string_buffer(256)

def call(number, *arguments):
    result = libc.syscall(number, *arguments)
    return "allowed" if result >= 0 else errno.errorcode[ctypes.get_errno()]

signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])
info = ctypes.create_string_buffer(128)
info[8:12] = (-1).to_bytes(4, "little", signed=True)  # si_code SI_QUEUE
answers = {
    "pipe2": call(293, ctypes.create_string_buffer(8), 0),
    "F_SETPIPE_SZ": call(72, 0, 1031, 1 << 20),  # the filter refuses it on any descriptor
    "epoll_create1": call(291, 0),
    "epoll_create": call(213, 1),
    "io_setup": call(206, 1, buffer),
    "sendmsg": call(46, 0, buffer, 0),
    "sendmmsg": call(307, 0, buffer, 1, 0),
    "rt_sigqueueinfo": call(129, os.getpid(), signal.SIGRTMIN, info),
    "timer_create": call(222, 1, None, buffer),  # CLOCK_MONOTONIC, SIGALRM
    "mq_open": call(240, b"numjudge", 0o102, 0o600, None),  # O_CREAT | O_RDWR
    "inotify_init1": call(294, 0),
    "fanotify_init": call(300, 0, 0),
    "add_key": call(248, b"user", b"numjudge", b"x", 1, -3),  # the session keyring
    "keyctl": call(250, 0, -4, 1),  # KEYCTL_GET_KEYRING_ID of the user keyring, creating it
    "unshare(CLONE_NEWUSER)": call(272, 0x10000000),
    "mlock": call(149, buffer, 256),
}
return json.dumps(answers)
"""


def test_no_count_kept_per_host_user_can_be_filled_from_a_sandbox(sandbox: Sandbox) -> None:
    answers = returned(sandbox, PROBE_COUNTS)
    assert answers == {
        # The pipe pages of fs.pipe-user-pages-soft/hard; not root, no pipe at all.
        "pipe2": "EPERM" if sandbox.zygotes[0].one_process else "allowed",
        "F_SETPIPE_SZ": "EPERM",
        # fs.epoll.max_user_watches; fs.aio-max-nr, a count of the whole host.
        "epoll_create1": "EPERM",
        "epoll_create": "EPERM",
        "io_setup": "EPERM",
        # Descriptors in flight over the channel, counted per user against RLIMIT_NOFILE.
        "sendmsg": "EPERM",
        "sendmmsg": "EPERM",
        # RLIMIT_SIGPENDING: 0 queued signals, so none of the user's.
        "rt_sigqueueinfo": "EAGAIN",
        "timer_create": "EAGAIN",
        # RLIMIT_MSGQUEUE 0 (and a fresh IPC namespace: fs.mqueue.queues_max).
        "mq_open": "EMFILE",
        # user.max_inotify_*, user.max_fanotify_*, kernel.keys.maxkeys, user.max_*_namespaces.
        "inotify_init1": "EPERM",
        "fanotify_init": "EPERM",
        "add_key": "EPERM",
        "keyctl": "EPERM",
        "unshare(CLONE_NEWUSER)": "EPERM",
        # RLIMIT_MEMLOCK 0.
        "mlock": "EPERM",
    }


def test_a_sandbox_adds_at_most_its_own_processes_to_the_users(sandbox: Sandbox) -> None:
    # The bound on what a sandbox adds to its host user's RLIMIT_NPROC count, threads included
    # (RLIMIT_AS stops them first: 10 threads beside the main one, as root and not).
    started = returned(
        sandbox,
        """
        import threading
        stop, threads = threading.Event(), []
        try:
            while len(threads) < 64:
                thread = threading.Thread(target=stop.wait)
                thread.start()
                threads.append(thread)
        except RuntimeError:
            pass
        stop.set()
        return json.dumps(len(threads))
        """,
    )
    assert 0 < started < LIMITS.max_processes
