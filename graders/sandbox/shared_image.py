"""The sandboxes' root image, built in memory once per process and shared by all its zygotes.

The trusted side claims a state folder (``state.py``) and starts a builder process on it. The
builder enters a mount namespace of its own (not root: inside a user namespace of its own,
where it is the invoking user), mounts a tmpfs on the folder's mount point, copies into it all
that grading needs (``image.py``), adds the devices and the empty mount points and makes it
read-only. It reports what it built on its standard output, and the trusted side opens its
namespaces (``/proc/<pid>/ns``): a namespace lives as long as a descriptor of it is open, so
the builder may then end, and its image stays, with no process in it.

Every zygote of every pool of the process starts in these namespaces (``boot``): it joins
them, takes a private copy of the mount table and binds the image where its sandboxes expect
it. A bind shares the tmpfs's pages rather than copying them: the image costs its size once
per process, however many slots the pools have, and its build time once.

The state folder's lock is held by the trusted process for its whole life: no other claim on
this host removes the image's mount point while zygotes may still join it. When the process
ends, the lock is released and the next claim removes the folder.

If the image cannot be built the zygotes still start, from the host's files, and are told
why: a strict sandbox then refuses to grade, giving that reason. A failed build is tried
again by the next zygote to start.

A cleaner of the temporary folder may remove the state folder while the process runs: the
image's mount on it goes with it (the kernel detaches a mount whose mount point is removed,
in every namespace), and a zygote started then could join nothing. The next zygote to start
finds the folder ``vanished`` and builds the image again in a new one; the zygotes that joined
the old image keep their own binds of it (its pages are freed with the last of them).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from graders.errors import SandboxUnavailable
from graders.sandbox import isolation
from graders.sandbox.image import copy_image, inside
from graders.sandbox.launch import IMAGE_FAILED, PACKAGE_ROOT, child_environment, launcher
from graders.sandbox.state import StateFolder
from graders.sandbox.state import claim as claim_state_folder

logger = logging.getLogger(__name__)

BUILD_TIMEOUT_S = 300.0
"""Copying takes a few seconds on an idle host; a host loaded many times over may take minutes."""


@dataclass(frozen=True)
class SharedImage:
    """A built image (or why there is none), as the trusted side holds it."""

    report: str
    """One line for the logs: what was copied, how much and how long it took; or why not."""
    mountpoint: str = ""
    """Where the image is mounted, in its namespace."""
    folders: tuple[str, ...] = ()
    """The host folders the zygotes show the image's copies in place of (``ImageContents``)."""
    namespaces: tuple[int, ...] = ()
    """Open descriptors of the builder's user namespace (not root only) and mount namespace,
    in the order a zygote joins them; empty when the image was not built."""

    @property
    def built(self) -> bool:
        return bool(self.namespaces)


_lock = threading.Lock()
_image: SharedImage | None = None
_state: StateFolder | None = None


@contextlib.contextmanager
def shared_image() -> Iterator[SharedImage]:
    """This process's image, built on first use (and again after a failed build, or once its
    folder vanished), as it stays until the block ends: its descriptors open and no other
    thread's rebuild closing them while a zygote is started with them."""
    global _image, _state
    with _lock:
        if _state is not None and _state.vanished():
            logger.warning("root image's folder %s vanished: building it again", _state.path)
            _forget()
        if _image is None or not _image.built:
            if _state is None:
                _state = claim_state_folder()
            _image = _build(_state)
        yield _image


def vanished() -> str:
    """The folder of this process's image if it vanished since it was made; "" if it is
    there, or none was made yet. Never waits for a build."""
    state = _state
    return str(state.path) if state is not None and state.vanished() else ""


def _forget() -> None:
    """Let go of the image whose folder vanished (call it holding ``_lock``)."""
    global _image, _state
    assert _state is not None
    for descriptor in _image.namespaces if _image is not None else ():
        os.close(descriptor)
    os.close(_state.lock_fd)
    _image = _state = None


def _build(state: StateFolder) -> SharedImage:
    process = subprocess.Popen(
        [sys.executable, "-c", launcher(__name__), state.root_mountpoint],
        env=child_environment(),
        cwd="/",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            ready = selector.select(BUILD_TIMEOUT_S)
        answer = json.loads(process.stdout.readline() or b"{}") if ready else {}
        if not isinstance(answer, dict) or "report" not in answer:
            return SharedImage(f"{IMAGE_FAILED}the builder did not answer")
        report = str(answer["report"])
        if not answer.get("built"):
            return SharedImage(report)
        kinds = ("user", "mnt") if isolation.rootless() else ("mnt",)
        try:
            namespaces = tuple(
                os.open(f"/proc/{process.pid}/ns/{kind}", os.O_RDONLY | os.O_CLOEXEC)
                for kind in kinds
            )
        except OSError as exc:
            return SharedImage(f"{IMAGE_FAILED}the builder's namespaces: {exc.strerror}")
        logger.info(report)
        return SharedImage(
            report,
            state.root_mountpoint,
            tuple(str(folder) for folder in answer["folders"]),
            namespaces,
        )
    finally:
        process.stdin.close()  # the builder's cue to end
        process.stdout.close()
        if process.poll() is None:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def build(mountpoint: str) -> tuple[str, list[str]]:
    """Enter the namespaces and build the image on ``mountpoint``; the report line and the
    host folders to show the image's copies in place of."""
    started = time.perf_counter()
    if isolation.rootless():
        isolation.enter_user_namespace(os.getuid())
    isolation.enter_mount_namespace()
    isolation.mount_image_tmpfs(mountpoint)
    contents = copy_image(Path(mountpoint))
    isolation.finish_image(mountpoint)
    report = (
        f"root image: {contents.files} files, {contents.bytes / 2**20:.0f} MiB in memory, "
        f"built in {time.perf_counter() - started:.2f} s"
    )
    # A folder holding the engine's own source stays the host's: the zygote imports from it.
    return report, [folder for folder in contents.folders if not inside(PACKAGE_ROOT, folder)]


def main() -> None:
    """The builder: ``argv[1]`` is the mount point. Answers one JSON line, then stays (and
    so do its namespaces) until the trusted side closes its standard input."""
    try:
        report, folders = build(sys.argv[1])
        answer = {"built": True, "report": report, "folders": folders}
    except (OSError, SandboxUnavailable) as exc:
        answer = {"built": False, "report": f"{IMAGE_FAILED}{exc}"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    sys.stdin.buffer.read()


if __name__ == "__main__":
    main()
