"""The zygote's first stage: into the shared root image's namespaces, then the zygote from it.

The trusted side starts this in place of the zygote (``runner``), passing the descriptors of
the image's namespaces (``shared_image``). It claims the zygote's state folder
(``state.py``), joins those namespaces, takes a private copy of their mount table, binds the
image on its own folder's mount point and the image's copies over the host's folders of the
interpreter and its libraries, and runs the interpreter again, from them, as the zygote
(``zygote.main``): so even what a sandbox inherits mapped from the zygote (the interpreter,
numpy's libraries) lives in memory, not in the host's page cache.

The zygote inherits the state folder's lock and the mount namespace. Not root, it has no
capability left after the new start (the kernel clears them when a user that is not root
inside the namespace starts a program) and enters a user namespace of its own again, nested
in the image's (``isolation.enter_user_namespace``).

Without an image (it could not be built, or joining failed) the zygote still starts, from the
host's files, and is told why: a strict sandbox then refuses to grade, giving that reason.
"""

from __future__ import annotations

import json
import os
import sys

from graders.errors import SandboxUnavailable
from graders.sandbox import isolation
from graders.sandbox.launch import IMAGE_FAILED, launcher
from graders.sandbox.state import claim as claim_state_folder


def join_image(namespaces: list[int], image: str, folders: list[str], mountpoint: str) -> None:
    """Join the image's namespaces and show the image on ``mountpoint`` and over ``folders``."""
    isolation.join_namespaces(namespaces)
    isolation.enter_mount_namespace()
    isolation.bind_image(image, mountpoint)
    isolation.bind_image_over_host(mountpoint, folders)


def main() -> None:
    """``argv``: the control socket's descriptor, the slot and the uid base, passed on; then
    the image's report line, and, when it was built, its description as JSON."""
    state = claim_state_folder()
    report = sys.argv[4]
    if not report.startswith(IMAGE_FAILED):
        image = json.loads(sys.argv[5])
        try:
            join_image(
                image["namespaces"], image["mountpoint"], image["folders"], state.root_mountpoint
            )
        except SandboxUnavailable as exc:
            report = f"{IMAGE_FAILED}{exc}"
        for descriptor in image["namespaces"]:
            os.close(descriptor)
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
            report,
        ],
    )


if __name__ == "__main__":
    main()
