"""Private namespaces for the sandbox's own modules, so that submitted code that rebinds a
name in a module changes nothing the harness does.

A Python function finds its collaborators at call time, by name, in its module's namespace
(``changed_inputs`` calls ``unchanged`` through ``harness.__dict__``), and finds ``isinstance``,
``len`` or ``all`` in the builtins module's. Submitted code runs in the same process: through
``sys.modules`` it could set ``harness.changed_inputs``, ``wire.generator_state``,
``builtins.all`` or ``copy.deepcopy``, and pass a check judged here (an input changed in
place, where a generator was left, repeated work).

:func:`seal` gives each module a private copy of its namespace, taken before any submitted
code runs, in which

- each function of the sealed modules (and each plain method of their classes) is a copy
  whose globals are that private namespace, and a name another sealed module imported from
  it refers to the copy;
- the builtins are a copy of the builtins module's names;
- every other module is a snapshot of its names (two levels: ``np.random.Generator``), except
  ``sys`` (the harness sets ``sys.stdout``) and ``builtins`` (the submission's own namespace).

No module holds these namespaces: code reaches them only by walking the object graph (a
frame's ``f_globals``, a function's ``__globals__``, ``gc.get_referrers``), which is not
bound here (docs/security.md, "The harness's own functions").
"""

from __future__ import annotations

import builtins
import types
from collections.abc import Sequence
from typing import Any

LIVE_MODULES = frozenset({"sys", "builtins"})
"""Modules kept as they are: the harness redirects ``sys.stdout``; the submission's
namespace is given the real builtins."""
SNAPSHOT_DEPTH = 2


class Snapshot(types.SimpleNamespace):
    """A module's names as they were when sealed; a name it did not hold yet (a submodule
    loaded later) is looked up in the module."""

    def __init__(self, module: types.ModuleType, depth: int) -> None:
        names = {
            name: snapshot(value, depth - 1) if _submodule(module, value) else value
            for name, value in vars(module).items()
        }
        super().__init__(**names)
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)


def _submodule(module: types.ModuleType, value: object) -> bool:
    return isinstance(value, types.ModuleType) and value.__name__.startswith(module.__name__ + ".")


def snapshot(module: types.ModuleType, depth: int = SNAPSHOT_DEPTH) -> Any:
    """``module``'s names as they are now, and its submodules' down to ``depth`` levels."""
    return Snapshot(module, depth) if depth > 0 else module


def seal(modules: Sequence[types.ModuleType]) -> list[dict[str, Any]]:
    """A private namespace for each of ``modules``, in their order (module doc)."""
    # A function takes its builtins from its globals when it is made: set them first.
    frozen_builtins = dict(vars(builtins))
    spaces = [{**vars(module), "__builtins__": frozen_builtins} for module in modules]
    copies: dict[int, types.FunctionType] = {}
    for module, space in zip(modules, spaces, strict=True):
        for value in vars(module).values():
            if _defined_in(value, module):
                copies[id(value)] = _copy(value, space)
            elif isinstance(value, type) and value.__module__ == module.__name__:
                _seal_methods(value, module, space, copies)
    for space in spaces:
        for name, value in space.items():
            if id(value) in copies:
                space[name] = copies[id(value)]
            elif isinstance(value, types.ModuleType) and value.__name__ not in LIVE_MODULES:
                space[name] = snapshot(value)
    return spaces


def _seal_methods(
    cls: type, module: types.ModuleType, space: dict[str, Any], copies: dict[int, Any]
) -> None:
    # The class itself is shared with the module: its plain methods are replaced in it by
    # copies over the private namespace (what they do is the same).
    for name, value in list(vars(cls).items()):
        if _defined_in(value, module):
            copies[id(value)] = _copy(value, space)
            setattr(cls, name, copies[id(value)])


def _defined_in(value: object, module: types.ModuleType) -> bool:
    return type(value) is types.FunctionType and value.__globals__ is vars(module)


def _copy(function: types.FunctionType, space: dict[str, Any]) -> types.FunctionType:
    copied = types.FunctionType(
        function.__code__, space, function.__name__, function.__defaults__, function.__closure__
    )
    copied.__kwdefaults__ = function.__kwdefaults__
    copied.__qualname__ = function.__qualname__
    copied.__dict__.update(function.__dict__)
    return copied
