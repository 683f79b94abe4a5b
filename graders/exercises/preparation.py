"""Loading exercise folders (``exercises/<id>/``) on the trusted side.

``load_exercise(path)`` reads and validates the folder's files. ``prepare(exercise)`` runs
``cases.py``, then the reference solution and every known mistake on the generated inputs,
and caches the result by the folder's content hash: an edited folder is a new version.
"""

from __future__ import annotations

import copy
import runpy
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from graders.cases import CaseSpec, collect_cases
from graders.checks.arrays import Tolerance, compare
from graders.diagnosis import Candidate, CaseTable, exception_name
from graders.errors import ExerciseError
from graders.exercises.loading import display_path
from graders.exercises.model import (
    Exercise,
    PreparedCase,
    PreparedExercise,
)
from graders.mutant_runs import default_cache_dir, engine_stamp, run_mutants
from graders.mutants import make_mutants
from graders.results import DiagnosisSource


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
    known mistakes' here, the mutants' in a limited subprocess (graders/mutant_runs.py),
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
    A catalog keeps its current versions in front of this cache (why both: the docstring of
    ``ExerciseCatalog._prepared``).
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
