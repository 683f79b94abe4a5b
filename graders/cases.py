"""The exercise author's API for ``cases.py``.

A ``cases.py`` declares its test cases with the :func:`case` decorator::

    import numpy as np
    from graders.cases import case

    @case(public=True, points=1)
    def numerical_example(rng):
        return {"h_prev": np.array([0.5, -0.2]), "x_t": np.array([1.0])}

    @case(points=2, batch_axes={"h_prev": 0, "x_t": 0})
    def batched(rng):
        return {"h_prev": rng.normal(size=(4, 3)), "x_t": rng.normal(size=(4, 2))}

Each decorated function receives a ``numpy.random.Generator`` seeded from the case's
name (or from ``seed=``), so inputs are the same on every run, and returns the entry
function's arguments by name, in call order. Expected outputs are never written here:
the engine computes them by running ``solution.py`` on these inputs.

An exercise may give each learner numbers of their own (a retention factor, a keep
probability): a :func:`variant` function draws them from a generator seeded per learner, and a
case whose maker takes a ``variant`` argument builds its inputs from them::

    @variant(default={"alpha": 0.75})
    def retention(rng):
        return {"alpha": float(rng.choice([0.5, 0.6, 0.75, 0.8]))}

    @case(public=True)
    def step_response(rng, variant):
        return {"xs": np.ones((6, 1)), "alpha": variant["alpha"], "s0": np.zeros(1)}

A grading with no learner (``numjudge grade``, the corpora, validate) uses ``default``.

A case whose right answer is not unique (any orthonormal basis of a column space, random
draws in an order the statement leaves free) is judged by its checks alone, with no
reference comparison: :func:`property_case`. A case that calls several functions, or a
class's methods, in order is a scenario: ``graders.scenarios``.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar, overload

import numpy as np

Variant = Mapping[str, float]
"""A learner's numbers (``@variant``), by name: what their statement and their cases show."""
InputMaker = (
    Callable[[np.random.Generator], Mapping[str, Any]]
    | Callable[[np.random.Generator, Variant], Mapping[str, Any]]
)
"""A case's maker: ``make(rng)``, or ``make(rng, variant)`` for a case that takes the learner's
variant (its second parameter is called ``variant``)."""
VariantMaker = Callable[[np.random.Generator], Mapping[str, Any]]
VARIANT_PARAMETER = "variant"
Maker = TypeVar("Maker", bound=InputMaker)
OutputBatchAxis = int | tuple[int | None, ...]
"""The batch axis of the output, or one per element of a tuple output (None: not batched)."""
ExtraCheck = Callable[[Mapping[str, Any], Any], str | None]
"""``check(inputs, got) -> None`` when fine, else a message for the learner. Its name (the
function's, with spaces for underscores) names it in messages, hidden ones included."""
CallCount = Callable[[Mapping[str, Any]], int]
"""``count(inputs) -> int``: how many times the statement asks the entry to call a function
input on these inputs. Its name (with spaces for underscores) says why in messages."""

DEFAULT_RTOL = 1e-7
DEFAULT_ATOL = 1e-9
MIN_CASE_TIME_S = 0.05
"""The least time limit of a case of its own: CPU clocks read without a cgroup tick every
10 ms, and the zygote looks every few milliseconds."""


class CaseKind(Enum):
    """How a case's output is judged."""

    REFERENCE = "reference"
    """Compared with the reference's output, then its checks run: ``@case``."""
    PROPERTY = "property"
    """Judged by its checks alone, for an answer that is not unique: ``@property_case``."""


class Worth:
    """A check worth only ``share`` of its case's points (:func:`worth`): an output that fails
    it keeps the rest. Called as the check, and named as it (``__name__``: messages call a
    check by its function's name)."""

    def __init__(self, share: float, check: ExtraCheck) -> None:
        self.share = share
        self.check = check
        self.__name__ = getattr(check, "__name__", type(check).__name__)

    def __call__(self, inputs: Mapping[str, Any], got: Any) -> str | None:
        return self.check(inputs, got)


def worth(share: float, check: ExtraCheck) -> Worth:
    """``check`` worth ``share`` (0 < share < 1) of its case's points: partial credit inside a
    case. ``checks=[worth(0.5, normalised)]``: right values that fail ``normalised`` keep half
    the points. A check not so wrapped is worth the whole case."""
    if not 0 < share < 1:
        raise ValueError(f"a check's share of the points is in (0, 1), got {share!r}")
    return Worth(share, check)


def points_kept(checks: Sequence[ExtraCheck], failed: Sequence[str], points: float) -> float:
    """What a case whose output failed the checks named ``failed`` keeps of its ``points``:
    nothing if one of them is worth the whole case, else what their shares leave."""
    shares = [
        check.share if isinstance(check, Worth) else 1.0
        for check in checks
        if check_name(check) in failed
    ]
    return points * max(0.0, 1.0 - sum(shares))


def check_name(check: ExtraCheck | CallCount) -> str:
    """What messages call a check (or a ``calls=`` count): its function's name with spaces
    for underscores."""
    return getattr(check, "__name__", type(check).__name__).replace("_", " ")


@dataclass(frozen=True)
class CaseSpec:
    """One declared case, before its inputs are generated."""

    name: str
    make_inputs: InputMaker
    public: bool = False
    points: float = 1.0
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    seed: int | None = None
    batch_axes: Mapping[str, int] = field(default_factory=dict)
    output_batch_axis: OutputBatchAxis = 0
    checks: Sequence[ExtraCheck] = ()
    kind: CaseKind = CaseKind.REFERENCE
    time_s: float | None = None
    """The case's own CPU time limit (``@case(time_s=...)``)."""
    max_slowdown: float | None = None
    """The speed rule: at most this many times the reference's CPU time on the case."""
    limit_hint: str = ""
    """The author's advice for code that runs out of memory or time on this case
    (``@case(limit_hint=...)``), added to that failure's message."""
    scenario: bool = False
    """Its inputs are a scenario's steps and their arguments (graders/scenarios.py)."""
    takes_variant: bool = False
    """Its maker takes the learner's variant (a parameter called ``variant``)."""
    calls: Mapping[str, CallCount] = field(default_factory=dict)
    """By function input's name, how many times the main call must call it (``@case(calls=)``)."""

    def inputs(self, rng: np.random.Generator, variant: Variant) -> Mapping[str, Any]:
        """The maker's inputs, made with ``variant`` if it takes one."""
        make: Callable[..., Mapping[str, Any]] = self.make_inputs
        return make(rng, **{VARIANT_PARAMETER: variant}) if self.takes_variant else make(rng)

    @property
    def rng_seed(self) -> int:
        if self.seed is not None:
            return self.seed
        return int.from_bytes(hashlib.sha256(self.name.encode()).digest()[:8], "little")

    @property
    def batched(self) -> bool:
        return bool(self.batch_axes)

    @property
    def timed(self) -> bool:
        """Whether the case's CPU time is measured: it has a time limit or a speed rule."""
        return self.time_s is not None or self.max_slowdown is not None


_registry: list[CaseSpec] = []


@overload
def case(fn: Maker, /) -> Maker: ...


@overload
def case(
    *,
    name: str | None = None,
    public: bool = False,
    points: float = 1.0,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    seed: int | None = None,
    batch_axes: Mapping[str, int] | None = None,
    output_batch_axis: OutputBatchAxis = 0,
    checks: Sequence[ExtraCheck] = (),
    time_s: float | None = None,
    max_slowdown: float | None = None,
    limit_hint: str = "",
    calls: Mapping[str, CallCount] | None = None,
) -> Callable[[Maker], Maker]: ...


def case(
    fn: InputMaker | None = None,
    *,
    name: str | None = None,
    public: bool = False,
    points: float = 1.0,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    seed: int | None = None,
    batch_axes: Mapping[str, int] | None = None,
    output_batch_axis: OutputBatchAxis = 0,
    checks: Sequence[ExtraCheck] = (),
    time_s: float | None = None,
    max_slowdown: float | None = None,
    limit_hint: str = "",
    calls: Mapping[str, CallCount] | None = None,
) -> InputMaker | Callable[[InputMaker], InputMaker]:
    """Declare a test case; usable bare (``@case``) or with options (``@case(points=2)``).

    Args:
        name: shown to learners; defaults to the function name with spaces for underscores.
        public: public cases show their inputs, output and printed text; hidden ones only
            their name, status and points.
        points: weight of the case in the score.
        rtol, atol: value tolerance, as in ``numpy.allclose``.
        seed: seed of the generator passed to the function (default: derived from the name).
        batch_axes: for a batched case, the batch axis of each batched input. The engine then
            also calls the entry on every slice and checks that the batched result equals
            the unbatched results stacked along ``output_batch_axis``. For a tuple output,
            give one axis per element; ``None`` marks an element that has no batch axis (it
            must then equal what every single example returns). An output reduced over the
            batch (a mean loss) says so in exercise.toml (``[[outputs]] batch = "mean"``).
            Only array inputs can be batched.
        checks: extra trusted checks ``check(inputs, got) -> message | None``, run after the
            value comparison passes; named functions, each failing one named in the message.
        time_s: the case's own limit of CPU time (its calls, batch items included); the code
            is stopped at it, and the cases after it are not run (docs/authoring.md).
        max_slowdown: a speed rule: the case fails unless its best CPU time over a few runs
            is at most this many times the reference's, measured the same way on the same
            host during the same grading (docs/authoring.md, "Speed rules").
        limit_hint: advice for code that runs out of memory or time on this case ("building
            the (M, N, D) difference array needs M*N*D*8 bytes"), added to the message of the
            test the code ran out on; a hidden test keeps its fixed text (instructors read
            the hint among its hidden messages).
        calls: for a case with function inputs (docs/authoring.md, "Functions as inputs"),
            by input name, a named function ``count(inputs) -> int`` of how many times the
            statement asks one call of the entry to call that function
            (``calls={"f": two_per_element}``); another count fails the test, its message
            naming the count function (``two per element``). Batch items and speed runs
            count their own calls, not the main call's.
    """
    if time_s is not None and not time_s >= MIN_CASE_TIME_S:
        raise ValueError(f"time_s must be at least {MIN_CASE_TIME_S:g} s, got {time_s!r}")
    if max_slowdown is not None and not max_slowdown > 1:
        raise ValueError(f"max_slowdown must be > 1, got {max_slowdown!r}")
    register = _declare(
        name=name,
        public=public,
        points=points,
        rtol=rtol,
        atol=atol,
        seed=seed,
        batch_axes=dict(batch_axes or {}),
        output_batch_axis=output_batch_axis,
        checks=tuple(checks),
        time_s=time_s,
        max_slowdown=max_slowdown,
        limit_hint=limit_hint,
        calls=dict(calls or {}),
    )
    return register(fn) if fn is not None else register


def property_case(
    *,
    checks: Sequence[ExtraCheck],
    name: str | None = None,
    public: bool = False,
    points: float = 1.0,
    seed: int | None = None,
) -> Callable[[InputMaker], InputMaker]:
    """Declare a case judged by its ``checks`` alone, with no reference comparison: for an
    output the statement does not fix (any orthonormal basis of a space, statistics of random
    draws). Every check runs on the learner's output; the test fails naming each check that
    fails (a hidden test its name only, never its message). The reference must pass them.

    Args:
        checks: ``check(inputs, got) -> message | None``, named functions (their names are
            what learners read), at least one; each checks the output's type and shape
            itself, since nothing else does.
        name, public, points, seed: as for :func:`case`.
    """
    if not checks:
        raise ValueError("a property case needs at least one check")
    return _declare(
        name=name,
        public=public,
        points=points,
        seed=seed,
        checks=tuple(checks),
        kind=CaseKind.PROPERTY,
    )


def declare_scenario(
    make_inputs: InputMaker,
    *,
    name: str,
    public: bool,
    points: float,
    rtol: float,
    atol: float,
    seed: int | None,
    checks: Sequence[ExtraCheck] = (),
) -> None:
    """Register a scenario case, whose ``make_inputs`` returns its steps as inputs (made by
    ``graders.scenarios.scenario``, the author's decorator)."""
    _declare(
        name=name,
        public=public,
        points=points,
        rtol=rtol,
        atol=atol,
        seed=seed,
        checks=tuple(checks),
        scenario=True,
    )(make_inputs)


def _declare(
    *, name: str | None, points: float, **options: Any
) -> Callable[[InputMaker], InputMaker]:
    """The decorator that registers a function as a case with ``options``."""

    def register(make_inputs: InputMaker) -> InputMaker:
        if points < 0:
            raise ValueError(f"case {make_inputs.__name__!r}: points must be >= 0")
        names = [check_name(check) for check in options["checks"]]
        # A failing check is told by its name alone in a hidden test: it must say which.
        if "<lambda>" in names or len(set(names)) < len(names):
            raise ValueError(
                f"case {make_inputs.__name__!r}: checks must be named functions with "
                "different names (their names are what learners read)"
            )
        counts = options.get("calls", {})
        if any(check_name(count) == "<lambda>" for count in counts.values()):
            raise ValueError(
                f"case {make_inputs.__name__!r}: calls= counts must be named functions "
                "(their names are what learners read)"
            )
        _registry.append(
            CaseSpec(
                name=name or make_inputs.__name__.replace("_", " "),
                make_inputs=make_inputs,
                points=float(points),
                takes_variant=VARIANT_PARAMETER in inspect.signature(make_inputs).parameters,
                **options,
            )
        )
        return make_inputs

    return register


@dataclass(frozen=True)
class VariantSpec:
    """The exercise's ``@variant``: how a learner's numbers are drawn, and the default ones."""

    draw: VariantMaker
    default: Variant

    def drawn(self, seed: int) -> dict[str, float]:
        """The variant of the learner whose seed is ``seed``: the same seed, the same numbers;
        a ``ValueError`` saying what is wrong when the draw raises or gives no variant."""
        try:
            values = self.draw(np.random.default_rng(seed))
        except Exception as exc:  # the author's code: any exception is theirs to read
            raise ValueError(f"@variant raised {type(exc).__name__}: {exc}") from exc
        return variant_values(values, self.default)

    def completed(self, recorded: Mapping[str, Any] | None) -> dict[str, float]:
        """A variant recorded earlier (a submission's, kept for its regrade), as this version
        of the exercise takes it: its numbers under the names the default still has, the
        default's for a name it lacks; None: the default."""
        kept = {name: value for name, value in (recorded or {}).items() if name in self.default}
        return variant_values({**self.default, **kept}, self.default)


def variant_values(values: object, default: Variant, source: str = "@variant") -> dict[str, float]:
    """``values`` checked to be finite numbers under the default's names, as plain Python
    numbers (a submission stores them as JSON); a ``ValueError`` naming ``source`` (what gave
    them) otherwise."""
    what = f"{source} must return" if source == "@variant" else f"{source} must be"
    if not isinstance(values, Mapping) or not all(isinstance(k, str) for k in values):
        got = type(values).__name__
        if isinstance(values, Mapping):
            got += " with keys " + ", ".join(sorted(repr(k) for k in values))
        raise ValueError(f"{what} a dict of numbers keyed by name, got {got}")
    if set(values) != set(default):
        raise ValueError(
            f"{what} the names of its default ({', '.join(sorted(default))}), "
            f"got {', '.join(sorted(values)) or 'none'}"
        )
    checked: dict[str, float] = {}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"{source}: variant {name!r} must be a number, got {value!r}")
        # NaN or inf would give a learner NaN expected values (and NaN != NaN counts twice).
        if not math.isfinite(value):
            raise ValueError(f"{source}: variant {name!r} must be a finite number, got {value!r}")
        checked[name] = int(value) if isinstance(value, numbers.Integral) else float(value)
    return checked


_variants: list[VariantSpec] = []


def variant(
    draw: object = None, /, *, default: Mapping[str, Any] | None = None
) -> Callable[[VariantMaker], VariantMaker]:
    """Declare how each learner's numbers are drawn: the decorated function receives a
    generator seeded per learner and exercise and returns a small dict of numbers by name
    (``{"alpha": 0.6}``), the names of ``default``. Cases read them through a ``variant``
    parameter; statements through ``{{ variant.alpha }}`` (docs/authoring.md, "Per-learner
    variants"). ``default`` is the variant of a grading with no learner (``numjudge grade``,
    validate, the corpora). One per ``cases.py``."""
    if draw is not None or default is None:  # ``@variant`` bare, or without its default
        raise TypeError(
            "@variant needs default=: write @variant(default={...}) with the numbers of a "
            "grading with no learner"
        )
    checked = variant_values(default, default, "@variant's default=")
    if not checked:
        raise ValueError("@variant's default= names no number; give it the variant's names")

    def register(draw: VariantMaker) -> VariantMaker:
        _variants.append(VariantSpec(draw, checked))
        return draw

    return register


@dataclass(frozen=True)
class Declared:
    """What a ``cases.py`` declares: its cases, and its ``@variant`` if it has one."""

    cases: list[CaseSpec]
    variant: VariantSpec | None


def collect_declared(run_module: Callable[[], object]) -> Declared:
    """Run ``run_module`` (which executes a ``cases.py``) and return what it declared; a
    ``ValueError`` if it declares more than one ``@variant``."""
    start, variants_start = len(_registry), len(_variants)
    try:
        run_module()
        drawn = _variants[variants_start:]
        if len(drawn) > 1:
            raise ValueError("declares more than one @variant; one function draws them all")
        return Declared(_registry[start:], drawn[0] if drawn else None)
    finally:
        del _registry[start:]
        del _variants[variants_start:]


def collect_cases(run_module: Callable[[], object]) -> list[CaseSpec]:
    """Run ``run_module`` (which executes a ``cases.py``) and return the cases it declared."""
    return collect_declared(run_module).cases
