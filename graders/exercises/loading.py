"""Reading an exercise folder (``exercises/<id>/``) into an ``Exercise``: its files checked and
its metadata validated, without running any of the instructor's code."""

from __future__ import annotations

import ast
import functools
import hashlib
import tomllib
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from graders import syntax
from graders.checks.outputs import BatchRule, DtypeRule, OutputSpec
from graders.checks.rules import Rule
from graders.errors import ExerciseError, ExerciseNotFound
from graders.exercises.courses import COURSE_ID
from graders.exercises.model import MINED_FOLDER, Exercise, Limits, Mistake, WarningPolicy
from graders.exercises.translations import read_translations

DIFFICULTIES = ("easy", "medium", "hard")
REQUIRED_FILES = ("exercise.toml", "statement.md", "starter.py", "solution.py", "cases.py")
HASHED_SUFFIXES = (".toml", ".md", ".py")
PARSED_VERSIONS = 256
"""Exercise versions a process keeps parsed: a course's folders and their recent edits."""


def folder_version(path: Path) -> str:
    """A content hash of every exercise file in the folder (not caches or editor files)."""
    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        if "__pycache__" in file.parts or file.suffix not in HASHED_SUFFIXES:
            continue
        digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def load_exercise(path: Path | str) -> Exercise:
    """Read and check an exercise folder's files and metadata.

    A folder whose files hash as one read before in this process is not parsed again (every
    file an ``Exercise`` is made of is in ``folder_version``, and an ``Exercise`` is frozen):
    each catalog a process makes, and each reload after an edit elsewhere in the course,
    would otherwise parse every mistake's file again (a few milliseconds per exercise)."""
    path = Path(path).resolve()
    if not path.is_dir():
        raise ExerciseNotFound(f"{path}: no such exercise folder")
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise ExerciseError(f"{path.name}: missing required file(s): {', '.join(missing)}")
    return _parsed(path, folder_version(path))


@functools.lru_cache(maxsize=PARSED_VERSIONS)
def _parsed(path: Path, version: str) -> Exercise:
    """The exercise in ``path`` whose files hash to ``version``; an error is not kept."""
    meta = _read_metadata(path)
    starter = (path / "starter.py").read_text(encoding="utf-8")
    return Exercise(
        id=meta["id"],
        title=meta["title"],
        difficulty=meta["difficulty"],
        tags=tuple(meta.get("tags", ())),
        entry=meta["entry"] if "entry" in meta else ", ".join(meta["entries"]),
        entries=tuple(meta.get("entries", ())),
        path=path,
        version=version,
        order=int(meta.get("order", 1000)),
        course=meta.get("course"),
        draft=meta.get("draft", False),
        source=meta.get("source"),
        limits=_read_limits(path, meta.get("limits", {})),
        warnings=_read_warning_policy(path, meta.get("checks", {})),
        gradients=_read_gradients(path, meta.get("checks", {})),
        custom_inputs=_read_switch(path, meta.get("checks", {}), "custom_inputs", True),
        unbatched=_read_switch(path, meta.get("checks", {}), "unbatched", False),
        forbid=_read_rules(path, meta.get("rules", {})),
        outputs=_read_outputs(path, meta.get("outputs", [])),
        statements=_read_translations(path, "statement"),
        theories=_read_translations(path, "theory"),
        starter=starter,
        starters=_read_starters(path),
        mistakes=_read_mistakes(path),
        translations=read_translations(path),
    )


def _read_metadata(path: Path) -> dict[str, Any]:
    where = f"{path.name}/exercise.toml"
    try:
        meta = tomllib.loads((path / "exercise.toml").read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ExerciseError(f"{where}: not valid TOML: {exc}") from None
    _check_required_fields(meta, path, where)
    _check_optional_fields(meta, where)
    return meta


def _check_required_fields(meta: dict[str, Any], path: Path, where: str) -> None:
    for key in ("id", "title", "difficulty"):
        if not isinstance(meta.get(key), str) or not meta[key].strip():
            raise ExerciseError(f"{where}: field '{key}' is missing or not a non-empty string")
    if meta["id"] != path.name:
        raise ExerciseError(
            f"{where}: field 'id' is {meta['id']!r} but the folder is "
            f"{path.name!r}; they must match"
        )
    if meta["difficulty"] not in DIFFICULTIES:
        raise ExerciseError(
            f"{where}: field 'difficulty' must be one of {', '.join(DIFFICULTIES)}"
            f", not {meta['difficulty']!r}"
        )
    _check_entries(meta, where)


def _check_entries(meta: dict[str, Any], where: str) -> None:
    """One entry function (``entry``), or the functions and classes a scenario exercise's
    cases call (``entries``)."""
    if ("entry" in meta) == ("entries" in meta):
        raise ExerciseError(
            f"{where}: give either 'entry' (the function the learner writes) or 'entries' "
            "(the functions and classes the scenarios call), not both or neither"
        )
    if "entry" in meta:
        if not isinstance(meta["entry"], str) or not meta["entry"].isidentifier():
            raise ExerciseError(f"{where}: field 'entry' must be a Python function name")
        return
    entries = meta["entries"]
    if (
        not isinstance(entries, list)
        or not entries
        or not all(isinstance(name, str) and name.isidentifier() for name in entries)
        or len(set(entries)) < len(entries)
    ):
        raise ExerciseError(
            f"{where}: field 'entries' must be a list of different Python names, such as "
            '["affine_forward", "affine_backward"] or ["Adam"]'
        )


def _check_optional_fields(meta: dict[str, Any], where: str) -> None:
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ExerciseError(f"{where}: field 'tags' must be a list of strings")
    if "order" in meta and not isinstance(meta["order"], int):
        raise ExerciseError(f"{where}: field 'order' must be an integer")
    if "course" in meta and not (
        isinstance(meta["course"], str) and COURSE_ID.fullmatch(meta["course"])
    ):
        raise ExerciseError(
            f"{where}: field 'course' must be a course id (lower-case letters, digits, dashes)"
        )
    if not isinstance(meta.get("draft", False), bool):
        raise ExerciseError(f"{where}: field 'draft' must be true or false")


def _read_limits(path: Path, table: Any) -> Limits:
    where = f"{path.name}/exercise.toml [limits]"
    if not isinstance(table, dict):
        raise ExerciseError(f"{where}: must be a table")
    unknown = set(table) - {"time_s", "memory_mb"}
    if unknown:
        raise ExerciseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    for key, kinds in (("time_s", (int, float)), ("memory_mb", (int,))):
        if key in table and (not isinstance(table[key], kinds) or isinstance(table[key], bool)):
            raise ExerciseError(f"{where}: field '{key}' must be a number")
    limits = Limits(**table)
    if not 0 < limits.time_s <= 60:
        raise ExerciseError(f"{where}: field 'time_s' must be in (0, 60]")
    if not 128 <= limits.memory_mb <= 8192:
        raise ExerciseError(f"{where}: field 'memory_mb' must be in [128, 8192]")
    return limits


def _read_warning_policy(path: Path, table: Any) -> WarningPolicy:
    where = f"{path.name}/exercise.toml [checks]"
    if not isinstance(table, dict):
        raise ExerciseError(f"{where}: must be a table")
    unknown = set(table) - {"warnings", "gradients", "custom_inputs", "unbatched"}
    if unknown:
        raise ExerciseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    return _choice(where, "warnings", table, WarningPolicy)


def _read_gradients(path: Path, table: dict[str, Any]) -> bool:
    """Whether the exercise asks for exact gradients (``[checks] gradients``); the table was
    checked by ``_read_warning_policy``."""
    gradients = table.get("gradients", False)
    if not isinstance(gradients, bool):
        raise ExerciseError(
            f"{path.name}/exercise.toml [checks]: field 'gradients' must be true or false"
        )
    return gradients


def _read_switch(path: Path, table: dict[str, Any], name: str, default: bool) -> bool:
    """A true-or-false field of ``[checks]`` (``custom_inputs``, on by default: whether
    learners may call the function with their own inputs; ``unbatched``, off by default:
    whether the unbatched form is part of the contract); the table itself is checked by
    ``_read_warning_policy``."""
    value = table.get(name, default)
    if not isinstance(value, bool):
        raise ExerciseError(
            f"{path.name}/exercise.toml [checks]: field {name!r} must be true or false, "
            f"not {value!r}"
        )
    return value


def _read_rules(path: Path, table: Any) -> tuple[Rule, ...]:
    where = f"{path.name}/exercise.toml [rules]"
    if not isinstance(table, dict):
        raise ExerciseError(f"{where}: must be a table")
    unknown = set(table) - {"forbid"}
    if unknown:
        raise ExerciseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    forbid = table.get("forbid", [])
    if not isinstance(forbid, list) or not all(isinstance(text, str) for text in forbid):
        raise ExerciseError(f"{where}: field 'forbid' must be a list of strings")
    try:
        rules = tuple(Rule.parse(text) for text in forbid)
    except ValueError as exc:
        raise ExerciseError(f"{where}: {exc}") from None
    if len(set(rules)) < len(rules):
        raise ExerciseError(f"{where}: field 'forbid' names a rule twice")
    return rules


OUTPUT_FIELDS = frozenset({"name", "batch", "rtol", "atol", "dtype"})


def _read_outputs(path: Path, tables: Any) -> tuple[OutputSpec, ...]:
    where = f"{path.name}/exercise.toml [[outputs]]"
    if not isinstance(tables, list) or not all(isinstance(table, dict) for table in tables):
        raise ExerciseError(f"{where}: must be an array of tables, one per output")
    outputs = tuple(_read_output(f"{where} #{n}", table) for n, table in enumerate(tables, 1))
    names = [output.name for output in outputs]
    if len(set(names)) < len(names):
        raise ExerciseError(f"{where}: two outputs have the same name")
    return outputs


def _read_output(where: str, table: dict[str, Any]) -> OutputSpec:
    unknown = set(table) - OUTPUT_FIELDS
    if unknown:
        raise ExerciseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    name = table.get("name")
    if not isinstance(name, str) or not name.isidentifier():
        raise ExerciseError(f"{where}: field 'name' must be a Python name, such as \"dw\"")
    tolerances = {}
    for key in ("rtol", "atol"):
        value = table.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0
        ):
            raise ExerciseError(f"{where}: field '{key}' must be a number >= 0")
        tolerances[key] = None if value is None else float(value)
    return OutputSpec(
        name,
        _choice(where, "batch", table, BatchRule),
        rtol=tolerances["rtol"],
        atol=tolerances["atol"],
        dtype=_choice(where, "dtype", table, DtypeRule),
    )


Choice = TypeVar("Choice", bound=Enum)


def _choice(where: str, key: str, table: dict[str, Any], kind: type[Choice]) -> Choice:
    """The member of ``kind`` a field names; its first member when the field is absent."""
    choices = [member.value for member in kind]
    value = table.get(key, choices[0])
    if value not in choices:
        raise ExerciseError(
            f"{where}: field '{key}' must be one of {', '.join(choices)}, not {value!r}"
        )
    return kind(value)


def _read_translations(path: Path, stem: str) -> dict[str, str]:
    texts = {}
    for file in sorted(path.glob(f"{stem}*.md")):
        parts = file.name.split(".")
        if len(parts) == 2:
            texts["en"] = file.read_text(encoding="utf-8")
        elif len(parts) == 3:
            texts[parts[1]] = file.read_text(encoding="utf-8")
    return texts


def _read_starters(path: Path) -> dict[str, str]:
    """``starter.<lang>.py``, the starter with its comments and docstrings in that language,
    by language (``starter.py`` is the English one, ``Exercise.starter``)."""
    return {
        file.name.split(".")[1]: file.read_text(encoding="utf-8")
        for file in sorted(path.glob("starter.*.py"))
        if len(file.name.split(".")) == 3
    }


def read_hint(file: Path) -> str | None:
    """The string assigned to ``HINT`` at the top level of a mistake file, without running it:
    the last such assignment, as running the module would leave it. A mined mistake is a
    learner's code followed by the instructor's ``HINT`` (graders/authoring/mined.py): a
    ``HINT`` the learner wrote into their code must not become the hint others read."""
    where = display_path(file)
    try:
        tree = syntax.parse(file.read_text(encoding="utf-8"), filename=where)
    except SyntaxError as exc:
        raise ExerciseError(f"{where}: not valid Python (line {exc.lineno}): {exc.msg}") from None
    for node in reversed(tree.body):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "HINT" for target in node.targets
        ):
            try:
                hint = ast.literal_eval(node.value)
            except ValueError:
                raise ExerciseError(f"{where}: HINT must be a plain string literal") from None
            return hint if isinstance(hint, str) else None
    return None


def _read_mistakes(path: Path) -> tuple[Mistake, ...]:
    folder = path / "mistakes"
    files = [(file, False) for file in sorted(folder.glob("*.py"))]
    files += [(file, True) for file in sorted((folder / MINED_FOLDER).glob("*.py"))]
    mistakes: dict[str, Mistake] = {}
    for file, mined in files:
        where = display_path(file)
        if file.stem in mistakes:
            raise ExerciseError(
                f"{where}: a mistake named {file.stem!r} exists already "
                f"({display_path(mistakes[file.stem].path)}); rename one of them"
            )
        hint = read_hint(file)
        if not isinstance(hint, str) or not hint.strip():
            raise ExerciseError(
                f"{where}: field 'HINT' is missing; "
                'set HINT = "what the learner should reconsider"'
            )
        mistakes[file.stem] = Mistake(name=file.stem, hint=hint.strip(), path=file, mined=mined)
    return tuple(mistakes.values())


def display_path(file: Path) -> str:
    """A file as errors name it: from the exercise folder, e.g. ``gate/mistakes/x.py``."""
    mistakes = next((folder for folder in file.parents if folder.name == "mistakes"), None)
    if mistakes is not None:
        return file.relative_to(mistakes.parent.parent).as_posix()
    return f"{file.parent.name}/{file.name}"
