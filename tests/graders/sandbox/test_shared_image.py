"""``shared_image``: one root image in memory per process, whatever its pools and slots."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

from graders.api import PreparedExercise, Sandbox, Verdict, grade
from graders.sandbox.launch import IMAGE_FAILED
from graders.sandbox.runner import Zygote
from graders.sandbox.shared_image import shared_image
from graders.sandbox.state import ROOT_NAME
from tests.graders.helpers import gate_solution


def image_device(zygote: Zygote) -> str:
    """The device (``major:minor``) mounted on the zygote's image mount point, as its mount
    namespace shows it: a bind of a tmpfs shows the tmpfs's own device."""
    mountpoint = str(zygote.state_folder / ROOT_NAME)
    for line in Path(f"/proc/{zygote.process.pid}/mountinfo").read_text().splitlines():
        fields = line.split()
        if fields[4] == mountpoint:
            return fields[2]
    raise AssertionError(f"nothing mounted on {mountpoint}")


@pytest.mark.slow
def test_every_zygote_of_every_pool_shows_the_one_image() -> None:
    with Sandbox(workers=2) as first, Sandbox(workers=1) as second:
        zygotes = [*first.zygotes, *second.zygotes]
        assert not zygotes[0].image.startswith(IMAGE_FAILED), zygotes[0].image
        # Built once: each zygote was told of the same build, and binds the same file system
        # (the same pages) rather than a copy of its own.
        assert len({zygote.image for zygote in zygotes}) == 1
        assert len({image_device(zygote) for zygote in zygotes}) == 1
        assert len({zygote.state_folder for zygote in zygotes}) == 3


def image_folder() -> Path:
    with shared_image() as image:
        return Path(image.mountpoint).parent


def remove_every_working_folder(pool: Sandbox) -> tuple[str, ...]:
    """What a cleaner of the temporary folder (and of cgroups) does: the image's folder, each
    zygote's state folder and cgroups removed under the live pool. Returns what it removed as
    ``Sandbox.missing`` names it."""
    folder = image_folder()
    shutil.rmtree(folder)
    removed = [f"the root image's folder {folder}"]
    for zygote in pool.zygotes:
        shutil.rmtree(zygote.state_folder)
        removed.append(f"zygote {zygote.slot}'s state folder {zygote.state_folder}")
        for cgroup in zygote.cgroups:
            # Another process's clean-up may have taken it first: its folder is gone.
            with contextlib.suppress(FileNotFoundError):
                cgroup.rmdir()
            removed.append(f"zygote {zygote.slot}'s cgroup {cgroup}")
    return tuple(removed)


@pytest.mark.slow
def test_every_working_folder_removed_is_made_again_by_the_next_grading(
    gate: PreparedExercise,
) -> None:
    with Sandbox(workers=1) as pool:
        removed = remove_every_working_folder(pool)
        assert pool.missing() == removed
        # The zygote's own folders first, the image's with the zygote started in their place.
        report = grade(gate, gate_solution(), pool)
        assert report.verdict is Verdict.PASSED, report.message
        assert pool.missing() == ()
        rebuilt = image_folder()
        assert rebuilt.is_dir() and not removed[0].endswith(str(rebuilt))  # a new one


@pytest.mark.slow
def test_repair_makes_every_idle_zygotes_folders_and_the_image_again(
    gate: PreparedExercise,
) -> None:
    with Sandbox(workers=2) as pool:
        removed = remove_every_working_folder(pool)
        assert pool.repair() == removed
        assert pool.missing() == ()
        assert pool.repair() == ()  # nothing more to do
        for zygote in pool.zygotes:
            assert zygote.state_folder.is_dir() and all(c.is_dir() for c in zygote.cgroups)
        report = grade(gate, gate_solution(), pool)
        assert report.verdict is Verdict.PASSED, report.message
