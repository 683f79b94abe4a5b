"""``numjudge validate`` for the instructor page: the CLI's lines per exercise, cached."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from graders import (
    GraderError,
    Sandbox,
    ValidationResult,
    exercise_folders,
    folder_version,
    format_validation,
    validate_folder,
)

logger = logging.getLogger(__name__)

_cache: dict[tuple[str, str], ValidationView] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class ValidationView:
    id: str
    ok: bool
    output: str


def _validate(folder: Path, sandbox: Sandbox) -> ValidationView:
    try:
        result = validate_folder(folder, sandbox)
    except GraderError as exc:
        logger.exception("validate.failed", extra={"exercise": folder.name})
        result = ValidationResult(folder, problems=[f"the validator failed: {exc}"])
    return ValidationView(folder.name, result.ok, format_validation(folder.name, result))


def validate_all(root: Path) -> list[ValidationView]:
    """Validate every folder under ``root`` (a folder's result is reused until it changes)."""
    folders = exercise_folders([root])
    with _lock:  # one validation at a time: it runs every reference and mistake
        todo = [f for f in folders if (str(f), folder_version(f)) not in _cache]
        if todo:
            with Sandbox(workers=1) as sandbox:
                for folder in todo:
                    _cache[(str(folder), folder_version(folder))] = _validate(folder, sandbox)
        return [_cache[(str(folder), folder_version(folder))] for folder in folders]
