"""The zygote's first stage: the sandboxes' root image, built in memory before the zygote starts.

The trusted side starts this in place of the zygote (``runner``). It claims the zygote's
state folder (``state.py``), enters a mount namespace of its own (not root: inside a user
namespace of its own, where it is the invoking user), mounts a tmpfs on the folder's mount
point and copies into it all that grading needs (``image.py``), with the few devices and
empty mount points, and makes it read-only. Then it binds the image's copies over the
host's folders of the interpreter and its libraries and runs the interpreter again, from
them, as the zygote (``zygote.main``): so even what a sandbox inherits mapped from the
zygote (the interpreter, numpy's libraries) lives in memory, not in the host's page cache.

The zygote inherits the state folder's lock and the image's mount namespace. Not root, it
has no capability left after the new start (the kernel clears them when a user that is not
root inside the namespace starts a program) and enters a user namespace of its own again,
nested in this one (``isolation.enter_user_namespace``).

If the image cannot be built the zygote still starts, from the host's files, and is told
why: a strict sandbox then refuses to grade, giving that reason.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

from graders.errors import SandboxUnavailable
from graders.sandbox import isolation
from graders.sandbox.image import copy_image, inside
from graders.sandbox.state import claim as claim_state_folder

logger = logging.getLogger(__name__)

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
LAUNCHER = """\
import sys, types
for name in ("graders", "graders.sandbox"):
    package = types.ModuleType(name)
    package.__path__ = [{root!r} + "/" + name.replace(".", "/")]
    sys.modules[name] = package
from {module} import main
main()
"""


def launcher(module: str) -> str:
    """``python -c`` code that runs ``module.main`` with ``graders`` and ``graders.sandbox``
    as bare packages. Their ``__init__`` import the whole engine (exercises, diagnosis,
    mutants and what they import: 62 more modules), which every fork of the zygote would
    carry: about 0.7 ms more CPU per grading in the sandbox and the zygote."""
    return LAUNCHER.format(root=PACKAGE_ROOT, module=module)


def build_image(mountpoint: str) -> str:
    """Enter the namespaces, build the image on ``mountpoint`` and run from it; returns a
    line for the zygote's log."""
    started = time.perf_counter()
    if isolation.rootless():
        isolation.enter_user_namespace(os.getuid())
    isolation.enter_mount_namespace()
    isolation.mount_image_tmpfs(mountpoint)
    contents = copy_image(Path(mountpoint))
    isolation.finish_image(mountpoint)
    # A folder holding the engine's own source stays the host's: the zygote imports from it.
    folders = [folder for folder in contents.folders if not inside(PACKAGE_ROOT, folder)]
    isolation.bind_image_over_host(mountpoint, folders)
    return (
        f"root image: {contents.files} files, {contents.bytes / 2**20:.0f} MiB in memory, "
        f"built in {time.perf_counter() - started:.2f} s"
    )


def main() -> None:
    """``argv``: the control socket's descriptor, the slot and the uid base, passed on."""
    state = claim_state_folder()
    try:
        outcome = build_image(state.root_mountpoint)
    except (OSError, SandboxUnavailable) as exc:
        outcome = f"{IMAGE_FAILED}{exc}"
    os.set_inheritable(state.lock_fd, True)
    os.execv(
        sys.executable,
        [
            sys.executable,
            "-c",
            launcher("graders.sandbox.zygote"),
            *sys.argv[1:4],
            str(state.path),
            str(state.lock_fd),
            outcome,
        ],
    )


IMAGE_FAILED = "root image not built: "
"""How the line passed to the zygote starts when the image could not be built."""


if __name__ == "__main__":
    main()
