"""Running a scenario: several calls of the learner's functions, classes and methods in order,
where what one call returns may stay here as a *handle* for a later call.

A scenario exercise's entry (``exercise.toml`` ``entries``) reaches the sandbox as
``scenario:name,name,...``: :func:`resolve_entry` checks that the code defines each name and
returns a function of ``(program, *values)``. The program is JSON text (built on the trusted
side by ``graders.scenarios`` from the author's steps), so it crosses the channel as one string
input, which costs the sandbox's copies and changed-input checks nothing, and no author code
ever runs here. It is a list of steps, each::

    {"do": "call" | "construct" | "method" | "state",
     "target": function, class, method or attribute name,
     "handle": the object a method or state step reads, or a construct step's new object,
     "args": [[parameter, source], ...],      source: ["input", i] the value ``values[i]``,
                                              ["ref", handle] a kept object,
                                              ["keep", handle, i] ``values[i]`` kept as handle,
                                              ["dict", [[key, source], ...]], ["list", [source,
                                              ...]], ["tuple", [...]] a new container of
                                              sources (refs inside a dict of parameters)
     "returns": [[name, kept, compared], ...], "unpack": bool,  the return value whole or
                                              as a tuple; a kept value may be compared too
     "updates": [parameter, ...]}             arguments the call is to change in place

The function returns the *observed* values, in order: per call, its returned values that are
not kept, then its updated arguments; per state step, the attribute. Each is copied when
observed (arrays, and the lists, tuples and dicts holding them), so a later step cannot change
what an earlier one showed; :func:`observed_names` names them (``step 2, affine_backward: dw``).
An updated argument is to be changed in place: the caller holds the arrays it passed (a
model's layers hold their parameters), so a call that puts a new array in a dict or list in
place of one it held (``params[k] = params[k] - step``) raises :class:`NotUpdatedInPlace`,
naming the entry (``params['w'] was replaced by a new array; update it in place``).
Kept objects never leave: the trusted side's reference run keeps its own. The same code runs
the reference, the known mistakes and the mutants on the trusted side.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np

SCENARIO_PREFIX = "scenario:"


def scenario_entry(names: Sequence[str]) -> str:
    """The entry a sandbox is given for an exercise whose cases are scenarios over ``names``."""
    return SCENARIO_PREFIX + ",".join(names)


def resolve_entry(namespace: Mapping[str, Any], entry: str) -> Callable[..., Any]:
    """The function a case calls in a module's ``namespace``: the entry function, or for a
    scenario entry the runner of its steps over the functions and classes it names.

    Raises ``NameError`` naming what the code does not define."""
    if not entry.startswith(SCENARIO_PREFIX):
        return _defined(namespace, entry, "a function")
    names = entry.removeprefix(SCENARIO_PREFIX).split(",")
    entries = {name: _defined(namespace, name, "a function or class") for name in names}
    return functools.partial(run_scenario, entries)


def _defined(namespace: Mapping[str, Any], name: str, what: str) -> Callable[..., Any]:
    value = namespace.get(name)
    if not callable(value):
        raise NameError(f"the code does not define {what} named '{name}'")
    return cast(Callable[..., Any], value)


def read_program(program: str) -> list[dict[str, Any]]:
    """The steps of a program's JSON text."""
    steps = json.loads(program)
    if type(steps) is not list or not all(type(step) is dict for step in steps):
        raise ValueError("a scenario's program is a list of steps")
    return steps


def run_scenario(
    entries: Mapping[str, Callable[..., Any]], program: str, *values: Any
) -> tuple[Any, ...]:
    """Run the program's steps in order and return what they let the trusted side see. An
    exception leaves with a note naming its step (``in step 2, affine_backward``)."""
    handles: dict[str, Any] = {}
    observed: list[Any] = []
    steps = read_program(program)
    for step, label in zip(steps, step_labels(steps), strict=True):
        try:
            observed += _run_step(entries, step, values, handles)
        except BaseException as exc:  # the learner's code may raise anything
            exc.add_note(f"in {label}")
            raise
    return tuple(observed)


def _run_step(
    entries: Mapping[str, Callable[..., Any]],
    step: Mapping[str, Any],
    values: Sequence[Any],
    handles: dict[str, Any],
) -> list[Any]:
    kind, target = step["do"], step["target"]
    if kind == "state":
        return [snapshot(getattr(handles[step["handle"]], target))]
    updates = set(step["updates"])
    arguments = {
        parameter: _argument(source, values, handles, parameter in updates)
        for parameter, source in step["args"]
    }
    if kind == "construct":
        handles[step["handle"]] = entries[target](**arguments)
        return []
    function = entries[target] if kind == "call" else getattr(handles[step["handle"]], target)
    held = {parameter: holdings(arguments[parameter]) for parameter in step["updates"]}
    returned = function(**arguments)
    for parameter in step["updates"]:
        lost = replaced_arrays(arguments[parameter], held[parameter], parameter)
        if lost:
            raise NotUpdatedInPlace(f"{lost[0]} was replaced by a new array; update it in place")
    parts = _returned_parts(step, returned)
    observed = []
    for (name, kept, compared), part in zip(step["returns"], parts, strict=True):
        if kept:
            handles[name] = part
        if compared:
            observed.append(snapshot(part))
    return observed + [snapshot(arguments[parameter]) for parameter in step["updates"]]


class WrongReturn(TypeError):
    """A call whose step unpacks its return (``returns=("mean", "std")``) returned no tuple or
    list of that length: the learner raised nothing, the runner tells what came back. Read by
    this name on the trusted side, like :class:`NotUpdatedInPlace`."""


class NotUpdatedInPlace(Exception):
    """A call declared to update an argument in place put a new array in a dict or list of it
    instead of changing the one it held: the caller, holding the old array, never sees the
    update. Raised here, by the runner: the trusted side reads it by this name
    (``graders.grading.report``)."""


def replaced_arrays(value: Any, held: Any, path: str) -> list[str]:
    """Where an array that a dict or list argument held before the call is no longer there
    (``params['w']``), ``value`` being the argument after the call and ``held`` its
    :func:`holdings` before. Exact types only: no method of the learner's runs."""
    if type(held) is dict:
        now = value if type(value) is dict else {}
        places = [(key, f"{path}[{key!r}]") for key in held]
    elif type(held) is list:
        now = dict(enumerate(value)) if type(value) is list else {}
        places = [(index, f"{path}[{index}]") for index in range(len(held))]
    else:
        return []
    lost = []
    for key, place in places:
        before, after = held[key], now.get(key)
        if type(before) is np.ndarray:
            lost += [place] if after is not before else []
        else:
            lost += replaced_arrays(after, before, place)
    return lost


def holdings(value: Any) -> Any:
    """What a dict or list argument holds before a call: the same structure over the same
    objects (arrays are not copied: their identity is the point)."""
    if type(value) is dict:
        return {key: holdings(item) for key, item in value.items()}
    if type(value) is list:
        return [holdings(item) for item in value]
    return value


def _argument(
    source: Sequence[Any], values: Sequence[Any], handles: dict[str, Any], updated: bool
) -> Any:
    """An argument's value. An input the call may change is passed as a copy, so that the
    sandbox's check of inputs changed in place sees only the undeclared changes."""
    kind = source[0]
    if kind == "ref":
        return handles[source[1]]
    if kind == "keep":
        handles[source[1]] = snapshot(values[source[2]])
        return handles[source[1]]
    if kind == "dict":
        return {key: _argument(item, values, handles, updated) for key, item in source[1]}
    if kind in ("list", "tuple"):
        items = [_argument(item, values, handles, updated) for item in source[1]]
        return items if kind == "list" else tuple(items)
    value = values[source[1]]
    return snapshot(value) if updated else value


def _returned_parts(step: Mapping[str, Any], returned: Any) -> Sequence[Any]:
    returns = step["returns"]
    if not step["unpack"]:
        return [returned][: len(returns)]
    # Exact types only: a learner's sequence type would run its own __len__ and __iter__.
    if type(returned) not in (tuple, list) or len(returned) != len(returns):
        names = ", ".join(name for name, _kept, _compared in returns)
        expected = f"where a tuple of {len(returns)} values ({names}) is expected"
        if returned is None:
            raise WrongReturn(f"returned None {expected}; did the function forget to return?")
        what = (
            f"a {type(returned).__name__} of {len(returned)}"
            if type(returned) in (tuple, list)
            else f"a {type(returned).__name__}"
        )
        raise WrongReturn(f"returned {what} {expected}")
    return cast(Sequence[Any], returned)


def snapshot(value: Any) -> Any:
    """A copy of arrays and of the plain lists, tuples and dicts holding them, as they are
    now; anything else as it is (it will not cross the channel as a value anyway)."""
    if type(value) is np.ndarray:
        return value.copy()
    if type(value) in (list, tuple):
        return type(value)(snapshot(item) for item in value)
    if type(value) is dict:
        return {key: snapshot(item) for key, item in value.items()}
    return value


CALLS = ("call", "method")
"""The kinds of step that call the learner's functions or methods: the steps messages number."""


def step_label(step: Mapping[str, Any], calls: int) -> str:
    """What messages call a step, ``calls`` being the number of calls up to it (itself
    included): only calls are numbered, as a learner counts them (the first ``opt.step`` is
    step 1, whatever constructed ``opt``): ``step 2, affine_backward``, ``step 1, opt.step``;
    a construction is ``opt = Adam(...)``, a state ``opt.t after step 2``."""
    kind, target, handle = step["do"], step["target"], step["handle"]
    if kind == "construct":
        return f"{handle} = {target}(...)"
    if kind == "state":
        return f"{handle}.{target} " + (f"after step {calls}" if calls else "before any step")
    on = f"{handle}." if kind == "method" else ""
    return f"step {calls}, {on}{target}"


def step_labels(program: Sequence[Mapping[str, Any]]) -> list[str]:
    """:func:`step_label` of each step of a program, in order."""
    labels = []
    calls = 0
    for step in program:
        calls += step["do"] in CALLS
        labels.append(step_label(step, calls))
    return labels


def observed_names(program: Sequence[Mapping[str, Any]]) -> list[str]:
    """The name of each value ``run_scenario`` returns, in order."""
    names = []
    for step, label in zip(program, step_labels(program), strict=True):
        if step["do"] == "state":
            names.append(label)
            continue
        names += [f"{label}: {name}" for name, _kept, compared in step["returns"] if compared]
        names += [f"{label}: {parameter}" for parameter in step["updates"]]
    return names


RUNNER_FINDINGS: tuple[type[Exception], ...] = (NotUpdatedInPlace, WrongReturn)
"""What the runner raises where the learner's call raised nothing: a hidden case tells these
by their type (from the runner's own classes, not a name the learner could give a class of
their own), so that its test says what was found, not that an exception was raised."""
RUNNER_FINDING_NAMES = frozenset(kind.__name__ for kind in RUNNER_FINDINGS)
