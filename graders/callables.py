"""An author's functions as inputs: checked, and turned into data the sandbox re-creates.

A ``cases.py`` may give the learner's function a function of the author's as an input (a
gradient checker's ``f``). Only its source enters the sandbox, never the module it was written
in, another case or the reference: so it must be a plain top-level ``def`` that names nothing
but its arguments, numpy (``np``, ``numpy``), ``math`` and pure builtins
(``graders.values.FUNCTION_BUILTINS``). ``input_function`` checks that and returns the function
as an ``InputFunction``; both sides then call one re-created from that source
(``graders.sandbox.wire.live_function``), so the reference and the learner call the same code.
"""

from __future__ import annotations

import ast
import dis
import inspect
import math
import textwrap
import types
from collections.abc import Iterator
from typing import Any

import numpy as np

from graders.values import FUNCTION_BUILTINS, FUNCTION_MODULES, InputFunction

MODULES: dict[str, types.ModuleType] = {"np": np, "numpy": np, "math": math}
"""What each name of ``FUNCTION_MODULES`` must be in the author's module."""
FREE_NAME_OPS = frozenset(
    {"LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL", "LOAD_FROM_DICT_OR_GLOBALS"}
)
ADVICE = (
    "an input function is a plain top-level def that uses only its arguments, numpy "
    "(np), math and pure builtins; pass anything else it needs as an argument with a "
    "default (def f(x, scale=2.0))"
)


class NotShippable(ValueError):
    """A function the sandbox could not re-create as the author wrote it; the message says
    why, for the author."""


def input_function(function: Any) -> InputFunction:
    """``function`` as data the sandbox re-creates (``NotShippable`` if it cannot be)."""
    if not isinstance(function, types.FunctionType):
        raise NotShippable(f"{type(function).__name__} is not a function written with def")
    name = function.__name__
    if name == "<lambda>":
        raise NotShippable("a lambda")
    if function.__closure__:
        raise NotShippable(f"{name} closes over names of the function around it")
    if function.__qualname__ != name:
        raise NotShippable(f"{function.__qualname__} is defined inside a function or class")
    try:
        text = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        raise NotShippable(f"the source of {name} cannot be read") from None
    body = ast.parse(text).body
    node = body[0] if len(body) == 1 else None
    if not isinstance(node, ast.FunctionDef) or node.name != name:
        raise NotShippable(f"{name} is not written as def {name}(...)")
    if node.decorator_list:
        raise NotShippable(f"{name} is decorated")
    source = ast.unparse(_without_annotations(node))
    free = sorted(set(_free_names(compile(source, name, "exec"))) - {name})
    strange = [n for n in free if n not in FUNCTION_BUILTINS and n not in FUNCTION_MODULES]
    if strange:
        raise NotShippable(f"{name} uses {', '.join(strange)} from outside it")
    known = function.__globals__
    rebound = [n for n in free if n in MODULES and known.get(n, MODULES[n]) is not MODULES[n]]
    if rebound:
        raise NotShippable(f"{name} uses {', '.join(rebound)}, which is not that module there")
    return InputFunction(name, source)


def ship_functions(value: Any) -> Any:
    """``value`` with each function in it (in a list, tuple or dict too) as an
    ``InputFunction`` (``NotShippable`` for one that cannot be). Only plain containers are
    entered, the ones the channel carries: a subclass is left for the channel to refuse."""
    if type(value) in (list, tuple):
        return type(value)(ship_functions(item) for item in value)
    if type(value) is dict:
        return {key: ship_functions(item) for key, item in value.items()}
    if callable(value) and not isinstance(value, np.ndarray | np.generic):
        return input_function(value)
    return value


def holds_function(value: Any) -> bool:
    """Whether ``value`` is or holds (in a list, tuple or dict) an ``InputFunction``."""
    if type(value) in (list, tuple):
        return any(map(holds_function, value))
    if type(value) is dict:
        return any(map(holds_function, value.values()))
    return isinstance(value, InputFunction)


def _without_annotations(node: ast.FunctionDef) -> ast.FunctionDef:
    """The def without its annotations: they would be evaluated where it is re-created, and
    typing names are not there."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.arg):
            inner.annotation = None
        elif isinstance(inner, ast.FunctionDef):
            inner.returns = None
    return node


def _free_names(code: types.CodeType) -> Iterator[str]:
    """The names ``code`` and the code inside it read or write outside themselves."""
    for instruction in dis.get_instructions(code):
        if instruction.opname in FREE_NAME_OPS and isinstance(instruction.argval, str):
            yield instruction.argval
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _free_names(constant)
