"""The sandbox's root image: what grading needs, copied into memory at the host's paths.

A sandbox that saw the host's files could signal another through the page cache: one
submission loads or leaves pages of a large file, another times its reads (a cached page
takes about a microsecond, one from disk fifty). Files on a tmpfs have no disk behind them:
every page is in memory from the copy on, and nothing a submission may do loads or evicts
one, so their timing tells nothing. (Where the host has swap, a tmpfs page can be swapped
out: docs/security.md.)

``copy_image`` copies, each at its own path under the image's root:

- the interpreter, by the chain of links its virtualenv reaches it through, and the
  virtualenv's ``pyvenv.cfg``;
- the folders of ``sys.path`` inside the interpreter's prefix (the standard library and its
  extension modules), without the parts no grading imports (``LEFT_OUT``, test suites);
- of the installed packages, only those of ``GRADING_DISTRIBUTIONS``, found by their
  installed records;
- every shared object these load, as this host's dynamic loader finds it: each extension
  module is loaded once (``dlopen``, without running it) and the loader's own list of loaded
  objects is read, with the names it opened them by, so that the loader finds them in the
  image by the same names; and whatever else the interpreter maps (the locale's tables);
- the loader's cache and the time zone.

Nothing is named by a path of its own here: the interpreter tells where it lives, the loader
where the libraries are. The project folder, where the harness's source lives, is left out:
the zygote imports the harness before any sandbox exists.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import logging
import os
import site
import sys
import sysconfig
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

GRADING_DISTRIBUTIONS = ("numpy",)
"""The installed distributions a submission may import besides the standard library."""
LEFT_OUT = frozenset(
    {
        "test",
        "tests",
        "idlelib",
        "tkinter",
        "turtledemo",
        "ensurepip",
        "lib2to3",
        "site-packages",
    }
)
"""Folders of the standard library (and of the grading packages) that no grading imports:
test suites, the GUI, packaging tools, the interpreter's own site-packages."""
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")
"""Read by the loader and by ``time``: copied where the host has them."""

ELF_MAGIC = b"\x7fELF"
RTLD_LAZY = 0x1
RTLD_DI_LINKMAP = 2


@dataclass(frozen=True)
class ImageContents:
    """What ``copy_image`` copied."""

    files: int
    bytes: int
    folders: tuple[str, ...]
    """The host folders of the interpreter and of every mapped file: the zygote binds the
    image's copies over them before it starts the interpreter again, so that even the pages
    a sandbox inherits mapped from the zygote are in memory."""


def copy_image(image: Path) -> ImageContents:
    """Copy into ``image`` (an empty folder on a tmpfs) all that grading needs; see above."""
    copier = _Copier(image)
    copier.add_path(sys.executable)
    if sys.prefix != sys.base_prefix:
        copier.add_path(os.path.join(sys.prefix, "pyvenv.cfg"))
    prefixes = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix)}
    libpl = sysconfig.get_config_var("LIBPL")  # the static library and build files
    packages = list(_top_levels(GRADING_DISTRIBUTIONS))
    for top_level in packages:
        copier.add_tree(top_level, left_out=set())
    library_folders = {
        os.path.realpath(entry)
        for entry in sys.path
        if entry and os.path.isdir(entry) and os.path.realpath(entry) not in _site_packages()
    }
    for folder in outermost(library_folders):
        if any(inside(folder, prefix) for prefix in prefixes):
            copier.add_tree(folder, left_out={libpl} if libpl else set())
    mapped = loaded_objects(copier.shared_objects())
    for path in mapped:
        copier.add_path(path)
    for path in SYSTEM_FILES:
        if os.path.isfile(path):
            copier.add_path(path)
    folders = {os.path.realpath(root) for root in (sys.prefix, sys.base_prefix)}
    folders |= {os.path.dirname(os.path.realpath(path)) for path in (*packages, *mapped)}
    return ImageContents(copier.files, copier.bytes, outermost(folders))


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def outermost(paths: Iterable[str]) -> tuple[str, ...]:
    """``paths`` without those that lie inside another of them."""
    kept: list[str] = []
    for path in sorted(set(paths)):
        if not any(inside(path, outer) for outer in kept):
            kept.append(path)
    return tuple(kept)


def _site_packages() -> set[str]:
    """Every folder of installed packages: the virtualenv's, and the system's (a Debian
    interpreter's ``dist-packages`` lies inside its prefix)."""
    folders = {sysconfig.get_path(kind) for kind in ("purelib", "platlib")}
    folders |= set(site.getsitepackages())
    return {os.path.realpath(folder) for folder in folders}


def _top_levels(distributions: Iterable[str]) -> Iterator[str]:
    """The folders (``numpy``, ``numpy.libs``) the distributions installed, wherever they are."""
    for name in distributions:
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for top in sorted({file.parts[0] for file in distribution.files or []}):
            folder = os.path.realpath(str(distribution.locate_file(top)))
            if top != ".." and not top.endswith(".dist-info") and os.path.isdir(folder):
                yield folder


def wanted_file(name: str) -> bool:
    """Not a module compiled for ``python -O``, nor an extension module of a left-out part
    (``_tkinter``) or one built only to test the interpreter (``_testcapi``, ``xxlimited``)."""
    if name.endswith((".opt-1.pyc", ".opt-2.pyc")):
        return False
    module = name.split(".")[0].lstrip("_")
    return not (module in LEFT_OUT or module.startswith(("test", "xx")) or module.endswith("_test"))


class _Copier:
    """Copies paths into the image, links as links, files with their times (so that the
    standard library's compiled modules stay valid and are not compiled again per import)."""

    def __init__(self, image: Path) -> None:
        self.image = image
        self.copied: set[str] = set()
        self.libraries: set[str] = set()
        self.files = 0
        self.bytes = 0

    def target(self, path: str) -> Path:
        return self.image / path.lstrip("/")

    def add_path(self, path: str) -> None:
        """Copy ``path``, and every link on the way to it with what the link points at."""
        parts = Path(os.path.normpath(os.path.abspath(path))).parts
        for depth in range(2, len(parts) + 1):
            prefix = os.path.join(*parts[:depth])
            if os.path.islink(prefix):
                link = os.readlink(prefix)
                if prefix not in self.copied:
                    self.copied.add(prefix)
                    self.target(prefix).parent.mkdir(parents=True, exist_ok=True)
                    os.symlink(link, self.target(prefix))
                self.add_path(os.path.join(os.path.dirname(prefix), link, *parts[depth:]))
                return
        path = os.path.join(*parts)
        if path in self.copied:
            return
        if os.path.isdir(path):
            self.copied.add(path)
            self.target(path).mkdir(parents=True, exist_ok=True)
        else:
            self._copy_file(path)

    def add_tree(self, folder: str, left_out: set[str]) -> None:
        """Copy a folder and what is in it, but for ``LEFT_OUT`` and the folders ``left_out``."""
        self.add_path(folder)
        for parent, folders, files in os.walk(os.path.realpath(folder)):
            # os.walk goes through real folders only: just a last component can be a link.
            folders[:] = [
                name
                for name in folders
                if name not in LEFT_OUT and os.path.join(parent, name) not in left_out
            ]
            for name in folders:
                path = os.path.join(parent, name)
                if os.path.islink(path):
                    self.add_path(path)
                else:
                    os.mkdir(self.target(path))
            for name in files:
                path = os.path.join(parent, name)
                if not wanted_file(name) or path in self.copied:
                    continue
                if os.path.islink(path):
                    self.add_path(path)
                else:
                    self._copy_file(path, made_parent=True)

    def _copy_file(self, path: str, *, made_parent: bool = False) -> None:
        """Copy one regular file with its mode and times: one ``stat`` and the kernel's own
        copy (``sendfile``), where ``shutil.copy2`` stats each file six times more and
        builds paths in Python; the image holds about 2,000 files."""
        target = str(self.target(path))
        if not made_parent:
            os.makedirs(os.path.dirname(target), exist_ok=True)
        source = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            status = os.fstat(source)
            copy = os.open(
                target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, status.st_mode & 0o7777
            )
            try:
                sent = 0
                while sent < status.st_size:
                    step = os.sendfile(copy, source, sent, status.st_size - sent)
                    if step == 0:
                        break  # the file shrank while it was copied
                    sent += step
                os.fchmod(copy, status.st_mode & 0o7777)  # the mode without the umask's bits
                os.utime(copy, ns=(status.st_atime_ns, status.st_mtime_ns))
            finally:
                os.close(copy)
            is_library = ".so" in os.path.basename(path) and os.pread(source, 4, 0) == ELF_MAGIC
        finally:
            os.close(source)
        self.copied.add(path)
        self.files += 1
        self.bytes += status.st_size
        if is_library:
            self.libraries.add(os.path.realpath(path))

    def shared_objects(self) -> list[str]:
        return sorted(self.libraries)


class _LinkMap(ctypes.Structure):
    pass


_LinkMap._fields_ = [
    ("l_addr", ctypes.c_size_t),
    ("l_name", ctypes.c_char_p),
    ("l_ld", ctypes.c_void_p),
    ("l_next", ctypes.POINTER(_LinkMap)),
    ("l_prev", ctypes.POINTER(_LinkMap)),
]


def loaded_objects(shared_objects: Iterable[str]) -> list[str]:
    """Every file this process maps after loading ``shared_objects``: each object the loader
    loaded, by the name it opened it by (the interpreter's own libraries too), and the rest
    of what is mapped (the locale's tables, which the interpreter loads at start).

    Loading runs no module's code (an extension module runs only when imported); one the
    loader cannot load here would not load in a sandbox either, and is skipped.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.dlopen.restype = ctypes.c_void_p
    libc.dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
    for path in shared_objects:
        if not libc.dlopen(path.encode(), RTLD_LAZY):
            logger.debug("not loadable: %s", path)
    handle = libc.dlopen(None, RTLD_LAZY)
    entry = ctypes.POINTER(_LinkMap)()
    if libc.dlinfo(ctypes.c_void_p(handle), RTLD_DI_LINKMAP, ctypes.byref(entry)) != 0:
        raise OSError(ctypes.get_errno(), "dlinfo")
    names = set()
    while entry:
        names.add((entry.contents.l_name or b"").decode())
        entry = entry.contents.l_next
    with open("/proc/self/maps") as maps:
        names |= {line.split(maxsplit=5)[-1].strip() for line in maps}
    # Not the program's own entry (""), nor the vDSO's or the heap's, nor a deleted file's.
    return sorted(name for name in names if name.startswith("/") and os.path.isfile(name))
