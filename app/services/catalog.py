"""The exercise catalog with a cheap freshness check in front of ``ExerciseCatalog.load``.

``ExerciseCatalog.load`` re-reads and re-hashes a folder and runs its ``mistakes/*.py`` on
every call (several milliseconds); a submission needs the exercise three times. This keeps
the loaded ``Exercise`` until a file's size or modification time changes, so an
instructor's edit is still seen on the next request, without a restart.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from graders.exercises import HASHED_SUFFIXES, Exercise, ExerciseCatalog

Signature = tuple[tuple[str, int, int], ...]


def folder_signature(path: Path) -> Signature:
    """(relative path, mtime, size) of every exercise file in the folder, sorted."""
    entries: list[tuple[str, int, int]] = []
    pending = [(str(path), "")]
    while pending:
        directory, prefix = pending.pop()
        try:
            with os.scandir(directory) as listing:
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            pending.append((entry.path, f"{prefix}{entry.name}/"))
                    elif entry.name.endswith(HASHED_SUFFIXES):
                        stat = entry.stat()
                        entries.append((prefix + entry.name, stat.st_mtime_ns, stat.st_size))
        except FileNotFoundError:
            continue
    return tuple(sorted(entries))


class FreshCatalog(ExerciseCatalog):
    """``ExerciseCatalog`` whose ``load`` is cached until the folder's files change."""

    def __init__(self, root: Path | str) -> None:
        super().__init__(root)
        self._loaded: dict[str, tuple[Signature, Exercise]] = {}
        self._load_lock = threading.Lock()

    def load(self, exercise_id: str) -> Exercise:
        if not exercise_id or "/" in exercise_id or exercise_id.startswith("."):
            return super().load(exercise_id)  # raises ExerciseNotFound
        path = self.root / exercise_id
        signature = folder_signature(path) if path.is_dir() else ()
        with self._load_lock:
            cached = self._loaded.get(exercise_id)
        if cached is not None and cached[0] == signature and signature:
            return cached[1]
        exercise = super().load(exercise_id)
        with self._load_lock:
            self._loaded[exercise_id] = (signature, exercise)
        return exercise
