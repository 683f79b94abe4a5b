"""Running an exercise version's mutants once, in a limited subprocess, cached on disk.

A mutant may loop forever or exhaust memory, so it never runs in the server's process:
:func:`run_mutants` starts ``python -m graders.mutation.runs`` with the exercise's memory limit
(``RLIMIT_AS``) and CPU time limit per mutant, sends it the mutants' sources and the cases'
inputs as one wire frame (graders/sandbox/wire.py, no pickle), and reads back every output (or the
type of the exception raised instead). Besides the cases it runs *probes*: each case's inputs
with noise added to their float arrays. A mutant that no case tells from the reference but a
probe does shows a gap in the cases; one that no probe tells apart either is taken as
equivalent to the reference. A probe of a property case (judged by its checks alone) tells a
mutant apart when the mutant's output fails the case's checks on the probe's inputs where the
reference's passes them: another right answer (a basis with a column's sign flipped) is none.

The result is cached under ``cache_dir`` by the exercise's version and this engine's own
source, so a restart does not run the mutants again.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from graders import syntax
from graders.checks import diagnosis, layout, properties
from graders.checks.compare import Tolerance
from graders.checks.diagnosis import close_rows, exception_name, flatten
from graders.errors import MutantsNotRun
from graders.mutation.mutants import Mutant, make_mutants
from graders.mutation.operators import Operator
from graders.sandbox.cpu_affinity import children_use_every_cpu
from graders.sandbox.scenario import resolve_entry
from graders.sandbox.wire import decode_value, encode_value, pack_frame, recv_frame

logger = logging.getLogger(__name__)

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
PROBE_SEED = 20261130
MAX_FRAME_BYTES = 1 << 30

RightByChecks = Callable[[Mapping[str, Any], Any], bool]
"""Whether an output is right on these inputs by a property case's checks."""


@dataclass(frozen=True)
class MutantRuns:
    """Each mutant's output per case, then per single example (``None``: it raised), the type
    of the exception it raised on each (``None``: it returned, or ran out of memory or time),
    and whether a probe tells it from the reference."""

    outputs: Mapping[str, tuple[Any, ...]]
    raised: Mapping[str, tuple[str | None, ...]]
    probe_differs: Mapping[str, bool]
    failure: str | None = None
    """Why no mutant could be run (then there are none): a mutation score of 0 of 0 would
    otherwise pass for a perfect one. Never cached: the next preparation tries again."""


def engine_stamp() -> str:
    """A digest of the sources that decide the mutants and how their outputs are read."""
    digest = hashlib.sha256()
    # Every module of this package, so that a family added later changes the stamp too.
    package = sorted(Path(__file__).parent.glob("*.py"))
    read = (diagnosis, layout, properties, syntax)
    for module in (*package, *(Path(str(each.__file__)) for each in read)):
        digest.update(module.read_bytes())
    return digest.hexdigest()[:12]


def mutants_of(reference: str, entry: str, cache_file: Path | None) -> tuple[Mutant, ...]:
    """``make_mutants`` of ``reference``, cached as JSON in ``cache_file`` (named, like the
    outputs' cache, by the exercise's version, which covers its reference and entry, and by
    ``engine_stamp``, which covers the code that makes mutants): making them walks and
    rewrites the reference's syntax tree once per node, a third of a second of an author's
    ``numjudge grade`` whose mutants' outputs the cache already holds."""
    if cache_file is not None:
        try:
            return tuple(
                Mutant(key, Operator(operator), line, column, meaning, source)
                for key, operator, line, column, meaning, source in json.loads(
                    cache_file.read_text(encoding="utf-8")
                )
            )
        except (OSError, ValueError, TypeError):
            pass  # none yet, or not one this engine wrote: made again below
    mutants = tuple(make_mutants(reference, entry))
    if cache_file is not None:
        rows = [[m.key, m.operator.value, m.line, m.column, m.meaning, m.source] for m in mutants]
        _write_atomically(cache_file, json.dumps(rows).encode())
    return mutants


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "numjudge" / "mutants"


def probes(inputs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each case's inputs with noise on every float array, in lists, tuples and dicts too
    (the same noise on every run)."""
    rng = np.random.default_rng(PROBE_SEED)
    return [{name: noisy(value, rng) for name, value in case.items()} for case in inputs]


def noisy(value: Any, rng: np.random.Generator) -> Any:
    if isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size:
        finite = value[np.isfinite(value)]  # a case of infinities keeps them, noise or not
        scale = (float(np.std(finite)) if finite.size else 0.0) or 1.0
        return value + 0.5 * scale * rng.standard_normal(value.shape)
    if isinstance(value, list | tuple):
        return type(value)(noisy(item, rng) for item in value)
    if isinstance(value, dict):
        return {key: noisy(item, rng) for key, item in value.items()}
    return value


def run_mutants(
    *,
    reference: str,
    sources: Sequence[str],
    entry: str,
    inputs: Sequence[Mapping[str, Any]],
    tolerances: Sequence[Tolerance],
    time_s: float,
    memory_mb: int,
    keys: Sequence[str],
    cache_file: Path | None,
    checks: Sequence[RightByChecks | None] = (),
    singles: Sequence[Mapping[str, Any]] = (),
) -> MutantRuns:
    """Every mutant's outputs on ``inputs`` (and its probes), from the cache when it has them.

    ``checks`` judges the probes of each property case (``None``, or none given: a case
    compared by value within its tolerance). ``singles`` are further inputs without probes
    (the single examples of batched cases), whose outputs follow the cases' in each row."""
    if cache_file is not None and cache_file.is_file():
        cached = read_cache(cache_file, keys)
        if cached is not None:
            return cached
    probe_inputs = probes(inputs)
    try:
        rows, exceptions = run_in_subprocess(
            [reference, *sources], entry, [*inputs, *singles, *probe_inputs], time_s, memory_mb
        )
    except MutantsNotRun as exc:
        logger.warning("%s", exc)
        return MutantRuns({}, {}, {}, failure=str(exc))
    count = len(inputs) + len(singles)
    reference_probes = rows[0][count:]
    judges = list(checks) or [None] * len(inputs)
    outputs, raised, differs = {}, {}, {}
    for key, row, row_raised in zip(keys, rows[1:], exceptions[1:], strict=True):
        outputs[key] = tuple(row[:count])
        raised[key] = tuple(row_raised[:count])
        differs[key] = any(
            told_apart(*probe)
            for probe in zip(
                probe_inputs, reference_probes, row[count:], tolerances, judges, strict=True
            )
        )
    runs = MutantRuns(outputs, raised, differs)
    if cache_file is not None:
        write_cache(cache_file, runs)
    return runs


def told_apart(
    inputs: Mapping[str, Any],
    reference: Any,
    got: Any,
    tolerance: Tolerance,
    right: RightByChecks | None,
) -> bool:
    """Whether a mutant's output ``got`` on a probe (``None``: it raised) tells it from the
    reference's: by value, or by ``right``, the checks of a property case."""
    if right is None:
        return not same(reference, got, tolerance)
    return (
        reference is not None
        and right(inputs, reference)
        and (got is None or not right(inputs, got))
    )


def same(a: Any, b: Any, tolerance: Tolerance) -> bool:
    if a is None or b is None:
        return a is None and b is None
    first, second = flatten(a), flatten(b)
    if first is None or second is None or first[0] != second[0]:
        return False
    return bool(close_rows(first[1][None, :], second[1], tolerance)[0])


def run_in_subprocess(
    sources: Sequence[str],
    entry: str,
    inputs: Sequence[Mapping[str, Any]],
    time_s: float,
    memory_mb: int,
) -> tuple[list[list[Any]], list[list[str | None]]]:
    """Per source, its output on every input and the type of the exception it raised.

    Raises ``MutantsNotRun`` naming the cause and the fix when the subprocess fails."""
    buffers: list[bytes | memoryview] = []
    header = {
        "entry": entry,
        "time_s": time_s,
        "memory_mb": memory_mb,
        "sources": list(sources),
        "inputs": [encode_value(tuple(case.values()), buffers) for case in inputs],
    }
    request = b"".join(bytes(piece) for piece in pack_frame(header, buffers))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": PACKAGE_ROOT,
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    budget = time_s * len(sources) + 30
    try:
        with children_use_every_cpu():
            done = subprocess.run(
                [sys.executable, "-m", "graders.mutation.runs"],
                input=request,
                capture_output=True,
                timeout=budget,
                env=env,
                check=True,
            )
    except subprocess.TimeoutExpired:
        raise MutantsNotRun(
            f"the mutants could not be run: they took longer than {budget:g} s "
            f"in all ({time_s:g} s per mutant from [limits] time_s, plus 30 s); "
            "make the largest cases smaller or raise time_s in exercise.toml"
        ) from None
    except subprocess.CalledProcessError as exc:
        raise MutantsNotRun(_failed_run(exc, memory_mb)) from None
    except OSError as exc:
        raise MutantsNotRun(f"the mutants could not be run: {exc}") from None
    reply, reply_buffers = recv_frame(io.BytesIO(done.stdout), [MAX_FRAME_BYTES])
    return (
        [
            [None if node is None else decode_value(node, reply_buffers) for node in row]
            for row in reply["outputs"]
        ],
        reply["raised"],
    )


def _failed_run(exc: subprocess.CalledProcessError, memory_mb: int) -> str:
    """The cause told by the subprocess's last line of error output, and the fix for it."""
    lines = bytes(exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
    last = lines[-1] if lines else f"exit status {exc.returncode}"
    if "MemoryError" in last:
        # Every case's inputs, their noisy probes, the single examples and every mutant's outputs
        # are held at once.
        return (
            f"the mutants could not be run: they ran out of memory ({last}) within "
            f"[limits] memory_mb = {memory_mb}, which holds every case's inputs twice "
            "(with their probes), the batched cases' single examples and every mutant's "
            "outputs on them; make the largest cases smaller or raise memory_mb in "
            "exercise.toml"
        )
    return (
        f"the mutants could not be run: their process ended with exit status "
        f"{exc.returncode} ({last})"
    )


def read_cache(path: Path, keys: Sequence[str]) -> MutantRuns | None:
    try:
        with path.open("rb") as file:
            header, buffers = recv_frame(file, [MAX_FRAME_BYTES])
    except (OSError, EOFError, ValueError):
        return None
    if header.get("keys") != list(keys):
        return None
    outputs = {
        key: tuple(None if node is None else decode_value(node, buffers) for node in row)
        for key, row in zip(keys, header["outputs"], strict=True)
    }
    raised = {key: tuple(row) for key, row in zip(keys, header["raised"], strict=True)}
    return MutantRuns(outputs, raised, dict(zip(keys, header["probe_differs"], strict=True)))


def write_cache(path: Path, runs: MutantRuns) -> None:
    buffers: list[bytes | memoryview] = []
    keys = list(runs.outputs)
    header = {
        "keys": keys,
        "probe_differs": [runs.probe_differs[k] for k in keys],
        "outputs": [
            [None if v is None else encode_value(v, buffers) for v in runs.outputs[k]] for k in keys
        ],
        "raised": [list(runs.raised[k]) for k in keys],
    }
    _write_atomically(path, b"".join(bytes(p) for p in pack_frame(header, buffers)))


def _write_atomically(path: Path, content: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(content)
        partial.replace(path)  # atomic: a reader sees the whole file or none
    except OSError as exc:
        logger.warning("mutants not cached in %s: %s", path, exc)


# --- the subprocess ----------------------------------------------------------------------


class MutantTimeout(Exception):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise MutantTimeout


def _outputs(
    source: str, entry: str, inputs: Sequence[tuple[Any, ...]], time_s: float
) -> tuple[list[Any], list[str | None]]:
    results: list[Any] = [None] * len(inputs)
    raised: list[str | None] = [None] * len(inputs)
    # CPU time, not the wall clock: what a mutant gives must not depend on how busy the host
    # is (a run cut short on a loaded machine would be cached as the version's for good).
    signal.setitimer(signal.ITIMER_PROF, time_s)
    try:
        namespace: dict[str, Any] = {"__name__": "numjudge_mutant"}
        exec(compile(source, "<mutant>", "exec"), namespace)
        function = resolve_entry(namespace, entry)
        for position, arguments in enumerate(inputs):
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    results[position] = function(*copy.deepcopy(arguments))
            except MutantTimeout:
                raise
            except Exception as exc:  # a mutant that raises is told apart by raising
                raised[position] = exception_name(exc)
    except (MutantTimeout, MemoryError, Exception):
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return results, raised


def main() -> None:
    header, buffers = recv_frame(sys.stdin.buffer, [MAX_FRAME_BYTES])
    inputs = [decode_value(node, buffers, functions=True) for node in header["inputs"]]
    limit = int(header["memory_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGPROF, _on_alarm)
    out: list[bytes | memoryview] = []
    rows, exceptions = [], []
    for source in header["sources"]:
        row = []
        values, raised = _outputs(source, header["entry"], inputs, float(header["time_s"]))
        for value in values:
            node = None if value is None else encode_value(value, out)
            row.append(None if node is None or node.get("t") == "foreign" else node)
        rows.append(row)
        exceptions.append(raised)
    for piece in pack_frame({"outputs": rows, "raised": exceptions}, out):
        sys.stdout.buffer.write(bytes(piece))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
