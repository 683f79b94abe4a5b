"""The exercise folders under one directory (``ExerciseCatalog``), each re-read when its files
change and prepared once per version."""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from graders.assignments import COURSE_FILE, AssignmentSchedule, load_schedule
from graders.cases import Variant
from graders.errors import ExerciseError, ExerciseNotFound
from graders.exercises.courses import CourseFolder, course_folders
from graders.exercises.loading import HASHED_SUFFIXES, load_exercise
from graders.exercises.model import Exercise, PreparedExercise, cases_error
from graders.exercises.preparation import prepare_version
from graders.folder_watch import FolderWatch
from graders.sandbox.limits import SandboxLimits

logger = logging.getLogger(__name__)

Stamp = tuple[tuple[str, int, int], ...]
K = TypeVar("K")
V = TypeVar("V")


def folder_stamp(path: Path) -> Stamp:
    """(relative path, mtime, size) of every exercise file: a cheap "has it changed?".

    It must cover the files ``folder_version`` hashes, or an edit would go unseen."""
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
        return (
            self.generation is None
            or other.generation is None
            or self.generation <= other.generation
        )


ScheduleStamp = tuple[Stamp, tuple[str, ...]]
VariantKey = tuple[str, str, tuple[tuple[str, float], ...]]
"""An exercise's id and version and a learner's variant's numbers, sorted by name."""
VARIANTS_KEPT = 256
"""How many learners' variants stay prepared (every version's together): an exercise draws
from a few numbers, so a class shares a handful of variants, each prepared once."""


@dataclass(frozen=True)
class StaleExercise:
    """An exercise whose folder's current files do not load (or prepare), served meanwhile from
    the last version of it that did."""

    exercise_id: str
    served_version: str
    failing_version: str | None
    """The version that does not prepare; ``None``: the folder could not even be read."""
    problem: str

    def describe(self) -> str:
        return (
            f"exercise {self.exercise_id!r}: its folder does not load ({self.problem}); "
            f"graded against its last good version {self.served_version} until it is fixed"
        )


class ExerciseCatalog:
    """Exercise folders under one directory, re-read when a folder's content changes.

    A folder's files are checked (``folder_stamp``) before each use, unless a ``FolderWatch``
    of the root can tell that nothing changed since the last check.
    """

    def __init__(self, root: Path | str, *, sandbox_limits: SandboxLimits | None = None) -> None:
        """``sandbox_limits``: those of the sandbox that runs mined mistakes when an exercise is
        prepared (the service passes its pool's; default: the engine's)."""
        self.root = Path(root).resolve()
        self.sandbox_limits = sandbox_limits
        self._loaded: dict[str, FolderRead[Stamp, Exercise]] = {}
        self._prepared: dict[tuple[str, str], PreparedExercise] = {}
        """The current version of each exercise, prepared. ``prepare_version`` keeps a cache
        too, but it could not serve alone without changing what callers get: it is shared by
        every catalog, keyed by content, keeps the last 64 versions prepared, and hands out a
        new object whenever the ``Exercise`` is not the one it prepared (another catalog's, a
        copy's). This one returns the same object for as long as the version lasts (grading
        caches its plans per object: ``PreparedExercise`` compares by identity), keeps every
        current version however many the process prepares, and drops an old version as soon
        as its successor is prepared."""
        self._preparing: dict[tuple[str, str], threading.Lock] = {}
        """One lock per version being prepared: a second caller waits for the first's work,
        while loading and every other exercise go on (preparing takes up to seconds)."""
        self._stale: dict[str, StaleExercise] = {}
        """The exercises served from their last good version: an edit that breaks a folder
        must not turn every submission into an error while the author fixes it. The last good
        version is the one ``_prepared`` still holds (it is replaced only by a success)."""
        self._variants: OrderedDict[VariantKey, PreparedExercise] = OrderedDict()
        """Learners' variants of the current versions, prepared (``prepare``), the least
        recently used dropped beyond ``VARIANTS_KEPT``."""
        self._preparing_variants: dict[VariantKey, threading.Lock] = {}
        self._schedule: FolderRead[ScheduleStamp, AssignmentSchedule] | None = None
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
        if not _may_be_folder(exercise_id):
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
        try:
            exercise = (
                read.value if read is not None and read.stamp == stamp else load_exercise(path)
            )
        except ExerciseNotFound:
            raise
        except ExerciseError as exc:
            return self._last_good(exercise_id, None, exc).exercise
        fresh = FolderRead(stamp, exercise, generation)
        with self._lock:
            stored = self._loaded.get(exercise_id)
            if stored is None or stored.superseded_by(fresh):
                self._loaded[exercise_id] = fresh
            stale = self._stale.get(exercise_id)
            if stale is not None and stale.failing_version != exercise.version:
                # The folder changed since it failed: a new failure is told when it happens.
                del self._stale[exercise_id]
                logger.info("exercise %s: its folder loads again", exercise_id)
        return exercise

    def _last_good(
        self, exercise_id: str, failing_version: str | None, error: ExerciseError
    ) -> PreparedExercise:
        """The last version of the exercise that prepared, recorded as served in place of the
        failing one; ``error`` again when there is none."""
        with self._lock:
            good = next((v for k, v in self._prepared.items() if k[0] == exercise_id), None)
            if good is None or good.exercise.version == failing_version:
                raise error
            stale = StaleExercise(exercise_id, good.exercise.version, failing_version, str(error))
            if self._stale.get(exercise_id) != stale:
                logger.warning(
                    "exercise %s: serving its last good version %s: %s",
                    exercise_id,
                    good.exercise.version,
                    error,
                )
            self._stale[exercise_id] = stale
            return good

    def served_version(self, exercise: Exercise) -> str:
        """The version a submission to ``exercise`` (as ``load`` returned it) is graded
        against, as far as is known now: the last good one where this version is known not to
        prepare; a version not prepared yet is told only once it is (by the grading's report)."""
        with self._lock:
            stale = self._stale.get(exercise.id)
        if stale is not None and stale.failing_version == exercise.version:
            return stale.served_version
        return exercise.version

    def stale(self) -> list[StaleExercise]:
        """The exercises served from their last good version, by id: noticed when each was
        last loaded or prepared (a page, a submission), not by watching."""
        with self._lock:
            return [self._stale[k] for k in sorted(self._stale)]

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

    def schedule(self) -> AssignmentSchedule:
        """The assignments of ``course.toml``, re-read when it or the exercise list changed.

        Raises ``ScheduleError`` for a broken file: a schedule whose deadlines cannot be read
        must not silently become a schedule without deadlines.
        """
        generation = self._generation()
        with self._lock:
            read = self._schedule
        if read is not None and read.current(generation):
            return read.value
        file = self.root / COURSE_FILE
        stat = file.stat() if file.is_file() else None
        ids = tuple(self.ids())
        files: Stamp = () if stat is None else ((COURSE_FILE, stat.st_mtime_ns, stat.st_size),)
        stamp = (files, ids)
        schedule = (
            read.value
            if read is not None and read.stamp == stamp
            else load_schedule(self.root, ids)
        )
        fresh = FolderRead(stamp, schedule, generation)
        with self._lock:
            if self._schedule is None or self._schedule.superseded_by(fresh):
                self._schedule = fresh
        return schedule

    def courses(self) -> tuple[CourseFolder, ...]:
        """The courses (``_course/``, ``_course-<id>/``) in course order, read anew on each
        call (a few small files). Raises ``CourseError`` for a broken ``about.toml``."""
        return course_folders(self.root)

    def prepared(self, exercise_id: str, variant: Variant | None = None) -> PreparedExercise:
        """The exercise's current version, prepared once per version (and ``variant``)."""
        return self.prepare(self.load(exercise_id), variant)

    def prepare(self, exercise: Exercise, variant: Variant | None = None) -> PreparedExercise:
        """``exercise`` prepared with a learner's ``variant`` (a submission's, as recorded; None
        or empty: the default), once per version and variant. The variant is taken as the
        prepared version takes it (``VariantSpec.completed``); the default one, or one of an
        exercise without variants, is the version's own preparation (``prepare_default``)."""
        default = self.prepare_default(exercise)
        if not variant or default.variants is None:
            return default
        try:
            values = default.variants.completed(variant)
        except ValueError as exc:
            raise cases_error(exercise.id, exc) from exc
        if values == default.variant:
            return default
        key = (exercise.id, default.exercise.version, tuple(sorted(values.items())))
        with self._lock:
            cached = self._variants.get(key)
            if cached is not None:
                self._variants.move_to_end(key)
                return cached
            preparing = self._preparing_variants.setdefault(key, threading.Lock())
        with preparing:
            with self._lock:
                cached = self._variants.get(key)
            if cached is not None:  # prepared by the caller this one waited for
                return cached
            try:
                cached = prepare_version(default.exercise, self.sandbox_limits, values)
            except BaseException:
                with self._lock:
                    self._preparing_variants.pop(key, None)
                raise
            with self._lock:
                for old in [k for k in self._variants if k[0] == key[0] and k[1] != key[1]]:
                    del self._variants[old]
                self._variants[key] = cached
                while len(self._variants) > VARIANTS_KEPT:
                    self._variants.popitem(last=False)
                # Stored before its lock goes: a caller from now on finds it prepared.
                self._preparing_variants.pop(key, None)
            return cached

    def prepare_default(self, exercise: Exercise) -> PreparedExercise:
        """``exercise`` (as ``load`` just returned it) prepared, once per version: for a caller
        that loaded it a moment ago, so the folder is not read again.

        A version that does not prepare (``cases.py`` raises, the reference fails) is replaced
        by the last version that did, if any (``stale`` tells which); it is not tried again."""
        key = (exercise.id, exercise.version)
        with self._lock:
            cached = self._prepared.get(key)
            if cached is not None:
                return cached
            failed = self._stale.get(exercise.id)
            if failed is None or failed.failing_version != exercise.version:
                preparing = self._preparing.setdefault(key, threading.Lock())
        if failed is not None and failed.failing_version == exercise.version:
            return self._last_good(exercise.id, exercise.version, ExerciseError(failed.problem))
        with preparing:
            with self._lock:
                cached = self._prepared.get(key)
            if cached is not None:  # prepared by the caller this one waited for
                return cached
            try:
                cached = prepare_version(exercise, self.sandbox_limits)
            except ExerciseError as exc:
                with self._lock:
                    self._preparing.pop(key, None)
                return self._last_good(exercise.id, exercise.version, exc)
            with self._lock:
                for stale in [k for k in self._prepared if k[0] == exercise.id]:
                    del self._prepared[stale]
                self._prepared[key] = cached
                self._preparing.pop(key, None)
            return cached


NAME_MAX = 255  # bytes in one file name on Linux file systems


def _may_be_folder(exercise_id: str) -> bool:
    """Whether ``exercise_id`` names a folder right under the root: not the root, nothing
    above it, no hidden folder, and a name the file system can take (any id may come from a
    URL, and a longer name makes the system refuse the path instead of not finding it)."""
    try:
        name = exercise_id.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return (
        0 < len(name) <= NAME_MAX
        and b"/" not in name
        and b"\x00" not in name
        and not name.startswith(b".")
    )
