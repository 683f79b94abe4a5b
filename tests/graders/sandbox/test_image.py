"""``image.copy_image``: what the sandboxes' root image holds, copied here into a plain folder
(the zygote's first stage copies into a tmpfs; tests/security/test_sandbox_channels.py checks
from inside a sandbox that all it reads is there)."""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from graders.sandbox.image import ImageContents, copy_image, outermost, wanted_file


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ImageContents]:
    root = tmp_path_factory.mktemp("image")
    return root, copy_image(root)


def copied(root: Path, path: str) -> Path:
    return root / path.lstrip("/")


def test_the_image_holds_the_interpreter_the_standard_library_and_numpy(
    image: tuple[Path, ImageContents],
) -> None:
    root, contents = image
    # The interpreter by the links the virtualenv reaches it through, links kept as links
    # (they point at host paths: the image is the root where they are followed).
    if os.path.islink(sys.executable):
        assert os.readlink(copied(root, sys.executable)) == os.readlink(sys.executable)
    assert copied(root, os.path.realpath(sys.executable)).is_file()
    stdlib = sysconfig.get_path("stdlib")
    for module in (os.__file__, np.__file__, np.linalg.__file__):
        assert copied(root, os.path.realpath(module)).is_file(), module
    # Compiled modules keep their source's time, so that they stay valid in the image.
    source = os.path.realpath(os.__file__)
    assert copied(root, source).stat().st_mtime_ns == os.stat(source).st_mtime_ns
    # No test suite, GUI or packaging tool; of the installed packages numpy, and of others
    # only the shared objects this process has mapped (the zygote maps none: pytest's do).
    for left_out in ("test", "idlelib", "tkinter", "ensurepip"):
        assert not copied(root, os.path.join(os.path.realpath(stdlib), left_out)).exists()
    host_site_packages = os.path.realpath(sysconfig.get_path("purelib"))
    site_packages = copied(root, host_site_packages)
    assert {"numpy", "numpy.libs"} <= {entry.name for entry in site_packages.iterdir()}
    with open("/proc/self/maps") as maps:
        mapped = {line.split(maxsplit=5)[-1].strip() for line in maps}
    for package in ("fastapi", "_pytest", "sqlalchemy", "starlette"):
        # What this process mapped before (compiled parts of what the tests before imported)
        # is copied, as the zygote's own mappings are; nothing else of these packages is.
        held = [p for p in (site_packages / package).rglob("*") if p.is_file()]
        stray = [p for p in held if "/" + str(p.relative_to(root)) not in mapped]
        assert not stray, stray
    assert contents.files > 1000 and contents.bytes > 20 * 2**20


def test_the_image_holds_every_shared_object_the_loader_found(
    image: tuple[Path, ImageContents],
) -> None:
    root, contents = image
    with open("/proc/self/maps") as maps:
        libc = next(line.split()[-1] for line in maps if "/libc.so" in line.split()[-1])
    assert copied(root, libc).is_file()
    # The folders the zygote binds the image's copies over: the interpreter's and the
    # libraries', none inside another.
    assert os.path.realpath(sys.prefix) in contents.folders
    assert os.path.dirname(libc) in contents.folders or any(
        libc.startswith(folder + "/") for folder in contents.folders
    )
    assert outermost(contents.folders) == contents.folders


def test_what_is_left_out_of_the_standard_library() -> None:
    assert [
        name
        for name in (
            "os.py",
            "os.cpython-311.pyc",
            "os.cpython-311.opt-1.pyc",
            "_tkinter.cpython-311-x86_64-linux-gnu.so",
            "_testcapi.cpython-311-x86_64-linux-gnu.so",
            "_ctypes_test.cpython-311-x86_64-linux-gnu.so",
            "xxlimited.cpython-311-x86_64-linux-gnu.so",
            "_decimal.cpython-311-x86_64-linux-gnu.so",
            "textwrap.py",
        )
        if wanted_file(name)
    ] == [
        "os.py",
        "os.cpython-311.pyc",
        "_decimal.cpython-311-x86_64-linux-gnu.so",
        "textwrap.py",
    ]
    assert outermost(["/usr/lib", "/usr", "/opt/a", "/opt/ab"]) == ("/opt/a", "/opt/ab", "/usr")
