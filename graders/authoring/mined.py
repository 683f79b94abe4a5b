"""A mistake mined from learners' submissions, added to an exercise folder once it validates.

An instructor turns a group of alike wrong submissions into a mistake file,
``mistakes/mined/<name>.py``: the group's representative code with the instructor's hint
(``HINT``; it runs only in the sandbox, like the submission it was), and the hint in every
other language of the statement (``translation.<lang>.toml``, ``[hints]``). :func:`add_mistake`
first writes it into a copy of the folder and runs there the checks ``numjudge validate`` runs
on mistakes (the rules, the translations, and that every mistake fails a hidden case and gets
its own hint: an ambiguous one is refused), and writes the real folder only when the copy
raised no problem; otherwise the folder is left as it was and the problems say why.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from graders.authoring.mistakes import check_mistakes
from graders.authoring.reference import check_rules
from graders.authoring.result import ValidationResult
from graders.authoring.texts import check_translations
from graders.errors import GraderError
from graders.exercises import load_exercise, prepare_exercise
from graders.exercises.model import MINED_FOLDER
from graders.exercises.translations import translation_file
from graders.sandbox.runner import Sandbox

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,59}")
"""A mistake's name: its file's stem, and its key in the translations' ``[hints]``."""
HINTS_HEADER = "[hints]"


@dataclass(frozen=True)
class MistakeOutcome:
    """What became of a mined mistake: ``path`` is set when it was written, ``problems`` (what
    ``numjudge validate`` says of it) when it was refused."""

    path: Path | None
    problems: tuple[str, ...] = ()

    @property
    def written(self) -> bool:
        return self.path is not None


def mistake_source(code: str, hint: str) -> str:
    """The mistake file: the representative's code as it was submitted, then its ``HINT`` (at
    the end, so that the code's own ``from __future__`` imports stay first)."""
    return f"{code.rstrip()}\n\n\nHINT = {json.dumps(hint, ensure_ascii=False)}\n"


def name_problems(folder: Path, name: str) -> list[str]:
    if not NAME_PATTERN.fullmatch(name):
        return [
            f"{name!r}: a mistake's name is lower-case letters, digits and underscores, "
            "starting with a letter (at most 60)"
        ]
    taken = [
        path
        for path in (folder / "mistakes" / f"{name}.py", mined_path(folder, name))
        if path.exists()
    ]
    if taken:
        return [f"{taken[0].relative_to(folder)} already exists; choose another name"]
    return []


def mined_path(folder: Path, name: str) -> Path:
    """Where the mined mistake ``name`` of the exercise in ``folder`` lives: a learner's code,
    which runs only in the sandbox (graders/exercises/model.py, ``Mistake``)."""
    return folder / "mistakes" / MINED_FOLDER / f"{name}.py"


def _add_translated_hint(file: Path, name: str, hint: str) -> None:
    """Add ``name = "hint"`` to the file's ``[hints]`` table (a TOML basic string is a JSON
    string, but for DEL, which TOML allows only escaped), keeping every other line as it is;
    read back to prove it is still TOML."""
    text = json.dumps(hint, ensure_ascii=False).replace("\x7f", "\\u007f")
    entry = f"{name} = {text}"
    lines = file.read_text(encoding="utf-8").splitlines() if file.exists() else []
    if HINTS_HEADER in (line.strip() for line in lines):
        at = next(i for i, line in enumerate(lines) if line.strip() == HINTS_HEADER)
        lines.insert(at + 1, entry)
    else:
        lines += ["", HINTS_HEADER, entry]
    text = "\n".join(lines) + "\n"
    tomllib.loads(text)
    file.write_text(text, encoding="utf-8")


def _targets(folder: Path, name: str, translated: Mapping[str, str]) -> list[Path]:
    return [
        mined_path(folder, name),
        *(folder / translation_file(lang) for lang in translated),
    ]


def unwritable(folder: Path, name: str, translated: Mapping[str, str]) -> list[str]:
    """The files the mistake would write that this process may not: the service's user may
    have only read access to the exercises."""
    problems = []
    for target in _targets(folder, name, translated):
        existing = target if target.exists() else target.parent
        while not existing.exists():
            existing = existing.parent
        if not os.access(existing, os.W_OK):
            problems.append(f"{target}: this process may not write it")
    return problems


def _write(folder: Path, name: str, source: str, translated: Mapping[str, str]) -> Path:
    path = mined_path(folder, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    for lang, hint in translated.items():
        _add_translated_hint(folder / translation_file(lang), name, hint)
    path.write_text(source, encoding="utf-8")
    return path


def check_mistake(
    folder: Path, name: str, source: str, translated: Mapping[str, str], sandbox: Sandbox
) -> list[str]:
    """What ``numjudge validate``'s checks of mistakes say of the folder once the mistake is
    added, checked in a copy of the folder (the folder itself is not touched)."""
    with tempfile.TemporaryDirectory(prefix="numjudge-mined-") as scratch:
        copy = Path(scratch) / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
        _write(copy, name, source, translated)
        result = ValidationResult(copy)
        try:
            prepared = prepare_exercise(load_exercise(copy))
        except GraderError as exc:
            return [str(exc)]
        for check in (check_rules, check_translations, check_mistakes):
            check(prepared, sandbox, result)
        return result.problems


def add_mistake(
    folder: Path,
    name: str,
    code: str,
    hint: str,
    translated: Mapping[str, str],
    sandbox: Sandbox,
) -> MistakeOutcome:
    """Write ``mistakes/mined/<name>.py`` (and its translated hints) into the exercise folder
    if it validates there; the folder is unchanged when it does not."""
    if not hint.strip():
        return MistakeOutcome(None, ("the hint is empty; write what the learner should fix",))
    problems = name_problems(folder, name) or unwritable(folder, name, translated)
    if problems:
        return MistakeOutcome(None, tuple(problems))
    source = mistake_source(code, hint.strip())
    cleaned = {lang: text.strip() for lang, text in translated.items()}
    problems = check_mistake(folder, name, source, cleaned, sandbox)
    if problems:
        return MistakeOutcome(None, tuple(problems))
    return MistakeOutcome(_write(folder, name, source, cleaned))
