"""What is graded is what ran: the code to send, run on its own in a fresh process (as the
sandbox runs it), must compute what the learner's function computes in the kernel on the
exercise's public inputs; else nothing is sent and ``NotWhatRan`` says which value differs and
what to do.

The kernel's function is called here, on copies of the inputs, with its printing hidden and
numpy's global random state put back afterwards. The fresh process starts in an empty folder
(files beside the notebook are not there, as they are not in the sandbox) and reports, besides
each case's outcome, the value each name the code binds at its top level has there, so that a
difference is named by the variable that holds it (``OFFSET``), not only by the case.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import math
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from numjudge_client._errors import NotWhatRan
from numjudge_client._inputs import PublicCase
from numjudge_client._language import Language, say
from numjudge_client._sent import SentCode

FRESH_PROCESS_TIMEOUT_S = 120.0

# Runs in the fresh process: argv[1] holds the job, argv[2] receives the report (pickles of
# the kernel's own making, read back by it alone).
CHILD = r"""
import pickle, sys

def outcome(call):
    try:
        value = call()
    except BaseException as exc:
        return ("raised", f"{type(exc).__name__}: {exc}")
    try:
        pickle.dumps(value)
    except Exception:
        return ("unreadable", repr(value)[:200])
    return ("value", value)

with open(sys.argv[1], "rb") as file:
    job = pickle.load(file)
namespace = {"__name__": "submission"}
report = {"loaded": outcome(lambda: exec(compile(job["code"], "submission.py", "exec"), namespace))}
if report["loaded"][0] == "value":
    report["names"] = {
        name: outcome(lambda name=name: namespace[name]) for name in job["names"]
    }
    entry = namespace.get(job["entry"])
    report["cases"] = [outcome(lambda inputs=inputs: entry(**inputs)) for inputs in job["cases"]]
with open(sys.argv[2], "wb") as file:
    pickle.dump(report, file)
"""


class OutcomeKind(Enum):
    VALUE = "value"
    RAISED = "raised"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Outcome:
    """A call's result: its value, the exception it raised (as text), or a value that cannot
    leave its process (its repr)."""

    kind: OutcomeKind
    value: Any

    @classmethod
    def of(cls, pair: tuple[str, Any]) -> Outcome:
        return cls(OutcomeKind(pair[0]), pair[1])

    def describe(self, language: Language = Language.EN) -> str:
        if self.kind is OutcomeKind.RAISED:
            return say("raised {error}", language, error=self.value)
        if self.kind is OutcomeKind.VALUE:
            return describe(self.value, language)
        return str(self.value)


def check(
    sent: SentCode,
    entry: str,
    function: Callable[..., Any],
    namespace: Mapping[str, Any],
    cases: Sequence[PublicCase],
    language: Language = Language.EN,
) -> None:
    """Raises ``NotWhatRan`` (in ``language``) unless ``sent`` run on its own gives what
    ``function`` gives here."""
    if not cases:
        return
    kernel = [_call_in_kernel(function, case) for case in cases]
    again = [_call_in_kernel(function, case) for case in cases]
    for case, first, second in zip(cases, kernel, again, strict=True):
        if not same(first, second):
            raise NotWhatRan(
                say(
                    "Nothing was sent: {entry} gives different results on two calls with the "
                    "inputs of the public case {case!r} ({first}, then {second}), so what the "
                    "grader computes cannot be checked. Make it depend on its arguments only (a "
                    "random generator seeded inside it, or passed in).",
                    language,
                    entry=entry,
                    case=case.name,
                    first=first.describe(language),
                    second=second.describe(language),
                )
            )
    names = [name for name in bound_names(sent.code) if is_data(namespace.get(name, _MISSING))]
    report = _run_fresh(sent.code, entry, [case.inputs for case in cases], names, language)
    loaded = Outcome.of(report["loaded"])
    if loaded.kind is not OutcomeKind.VALUE:
        raise NotWhatRan(
            say(
                "Nothing was sent: the code to send fails when it runs on its own ({error}), "
                "although {entry} runs in this kernel: restart the kernel and run all cells, "
                "then submit again; or define what it needs in the cell you submit.",
                language,
                error=loaded.value,
                entry=entry,
            )
        )
    for name in names:
        rebuilt = Outcome.of(report["names"][name])
        held = Outcome(OutcomeKind.VALUE, namespace[name])
        if not same(held, rebuilt):
            raise NotWhatRan(
                say(
                    "Nothing was sent: {name} is {held} in this kernel but {rebuilt} in the code "
                    "rebuilt from the cells{where} (a cell changed it after it ran, or ran out "
                    "of order): restart the kernel and run all cells, then submit again; or "
                    "define {name} in the cell you submit.",
                    language,
                    name=name,
                    held=held.describe(language),
                    rebuilt=rebuilt.describe(language),
                    where=where(held, rebuilt, language),
                ),
                name=name,
            )
    for case, ran, rebuilt_case in zip(cases, kernel, report["cases"], strict=True):
        graded = Outcome.of(rebuilt_case)
        if not same(ran, graded):
            raise NotWhatRan(
                say(
                    "Nothing was sent: on the public case {case!r}, {entry} gives {ran} in this "
                    "kernel but {graded} in the code rebuilt from the cells{where}: restart the "
                    "kernel and run all cells, then submit again; or define what {entry} uses "
                    "in the cell you submit.",
                    language,
                    case=case.name,
                    entry=entry,
                    ran=ran.describe(language),
                    graded=graded.describe(language),
                    where=where(ran, graded, language),
                ),
                case=case.name,
            )


_MISSING = object()


def is_data(value: Any) -> bool:
    """Whether ``value`` is a value to compare (a number, an array, a container of them), not
    a function, class or module."""
    if isinstance(value, (bool, int, float, complex, str, bytes)) or value is None:
        return True
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(is_data(item) for item in value)
    if isinstance(value, dict):
        return all(is_data(k) and is_data(v) for k, v in value.items())
    return type(value).__module__ == "numpy" and hasattr(value, "dtype")


def bound_names(code: str) -> list[str]:
    """The names the module's top-level assignments bind, in order."""
    names: dict[str, None] = {}
    for node in ast.parse(code).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update((n.id, None) for n in ast.walk(target) if isinstance(n, ast.Name))
    return list(names)


def _call_in_kernel(function: Callable[..., Any], case: PublicCase) -> Outcome:
    with _quiet(), _random_state_kept():
        try:
            return Outcome(OutcomeKind.VALUE, function(**copy.deepcopy(dict(case.inputs))))
        except Exception as exc:
            return Outcome(OutcomeKind.RAISED, f"{type(exc).__name__}: {exc}")


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


@contextlib.contextmanager
def _random_state_kept() -> Iterator[None]:
    numpy = sys.modules.get("numpy")
    state = numpy.random.get_state() if numpy is not None else None
    try:
        yield
    finally:
        if numpy is not None:
            numpy.random.set_state(state)


def _run_fresh(
    code: str,
    entry: str,
    inputs: list[Mapping[str, Any]],
    names: list[str],
    language: Language,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="numjudge-check-") as folder:
        job, report = Path(folder) / "job.pickle", Path(folder) / "report.pickle"
        job.write_bytes(
            pickle.dumps({"code": code, "entry": entry, "cases": inputs, "names": names})
        )
        empty = Path(folder) / "cwd"
        empty.mkdir()
        completed = subprocess.run(
            [sys.executable, "-c", CHILD, str(job), str(report)],
            cwd=empty,
            capture_output=True,
            text=True,
            timeout=FRESH_PROCESS_TIMEOUT_S,
            check=False,
        )
        if not report.is_file():
            raise NotWhatRan(
                say(
                    "Nothing was sent: the code to send could not be checked in a fresh Python "
                    "process (it ended with {code}: {error}).",
                    language,
                    code=completed.returncode,
                    error=completed.stderr.strip()[-300:],
                )
            )
        loaded: dict[str, Any] = pickle.loads(report.read_bytes())
        return loaded


def same(left: Outcome, right: Outcome) -> bool:
    if left.kind is not right.kind:
        return False
    if left.kind is OutcomeKind.RAISED:  # the same exception; its text may name other lines
        return str(left.value).split(":")[0] == str(right.value).split(":")[0]
    return equal(left.value, right.value)


def equal(left: Any, right: Any) -> bool:
    """Equal values of the same kind; NaN equals NaN (a function may return it by design); a
    numpy scalar equals the Python number of its value (the client writes one as the other)."""
    left, right = _plain(left), _plain(right)
    if type(left) is not type(right):
        return False
    if hasattr(left, "dtype") and hasattr(left, "shape"):
        import numpy as np

        if left.dtype != right.dtype or left.shape != right.shape:
            return False
        try:
            return bool(np.array_equal(left, right, equal_nan=True))
        except TypeError:  # a dtype without NaN
            return bool(np.array_equal(left, right))
    if isinstance(left, (tuple, list)):
        return len(left) == len(right) and all(map(equal, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(equal(left[k], right[k]) for k in left)
    if isinstance(left, float) and math.isnan(left):
        return math.isnan(right)
    try:
        return bool(left == right)
    except Exception:
        return False


def _plain(value: Any) -> Any:
    is_numpy_scalar = type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0
    return value.item() if is_numpy_scalar and not hasattr(value, "__len__") else value


def describe(value: Any, language: Language = Language.EN) -> str:
    if hasattr(value, "dtype") and hasattr(value, "shape") and getattr(value, "ndim", False):
        import numpy as np

        text = np.array2string(value, threshold=6, edgeitems=2, precision=6)
        return say(
            "an array of shape {shape} ({dtype}) {values}",
            language,
            shape=value.shape,
            dtype=value.dtype,
            values=" ".join(text.split()),
        )
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def where(held: Outcome, rebuilt: Outcome, language: Language = Language.EN) -> str:
    """Where two arrays of one shape first differ (", first at [1, 0]: 0.5 in the kernel,
    0.25 rebuilt")."""
    left, right = held.value, rebuilt.value
    if not (held.kind is rebuilt.kind is OutcomeKind.VALUE and hasattr(left, "shape")):
        return ""
    if not hasattr(right, "shape") or left.shape != right.shape or not left.ndim:
        return ""
    import numpy as np

    differs = np.argwhere(~((left == right) | ((left != left) & (right != right))))
    if not len(differs):
        return ""
    index = tuple(int(i) for i in differs[0])
    held, built = left[index].item(), right[index].item()
    return say(
        ", first at {index}: {held!r} in the kernel, {built!r} rebuilt",
        language,
        index=list(index),
        held=held,
        built=built,
    )
