"""Who owns what a sandbox leaves on a host: the machine and kernel identities in its names.

Folders a cleaner looks at may be seen from more than one machine: machines on one kernel
that share a parent cgroup (containers, network namespaces), a ``/tmp`` or ``/run`` shared
between them, a network volume. A sandbox's state folder and cgroup are named with the
*machine* (the kernel's boot id and the hostname: each container or namespace that has a
``/tmp`` of its own also has a hostname of its own), and a cleaner only ever removes names of
its own machine, whose liveness it can check. uid and core claims are locks that only mean
something on one kernel, and every process on that kernel must see the same ones (a web and a
worker container take different cores), so their folders are named with the *kernel*.
"""

from __future__ import annotations

import functools
import hashlib
import socket
from pathlib import Path

BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
ID_LENGTH = 12


def _boot_id() -> str:
    try:
        return BOOT_ID.read_text().strip()
    except OSError:  # not Linux: the hostname alone names the machine
        return ""


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:ID_LENGTH]


@functools.cache
def kernel_id() -> str:
    """The running kernel (its boot id): what every process on it shares."""
    return _digest(_boot_id())


@functools.cache
def machine_id() -> str:
    """This machine: the kernel and the hostname, so two containers on one kernel differ."""
    return _digest(_boot_id(), socket.gethostname())
