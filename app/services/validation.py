"""``numjudge validate`` for the instructor page: the CLI's lines per exercise, cached.

Validating a folder runs its reference, starter, mistakes, samples and mutants: seconds each,
minutes for a whole catalog. So the page never waits for the catalog: it shows each folder's
latest result, and a folder not checked yet (or changed since) is checked in the background,
one at a time, and shown as pending until then. One folder can also be checked at once.
"""

from __future__ import annotations

import enum
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from graders.api import (
    GraderError,
    Sandbox,
    ValidationResult,
    exercise_folders,
    folder_version,
    format_validation,
    validate_folder,
)

logger = logging.getLogger(__name__)


class ValidationState(enum.Enum):
    VALID = "valid"
    PROBLEMS = "problems"
    PENDING = "pending"  # being checked, or waiting for its turn


@dataclass(frozen=True)
class ValidationView:
    id: str
    state: ValidationState
    output: str = ""


FolderKey = tuple[str, str]  # the folder's path and its version: an edit is a new key

_cache: dict[FolderKey, ValidationView] = {}
_checking = threading.Lock()  # one validation at a time: each runs every reference and mistake
_lock = threading.Lock()  # guards _background
_background: dict[Path, threading.Thread] = {}  # per catalog root: the thread checking it


def _key(folder: Path) -> FolderKey:
    return str(folder), folder_version(folder)


def _validate(folder: Path, sandbox: Sandbox) -> ValidationView:
    try:
        result = validate_folder(folder, sandbox)
    except GraderError as exc:
        logger.exception("validate.failed", extra={"exercise": folder.name})
        result = ValidationResult(folder, problems=[f"the validator failed: {exc}"])
    state = ValidationState.VALID if result.ok else ValidationState.PROBLEMS
    return ValidationView(folder.name, state, format_validation(folder.name, result))


def _ensure(folders: list[Path]) -> list[ValidationView]:
    """The folders' results, validating those whose current version has none yet. A folder
    edited while it is checked keeps the result under the version that was checked."""
    with _checking:
        keys = [_key(folder) for folder in folders]
        todo = [
            (folder, key) for folder, key in zip(folders, keys, strict=True) if key not in _cache
        ]
        if todo:
            with Sandbox(workers=1) as sandbox:
                for folder, key in todo:
                    _cache[key] = _validate(folder, sandbox)
        return [_cache[key] for key in keys]


def _check_in_background(root: Path) -> None:
    try:
        while True:
            for folder in exercise_folders([root]):  # one at a time: validate_one may cut in
                _ensure([folder])
            with _lock:  # an edit made during the pass is picked up before the thread ends
                if all(_key(folder) in _cache for folder in exercise_folders([root])):
                    del _background[root]
                    return
    except BaseException:
        with _lock:
            _background.pop(root, None)
        raise


def validation_views(root: Path) -> list[ValidationView]:
    """Every folder under ``root``: its result, or pending while the background checks it."""
    folders = exercise_folders([root])
    views = [_cache.get(_key(f), ValidationView(f.name, ValidationState.PENDING)) for f in folders]
    if any(view.state is ValidationState.PENDING for view in views):
        with _lock:
            if root not in _background:
                thread = threading.Thread(
                    target=_check_in_background, args=(root,), name="validate", daemon=True
                )
                _background[root] = thread
                thread.start()
    return views


def validate_one(root: Path, exercise_id: str) -> ValidationView | None:
    """One folder's result, checked now when needed; None when there is no such folder."""
    folder = next((f for f in exercise_folders([root]) if f.name == exercise_id), None)
    return None if folder is None else _ensure([folder])[0]
