"""The processes of a sandbox pool, seen from the host."""

from __future__ import annotations

from pathlib import Path


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (rootless, the zygote itself is below a waiting parent)."""
    try:
        children = [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except FileNotFoundError:
        return []
    return children + [grandchild for child in children for grandchild in descendants(child)]


def past_its_layers(pid: int) -> bool:
    """Whether the process runs under a seccomp filter: a sandbox that entered every layer,
    not a zygote nor a spare still waiting for its request (graders/sandbox/zygote.py)."""
    try:
        return "\nSeccomp:\t2\n" in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def is_gone(pid: int) -> bool:
    """The process ended (a zombie counts: it runs nothing more)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True
