"""`numjudge validate` for the instructor page: the CLI's lines per exercise, cached."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from graders import GraderError, Sandbox, exercise_folders, folder_version, validate_folder

logger = logging.getLogger(__name__)

_cache: dict[tuple[str, str], ValidationView] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class ValidationView:
    id: str
    ok: bool
    output: str


def _format(folder: Path, ok: bool, notes: list[str], problems: list[str]) -> str:
    """The same lines as ``numjudge validate`` prints for one folder."""
    mark = "ok  " if ok else "FAIL"
    lines = [f"{mark} {folder.name}" + (f"  ({'; '.join(notes)})" if notes else "")]
    lines += [f"     - {problem}" for problem in problems]
    return "\n".join(lines)


def validate_all(root: Path) -> list[ValidationView]:
    """Validate every folder under ``root`` (a folder's result is reused until it changes)."""
    folders = exercise_folders([root])
    views: list[ValidationView] = []
    with _lock:  # one validation at a time: it runs every reference and mistake
        todo = [f for f in folders if (str(f), folder_version(f)) not in _cache]
        if todo:
            with Sandbox(workers=1) as sandbox:
                for folder in todo:
                    views_key = (str(folder), folder_version(folder))
                    try:
                        result = validate_folder(folder, sandbox)
                        ok, notes, problems = result.ok, result.notes, result.problems
                    except GraderError as exc:
                        logger.exception("validate.failed", extra={"exercise": folder.name})
                        ok, notes, problems = False, [], [f"the validator failed: {exc}"]
                    _cache[views_key] = ValidationView(folder.name, ok,
                                                       _format(folder, ok, notes, problems))
        for folder in folders:
            views.append(_cache[(str(folder), folder_version(folder))])
    return views
