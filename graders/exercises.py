"""Loading exercise folders (``exercises/<id>/``) on the trusted side.

``load_exercise(path)`` reads and validates the folder's files. ``prepare(exercise)`` runs
``cases.py``, then the reference solution and every known mistake on the generated inputs,
and caches the result by the folder's content hash: an edited folder is a new version.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import logging
import os
import runpy
import threading
import tomllib
import warnings
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import numpy as np

from graders import syntax
from graders.cases import CaseSpec, collect_cases
from graders.checks.compare import Tolerance, compare
from graders.checks.diagnosis import Candidate, CaseTable, exception_name
from graders.course import COURSE_FILE, Course, load_course
from graders.errors import ExerciseError, ExerciseNotFound
from graders.folder_watch import FolderWatch
from graders.mutation.mutants import Mutant, make_mutants
from graders.mutation.runs import default_cache_dir, engine_stamp, run_mutants
from graders.results import DiagnosisSource

logger = logging.getLogger(__name__)

DIFFICULTIES = ("easy", "medium", "hard")
REQUIRED_FILES = ("exercise.toml", "statement.md", "starter.py", "solution.py", "cases.py")
HASHED_SUFFIXES = (".toml", ".md", ".py")


@dataclass(frozen=True)
class Limits:
    time_s: float = 5.0
    memory_mb: int = 512


class WarningPolicy(Enum):
    """What a warning raised by the entry function does to its test (``[checks] warnings`` in
    exercise.toml). Warnings the code silences (``np.errstate``, a warnings filter) are none."""

    NOTE = "note"
    """Added to a public test's message, never costing points: the default."""
    FAIL = "fail"
    """Fails a test whose output was right, public or hidden, with the category ``warning``:
    for an exercise whose statement asks for warning-free results."""


@dataclass(frozen=True)
class Mistake:
    name: str
    hint: str
    path: Path


@dataclass(frozen=True)
class Exercise:
    """An exercise folder as read from disk; no instructor code has run yet."""

    id: str
    title: str
    difficulty: str
    tags: tuple[str, ...]
    entry: str
    path: Path
    version: str
    order: int = 1000
    draft: bool = False
    source: str | None = None
    limits: Limits = field(default_factory=Limits)
    warnings: WarningPolicy = WarningPolicy.NOTE
    statements: Mapping[str, str] = field(default_factory=dict)
    theories: Mapping[str, str] = field(default_factory=dict)
    starter: str = ""
    mistakes: tuple[Mistake, ...] = ()

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(sorted(self.statements, key=lambda lang: (lang != "en", lang)))


@dataclass(frozen=True)
class PreparedCase:
    """A case with its generated inputs and the trusted outputs computed from them."""

    spec: CaseSpec
    inputs: Mapping[str, Any]
    expected: Any
    outputs: Mapping[str, Any]
    """The output of each candidate (known mistake or mutant) that returned on this case."""
    table: CaseTable
    """The candidates' outputs and exceptions arranged for matching."""
    slice_inputs: tuple[Mapping[str, Any], ...] = ()

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per version
class PreparedExercise:
    exercise: Exercise
    cases: tuple[PreparedCase, ...]
    candidates: Mapping[str, Candidate] = field(default_factory=dict)
    mutants: tuple[Mutant, ...] = ()
    probe_differs: Mapping[str, bool] = field(default_factory=dict)
    """Whether noisy copies of the cases' inputs tell each mutant from the reference."""

    @property
    def public_cases(self) -> tuple[PreparedCase, ...]:
        return tuple(c for c in self.cases if c.spec.public)


Stamp = tuple[tuple[str, int, int], ...]
K = TypeVar("K")
V = TypeVar("V")


def folder_stamp(path: Path) -> Stamp:
    """(relative path, mtime, size) of every exercise file: a cheap "has it changed?"."""
    entries = []
    prefix = len(str(path)) + 1
    for directory, subdirectories, files in os.walk(path):
        subdirectories[:] = [d for d in subdirectories if d != "__pycache__"]
        for name in files:
            if name.endswith(HASHED_SUFFIXES):
                file = os.path.join(directory, name)
                stat = os.stat(file)
                entries.append((file[prefix:], stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(entries))


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
    """Read and check an exercise folder's files and metadata."""
    path = Path(path).resolve()
    if not path.is_dir():
        raise ExerciseNotFound(f"{path}: no such exercise folder")
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise ExerciseError(f"{path.name}: missing required file(s): {', '.join(missing)}")
    meta = _read_metadata(path)
    starter = (path / "starter.py").read_text(encoding="utf-8")
    return Exercise(
        id=meta["id"],
        title=meta["title"],
        difficulty=meta["difficulty"],
        tags=tuple(meta.get("tags", ())),
        entry=meta["entry"],
        path=path,
        version=folder_version(path),
        order=int(meta.get("order", 1000)),
        draft=meta.get("draft", False),
        source=meta.get("source"),
        limits=_read_limits(path, meta.get("limits", {})),
        warnings=_read_warning_policy(path, meta.get("checks", {})),
        statements=_read_translations(path, "statement"),
        theories=_read_translations(path, "theory"),
        starter=starter,
        mistakes=_read_mistakes(path),
    )


def _read_metadata(path: Path) -> dict[str, Any]:
    where = f"{path.name}/exercise.toml"
    try:
        meta = tomllib.loads((path / "exercise.toml").read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ExerciseError(f"{where}: not valid TOML: {exc}") from None
    for key in ("id", "title", "difficulty", "entry"):
        if not isinstance(meta.get(key), str) or not meta[key].strip():
            raise ExerciseError(f"{where}: field '{key}' is missing or not a non-empty string")
    if meta["id"] != path.name:
        raise ExerciseError(f"{where}: field 'id' is {meta['id']!r} but the folder is "
                            f"{path.name!r}; they must match")
    if meta["difficulty"] not in DIFFICULTIES:
        raise ExerciseError(f"{where}: field 'difficulty' must be one of {', '.join(DIFFICULTIES)}"
                            f", not {meta['difficulty']!r}")
    if not meta["entry"].isidentifier():
        raise ExerciseError(f"{where}: field 'entry' must be a Python function name")
    tags = meta.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ExerciseError(f"{where}: field 'tags' must be a list of strings")
    if "order" in meta and not isinstance(meta["order"], int):
        raise ExerciseError(f"{where}: field 'order' must be an integer")
    if not isinstance(meta.get("draft", False), bool):
        raise ExerciseError(f"{where}: field 'draft' must be true or false")
    return meta


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
    unknown = set(table) - {"warnings"}
    if unknown:
        raise ExerciseError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    choices = [policy.value for policy in WarningPolicy]
    value = table.get("warnings", WarningPolicy.NOTE.value)
    if value not in choices:
        raise ExerciseError(f"{where}: field 'warnings' must be one of {', '.join(choices)}, "
                            f"not {value!r}")
    return WarningPolicy(value)


def _read_translations(path: Path, stem: str) -> dict[str, str]:
    texts = {}
    for file in sorted(path.glob(f"{stem}*.md")):
        parts = file.name.split(".")
        if len(parts) == 2:
            texts["en"] = file.read_text(encoding="utf-8")
        elif len(parts) == 3:
            texts[parts[1]] = file.read_text(encoding="utf-8")
    return texts


def read_hint(file: Path) -> str | None:
    """The string assigned to ``HINT`` at the top level of a mistake file, without running it."""
    where = display_path(file)
    try:
        tree = syntax.parse(file.read_text(encoding="utf-8"), filename=where)
    except SyntaxError as exc:
        raise ExerciseError(f"{where}: not valid Python (line {exc.lineno}): {exc.msg}") from None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "HINT" for target in node.targets):
            try:
                hint = ast.literal_eval(node.value)
            except ValueError:
                raise ExerciseError(f"{where}: HINT must be a plain string literal") from None
            return hint if isinstance(hint, str) else None
    return None


def _read_mistakes(path: Path) -> tuple[Mistake, ...]:
    mistakes = []
    for file in sorted((path / "mistakes").glob("*.py")):
        hint = read_hint(file)
        if not isinstance(hint, str) or not hint.strip():
            raise ExerciseError(f"{path.name}/mistakes/{file.name}: field 'HINT' is missing; "
                                "set HINT = \"what the learner should reconsider\"")
        mistakes.append(Mistake(name=file.stem, hint=hint.strip(), path=file))
    return tuple(mistakes)


def display_path(file: Path) -> str:
    """A file as errors name it: from the exercise folder, e.g. ``gate/mistakes/x.py``."""
    if file.parent.name == "mistakes":
        return f"{file.parent.parent.name}/mistakes/{file.name}"
    return f"{file.parent.name}/{file.name}"


def _run_file(file: Path) -> dict[str, Any]:
    where = display_path(file)
    try:
        return runpy.run_path(str(file), run_name=f"numjudge_{file.stem}")
    except Exception as exc:
        raise ExerciseError(f"{where}: raised {type(exc).__name__}: {exc}") from exc


def entry_function(file: Path, entry: str) -> Callable[..., Any]:
    """Run an instructor file and return its entry function, or say clearly why not."""
    function = _run_file(file).get(entry)
    if not callable(function):
        raise ExerciseError(f"{display_path(file)}: does not define the entry "
                            f"function '{entry}' named in exercise.toml")
    return cast(Callable[..., Any], function)


def _call(function: Callable[..., Any], inputs: Mapping[str, Any]) -> Any:
    # Known mistakes overflow on purpose; their warnings are not the author's concern here.
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return function(*copy.deepcopy(list(inputs.values())))


def _slices(spec: CaseSpec, inputs: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    if not spec.batched:
        return ()
    sizes = {inputs[name].shape[axis] for name, axis in spec.batch_axes.items()}
    if len(sizes) != 1:
        raise ExerciseError(f"case {spec.name!r}: batched inputs disagree on the batch size")
    (size,) = sizes
    return tuple(
        {name: (value.take(i, axis=spec.batch_axes[name]) if name in spec.batch_axes else value)
         for name, value in inputs.items()}
        for i in range(size)
    )


def prepare_exercise(exercise: Exercise, *, mutant_cache: Path | None = None
                     ) -> PreparedExercise:
    """Generate every case's inputs and compute the trusted outputs: the reference's and the
    known mistakes' here, the mutants' in a limited subprocess (graders/mutation/runs.py),
    cached under ``mutant_cache`` (default: the user's cache folder)."""
    where = f"{exercise.id}/cases.py"
    specs = collect_cases(lambda: _run_file(exercise.path / "cases.py"))
    if not specs:
        raise ExerciseError(f"{where}: declares no cases; decorate input makers with @case")
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ExerciseError(f"{where}: case names must be unique")
    if not any(s.public for s in specs):
        raise ExerciseError(f"{where}: needs at least one public case (public=True)")
    solution = entry_function(exercise.path / "solution.py", exercise.entry)
    mistakes = {m.name: entry_function(m.path, exercise.entry) for m in exercise.mistakes}
    made = []
    for spec in specs:
        try:
            inputs = dict(spec.make_inputs(np.random.default_rng(spec.rng_seed)))
        except Exception as exc:
            raise ExerciseError(f"{where}: case {spec.name!r} raised "
                                f"{type(exc).__name__}: {exc}") from exc
        unknown = set(spec.batch_axes) - set(inputs)
        if unknown:
            raise ExerciseError(f"{where}: case {spec.name!r}: batch_axes names unknown "
                                f"input(s) {', '.join(sorted(unknown))}")
        try:
            expected = _call(solution, inputs)
        except Exception as exc:
            raise ExerciseError(f"{exercise.id}/solution.py: raised {type(exc).__name__} on "
                                f"case {spec.name!r}: {exc}") from exc
        outputs, raised = {}, {}
        for name, function in mistakes.items():
            try:
                outputs[name] = _call(function, inputs)
            except Exception as exc:
                exception = exception_name(exc)
                if exception is not None:
                    raised[name] = exception
        made.append((spec, inputs, expected, outputs, raised))
    candidates = {m.name: Candidate(m.name, m.hint, DiagnosisSource.MISTAKE)
                  for m in exercise.mistakes}
    reference = (exercise.path / "solution.py").read_text(encoding="utf-8")
    mutants = tuple(make_mutants(reference, exercise.entry))
    cache = (mutant_cache or default_cache_dir()) / \
        f"{exercise.id}-{exercise.version}-{engine_stamp()}.frame"
    runs = run_mutants(reference=reference, sources=[m.source for m in mutants],
                       entry=exercise.entry, inputs=[inputs for _, inputs, *_ in made],
                       tolerances=[Tolerance(s.rtol, s.atol) for s, *_ in made],
                       time_s=exercise.limits.time_s, memory_mb=exercise.limits.memory_mb,
                       keys=[m.key for m in mutants], cache_file=cache)
    mutants = tuple(m for m in mutants if m.key in runs.outputs)
    for mutant in mutants:
        candidates[mutant.key] = Candidate(mutant.key, mutant.meaning, DiagnosisSource.MUTANT)
    prepared = []
    for position, (spec, inputs, expected, outputs, raised) in enumerate(made):
        for mutant in mutants:
            value = runs.outputs[mutant.key][position]
            if value is not None:
                outputs[mutant.key] = value
            exception = runs.raised[mutant.key][position]
            if exception is not None:
                raised[mutant.key] = exception
        prepared.append(prepared_case(spec, inputs, expected, outputs, set(candidates),
                                      _slices(spec, inputs), raised))
    return PreparedExercise(exercise, tuple(prepared), candidates, mutants,
                            runs.probe_differs)


def prepared_case(spec: CaseSpec, inputs: Mapping[str, Any], expected: Any,
                  outputs: Mapping[str, Any], candidates: set[str],
                  slice_inputs: tuple[Mapping[str, Any], ...] = (),
                  raised: Mapping[str, str] | None = None) -> PreparedCase:
    """A case with its candidates' outputs arranged for matching (absent: it raised, of the
    type in ``raised`` when known)."""
    tolerance = Tolerance(spec.rtol, spec.atol)
    batch_axis = spec.output_batch_axis if spec.batched else None
    wrong = frozenset(key for key in candidates if key not in outputs
                      or not compare(expected, outputs[key], tolerance, batch_axis).passed)
    table = CaseTable.build(expected, outputs, wrong, tolerance, raised)
    return PreparedCase(spec, inputs, expected, outputs, table, slice_inputs)


_PREPARED_CONTENT: OrderedDict[tuple[str, str, str], PreparedExercise] = OrderedDict()
_PREPARED_CONTENT_SIZE = 64
_prepared_content_lock = threading.Lock()


def prepare_version(exercise: Exercise) -> PreparedExercise:
    """``prepare_exercise``, once per exercise version in this process.

    Everything prepared follows from the folder's content, which the version hashes: the same
    version in another catalog (a copy of the folder) is not prepared again. The known
    mistakes run here on every case, which takes seconds in the exercises with long sequences.
    """
    key = (exercise.id, exercise.version, engine_stamp())
    with _prepared_content_lock:
        known = _PREPARED_CONTENT.get(key)
    if known is None:
        known = prepare_exercise(exercise)
        with _prepared_content_lock:
            _PREPARED_CONTENT[key] = known
            while len(_PREPARED_CONTENT) > _PREPARED_CONTENT_SIZE:
                _PREPARED_CONTENT.popitem(last=False)
    return known if known.exercise is exercise else replace(known, exercise=exercise)


@dataclass(frozen=True)
class CatalogSurvey:
    """A catalog's folders: the exercises that load, and the problem of each one that does not."""

    exercises: list[Exercise]
    broken: dict[str, str]


@dataclass(frozen=True)
class FolderRead(Generic[K, V]):
    """What was read from the files, and how they looked then."""

    stamp: K
    value: V
    generation: int | None
    """The folder watch's count of changes when the files were read (None: no watch)."""

    def current(self, generation: int | None) -> bool:
        """Whether nothing changed since: the watch's count has not moved."""
        return generation is not None and self.generation == generation

    def superseded_by(self, other: FolderRead[K, V]) -> bool:
        """Whether ``other`` may replace this read: a thread that read before a change must
        not overwrite what a thread read after it."""
        return (self.generation is None or other.generation is None
                or self.generation <= other.generation)


CourseStamp = tuple[Stamp, tuple[str, ...]]


class ExerciseCatalog:
    """Exercise folders under one directory, re-read when a folder's content changes.

    A folder's files are checked (``folder_stamp``) before each use, unless a ``FolderWatch``
    of the root can tell that nothing changed since the last check.
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self._loaded: dict[str, FolderRead[Stamp, Exercise]] = {}
        self._prepared: dict[tuple[str, str], PreparedExercise] = {}
        self._preparing: dict[tuple[str, str], threading.Lock] = {}
        """One lock per version being prepared: a second caller waits for the first's work,
        while loading and every other exercise go on (preparing takes up to seconds)."""
        self._course: FolderRead[CourseStamp, Course] | None = None
        self._lock = threading.Lock()
        self._watch = FolderWatch.start(self.root) if self.root.is_dir() else None

    def _generation(self) -> int | None:
        return self._watch.generation() if self._watch is not None else None

    def ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if (p / "exercise.toml").is_file())

    def load(self, exercise_id: str) -> Exercise:
        """The exercise as on disk now; re-read only when a file's size or mtime changed."""
        if not exercise_id or "/" in exercise_id or exercise_id.startswith("."):
            raise ExerciseNotFound(f"Exercise {exercise_id!r} not found")
        generation = self._generation()
        with self._lock:
            read = self._loaded.get(exercise_id)
        if read is not None and read.current(generation):
            return read.value
        path = self.root / exercise_id
        if not (path / "exercise.toml").is_file():
            raise ExerciseNotFound(f"Exercise {exercise_id!r} not found")
        stamp = folder_stamp(path)
        exercise = read.value if read is not None and read.stamp == stamp else load_exercise(path)
        fresh = FolderRead(stamp, exercise, generation)
        with self._lock:
            stored = self._loaded.get(exercise_id)
            if stored is None or stored.superseded_by(fresh):
                self._loaded[exercise_id] = fresh
        return exercise

    def survey(self) -> CatalogSurvey:
        """Every loadable exercise in course order, and why each other folder is broken."""
        exercises: list[Exercise] = []
        broken: dict[str, str] = {}
        for exercise_id in self.ids():
            try:
                exercises.append(self.load(exercise_id))
            except ExerciseError as exc:
                logger.warning("skipping exercise folder %s: %s", exercise_id, exc)
                broken[exercise_id] = str(exc)
        exercises.sort(key=lambda e: (e.order, e.id))
        return CatalogSurvey(exercises, broken)

    def all(self) -> list[Exercise]:
        """Every loadable exercise, in course order; a broken folder is logged and skipped."""
        return self.survey().exercises

    def course(self) -> Course:
        """The assignments of ``course.toml``, re-read when it or the exercise list changed.

        Raises ``CourseError`` for a broken file: a course whose deadlines cannot be read must
        not silently become a course without deadlines.
        """
        generation = self._generation()
        with self._lock:
            read = self._course
        if read is not None and read.current(generation):
            return read.value
        file = self.root / COURSE_FILE
        stat = file.stat() if file.is_file() else None
        ids = tuple(self.ids())
        files: Stamp = () if stat is None else ((COURSE_FILE, stat.st_mtime_ns, stat.st_size),)
        stamp = (files, ids)
        course = read.value if read is not None and read.stamp == stamp else \
            load_course(self.root, ids)
        fresh = FolderRead(stamp, course, generation)
        with self._lock:
            if self._course is None or self._course.superseded_by(fresh):
                self._course = fresh
        return course

    def prepared(self, exercise_id: str) -> PreparedExercise:
        """The exercise's current version, prepared once per version."""
        return self.prepare(self.load(exercise_id))

    def prepare(self, exercise: Exercise) -> PreparedExercise:
        """``exercise`` (as ``load`` just returned it) prepared, once per version: for a caller
        that loaded it a moment ago, so the folder is not read again."""
        key = (exercise.id, exercise.version)
        with self._lock:
            cached = self._prepared.get(key)
            if cached is not None:
                return cached
            preparing = self._preparing.setdefault(key, threading.Lock())
        with preparing:
            with self._lock:
                cached = self._prepared.get(key)
            if cached is not None:  # prepared by the caller this one waited for
                return cached
            cached = prepare_version(exercise)
            with self._lock:
                for stale in [k for k in self._prepared if k[0] == exercise.id]:
                    del self._prepared[stale]
                self._prepared[key] = cached
                del self._preparing[key]
            return cached
