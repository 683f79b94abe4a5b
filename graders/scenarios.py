"""The exercise author's API for scenarios: cases that call several functions, or construct an
object and call its methods, in order.

An exercise whose learner writes several functions or a class lists them in exercise.toml
(``entries = ["affine_forward", "affine_backward"]``) and declares its cases as scenarios::

    import numpy as np
    from graders.scenarios import call, keep, ref, scenario

    @scenario(public=True)
    def forward_then_backward(rng):
        x, w, b = rng.normal(size=(4, 3)), rng.normal(size=(3, 5)), rng.normal(size=5)
        return [
            call("affine_forward", x=x, w=w, b=b, returns=("out", keep("cache"))),
            call("affine_backward", dout=rng.normal(size=(4, 5)), cache=ref("cache"),
                 returns=("dx", "dw", "db")),
        ]

The function receives a seeded ``numpy.random.Generator`` as in ``@case`` and returns the
steps; it runs only here, on the trusted side: the sandbox receives the steps as data
(graders/sandbox/scenario.py). Every value a step returns and does not keep, every argument it
declares in ``updates`` and every ``state`` is compared with the reference's, each named in
messages by its step (``step 2, affine_backward: dw: shape (3, 5) instead of (5, 3),
transposed``). A kept value (the learner's own cache, an object) never leaves the sandbox:
the reference's run keeps its own.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import numpy as np

from graders.cases import (
    DEFAULT_ATOL,
    DEFAULT_RTOL,
    VARIANT_PARAMETER,
    ExtraCheck,
    declare_scenario,
)
from graders.sandbox.scenario import observed_names, step_label

SCENARIO_INPUT = "steps"
"""The name of a scenario case's first input: its program, as JSON text."""

StepMaker = Callable[[np.random.Generator], Sequence["Step"]]


class StepKind(Enum):
    CALL = "call"
    CONSTRUCT = "construct"
    METHOD = "method"
    STATE = "state"


@dataclass(frozen=True)
class Keep:
    """A value that stays in the sandbox under ``name``: a returned one, or an input given
    once and then passed by ``ref(name)`` to later steps (a dict of parameters an optimiser
    updates step after step)."""

    name: str
    value: Any = None
    has_value: bool = False
    compared: bool = False
    """A returned value both kept and compared (``keep(name, compared=True)``)."""


@dataclass(frozen=True)
class Ref:
    """A value kept by an earlier step, passed as it is now."""

    name: str


def keep(name: str, *value: Any, compared: bool = False) -> Keep:
    """In ``returns``: keep this returned value in the sandbox as ``name``, and with
    ``compared=True`` compare it too (k-means' initial centres, checked and then passed to
    the first step as the very object returned). As an argument, ``keep(name, value)``: pass
    ``value`` and keep the object the call received as ``name``."""
    if len(value) > 1:
        raise TypeError("keep(name) or keep(name, value)")
    if compared and value:
        raise TypeError("compared=True is for a returned value; an argument is the author's")
    return Keep(name, value[0] if value else None, bool(value), compared)


def ref(name: str) -> Ref:
    """The value kept as ``name`` by an earlier step."""
    return Ref(name)


@dataclass(frozen=True)
class Step:
    """One step of a scenario; made by :func:`call`, :func:`construct`, :func:`method` or
    :func:`state`."""

    kind: StepKind
    target: str
    handle: str = ""
    args: Mapping[str, Any] = field(default_factory=dict)
    returns: str | Keep | tuple[str | Keep, ...] = ()
    updates: tuple[str, ...] = ()


Returns = str | Keep | Iterable[str | Keep]


def call(
    function: str, /, *, returns: Returns = (), updates: Iterable[str] = (), **args: Any
) -> Step:
    """Call the learner's ``function`` with ``args`` by name.

    ``returns``: a name for the whole return value (``"out"``), or one name per element of
    the returned tuple (``("out", keep("cache"))``); ``keep(name)`` keeps a value in the
    sandbox instead of comparing it; left out, the return value is not compared.
    ``updates``: the arguments the call is to change in place; each is compared after the
    call, and an array of a dict or list argument replaced by a new one (``params['w'] =
    ...``) fails the case, naming the entry. Any other argument the call changes fails the
    case (category ``inputs``). An argument may be, or be a dict, list or tuple holding,
    ``ref(name)`` and ``keep(name, value)``: ``params={"w": ref("w"), "b": ref("b")}``."""
    return Step(StepKind.CALL, function, "", args, _returns(returns), tuple(updates))


def construct(cls: str, handle: str, /, **args: Any) -> Step:
    """Construct the learner's class ``cls`` with ``args`` and keep the object as ``handle``."""
    return Step(StepKind.CONSTRUCT, cls, handle, args)


def method(
    handle: str,
    name: str,
    /,
    *,
    returns: Returns = (),
    updates: Iterable[str] = (),
    **args: Any,
) -> Step:
    """Call method ``name`` of the object kept as ``handle``; ``returns`` and ``updates`` as
    for :func:`call`."""
    return Step(StepKind.METHOD, name, handle, args, _returns(returns), tuple(updates))


def state(handle: str, attribute: str) -> Step:
    """Compare the attribute ``attribute`` of the object kept as ``handle``, as it is now."""
    return Step(StepKind.STATE, attribute, handle)


def _returns(returns: Returns) -> str | Keep | tuple[str | Keep, ...]:
    return returns if isinstance(returns, str | Keep) else tuple(returns)


def scenario(
    *,
    name: str | None = None,
    public: bool = False,
    points: float = 1.0,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    seed: int | None = None,
    batch_axes: object = None,
    checks: Sequence[ExtraCheck] = (),
) -> Callable[[StepMaker], StepMaker]:
    """Declare a scenario case: the decorated function returns its steps.

    Options as for ``@case``; ``checks`` run once every compared value matched, each given
    the compared values by name (``got["step 2, grad_check: error"]``), so that a property of
    several steps' values (a checker's estimate against an analytic gradient) is checked.
    A scenario has no batch axes (batch consistency is checked on one-function cases only):
    its steps can call the functions on a batch and on one example. ``batch_axes`` is
    refused, saying so.
    """
    if batch_axes is not None:
        raise ValueError(
            "a scenario has no batch_axes: batch consistency is checked on one-function cases "
            "only; let the scenario's steps call the functions on a batch and on single examples"
        )

    def register(make_steps: StepMaker) -> StepMaker:
        if VARIANT_PARAMETER in inspect.signature(make_steps).parameters:
            raise ValueError(
                f"scenario {make_steps.__name__!r} has a {VARIANT_PARAMETER!r} parameter, but "
                "scenarios take no variant (per-learner numbers are for @case makers); "
                "remove it"
            )

        @functools.wraps(make_steps)
        def make_inputs(rng: np.random.Generator) -> dict[str, Any]:
            return scenario_inputs(make_steps(rng))

        declare_scenario(
            make_inputs,
            name=name or make_steps.__name__.replace("_", " "),
            public=public,
            points=points,
            rtol=rtol,
            atol=atol,
            seed=seed,
            checks=checks,
        )
        return make_steps

    return register


def scenario_inputs(steps: Sequence[Step]) -> dict[str, Any]:
    """The inputs of a scenario case: its program first (``SCENARIO_INPUT``), then every
    argument value, each named by its step (``step 1, affine_forward: x``).

    Raises ``ValueError`` for steps that cannot run: a reference to a value never kept, a
    name kept twice, an update that is no argument."""
    if isinstance(steps, Step) or not all(isinstance(step, Step) for step in steps):
        raise ValueError("a scenario returns a list of steps (call, construct, method, state)")
    if not steps:
        raise ValueError("a scenario needs at least one step")
    program: list[dict[str, Any]] = []
    values: dict[str, Any] = {}
    kept: set[str] = set()
    calls = 0
    for step in steps:
        calls += step.kind in (StepKind.CALL, StepKind.METHOD)
        # The author's errors name a step as the learner's messages do (the label they read,
        # graders/sandbox/scenario.py, step_label), so one numbering serves both.
        where = step_label(
            {"do": step.kind.value, "target": step.target, "handle": step.handle}, calls
        )
        if step.kind in (StepKind.METHOD, StepKind.STATE) and step.handle not in kept:
            raise ValueError(f"{where}: no object is kept as {step.handle!r} before it")
        arguments = [
            [parameter, _source(value, f"{where}: {parameter}", values, kept)]
            for parameter, value in step.args.items()
        ]
        unknown = set(step.updates) - set(step.args)
        if unknown:
            raise ValueError(
                f"{where}: updates names {sorted(unknown)}, which are not among its arguments "
                f"({', '.join(step.args) or 'none'})"
            )
        generators = [p for p in step.updates if isinstance(step.args[p], np.random.Generator)]
        if generators:
            raise ValueError(
                f"{where}: updates names the generator {generators[0]!r}; where the scenario "
                "leaves a generator input is compared with the reference's anyway, after its "
                "last step: leave it out of updates"
            )
        returns = _program_returns(step.returns)
        for return_name, is_kept, _compared in returns:
            if is_kept:
                _add_kept(kept, return_name, where)
        if step.kind is StepKind.CONSTRUCT:
            _add_kept(kept, step.handle, where)
        program.append(
            {
                "do": step.kind.value,
                "target": step.target,
                "handle": step.handle,
                "args": arguments,
                "returns": returns,
                "unpack": isinstance(step.returns, tuple) and bool(step.returns),
                "updates": list(step.updates),
            }
        )
    names = observed_names(program)
    if not names:
        raise ValueError("a scenario must compare something: name a return, an update or a state")
    if len(set(names)) < len(names):
        raise ValueError(f"a scenario's compared values need different names: {names}")
    return {SCENARIO_INPUT: json.dumps(program, separators=(",", ":")), **values}


def _source(value: Any, label: str, values: dict[str, Any], kept: set[str]) -> list[Any]:
    """Where the sandbox takes an argument from (graders/sandbox/scenario.py), adding the
    values it needs to ``values`` by label. A dict, list or tuple holding a ``ref`` or a
    ``keep`` is built anew in the sandbox from its parts (``step 1, opt.step: params['w']``);
    any other value crosses whole."""
    if isinstance(value, Ref):
        if value.name not in kept:
            raise ValueError(
                f"{label}: ref({value.name!r}) names no value kept before this step (kept so "
                f"far: {', '.join(sorted(kept)) or 'nothing'}); keep it in an earlier step "
                f"with keep({value.name!r}) or correct the name"
            )
        return ["ref", value.name]
    if isinstance(value, Keep):
        if not value.has_value:
            raise ValueError(f"{label}: keep(name, value) as an argument needs a value")
        _add_kept(kept, value.name, label)
        values[label] = value.value
        return ["keep", value.name, len(values) - 1]
    if _holds_handles(value):
        if type(value) is dict:
            if not all(type(key) in (str, int) for key in value):
                raise ValueError(f"{label}: a dict holding refs needs str or int keys")
            return [
                "dict",
                [
                    [key, _source(item, f"{label}[{key!r}]", values, kept)]
                    for key, item in value.items()
                ],
            ]
        kind = "list" if type(value) is list else "tuple"
        return [
            kind,
            [_source(item, f"{label}[{index}]", values, kept) for index, item in enumerate(value)],
        ]
    values[label] = value
    return ["input", len(values) - 1]


def _holds_handles(value: Any) -> bool:
    """Whether a value is, or a plain dict, list or tuple holds, a ``ref`` or a ``keep``."""
    if isinstance(value, Ref | Keep):
        return True
    if type(value) is dict:
        return any(_holds_handles(item) for item in value.values())
    return type(value) in (list, tuple) and any(_holds_handles(item) for item in value)


def _add_kept(kept: set[str], name: str, where: str) -> None:
    if not name.isidentifier():
        raise ValueError(f"{where}: a kept value's name must be a Python name, not {name!r}")
    if name in kept:
        raise ValueError(f"{where}: {name!r} is kept twice; give each kept value its own name")
    kept.add(name)


def _program_returns(returns: str | Keep | tuple[str | Keep, ...]) -> list[list[Any]]:
    parts = returns if isinstance(returns, tuple) else (returns,)
    return [
        [part.name, True, part.compared] if isinstance(part, Keep) else [part, False, True]
        for part in parts
    ]
