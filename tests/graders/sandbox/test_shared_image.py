"""``shared_image``: one root image in memory per process, whatever its pools and slots."""

from __future__ import annotations

from pathlib import Path

from graders import Sandbox
from graders.sandbox.launch import IMAGE_FAILED
from graders.sandbox.runner import Zygote
from graders.sandbox.state import ROOT_NAME


def image_device(zygote: Zygote) -> str:
    """The device (``major:minor``) mounted on the zygote's image mount point, as its mount
    namespace shows it: a bind of a tmpfs shows the tmpfs's own device."""
    mountpoint = str(zygote.state_folder / ROOT_NAME)
    for line in Path(f"/proc/{zygote.process.pid}/mountinfo").read_text().splitlines():
        fields = line.split()
        if fields[4] == mountpoint:
            return fields[2]
    raise AssertionError(f"nothing mounted on {mountpoint}")


def test_every_zygote_of_every_pool_shows_the_one_image() -> None:
    with Sandbox(workers=2) as first, Sandbox(workers=1) as second:
        zygotes = [*first._all, *second._all]
        assert not zygotes[0].image.startswith(IMAGE_FAILED), zygotes[0].image
        # Built once: each zygote was told of the same build, and binds the same file system
        # (the same pages) rather than a copy of its own.
        assert len({zygote.image for zygote in zygotes}) == 1
        assert len({image_device(zygote) for zygote in zygotes}) == 1
        assert len({zygote.state_folder for zygote in zygotes}) == 3
