"""The precision family: a function computed in single precision (float32).

A learner casts to float32 "to save memory" or gets float32 from a library default, and
casts back at the end or not: either way every value carries float32's rounding (about seven
significant digits), which the cases' float64 tolerances do not forgive. The mutant casts each
float64 array the function receives (also inside a tuple or list, such as a cache) to float32
on entry, through :data:`SINGLE_HELPER`, whose source (:data:`SINGLE_SOURCE`) it gets appended;
the diagnosis compares a float32 output at float32 precision.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator, Variant

SINGLE_HELPER = "_numjudge_single"
SINGLE_SOURCE = (
    f"\n\ndef {SINGLE_HELPER}(value):\n"
    "    import numpy\n"
    "    if isinstance(value, tuple | list):\n"
    f"        return type(value)({SINGLE_HELPER}(v) for v in value)\n"
    "    if isinstance(value, numpy.ndarray) and value.dtype == numpy.float64:\n"
    "        return value.astype(numpy.float32)\n"
    "    return value\n"
)


def precision_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """The function's array arguments made float32 on entry."""
    if isinstance(node, ast.FunctionDef) and arguments(node):
        yield Variant(
            Operator.SINGLE_PRECISION,
            "",
            "computed in single precision (float32, about 7 significant digits) where the "
            "cases need double precision: keep every array in float64 from the inputs to the "
            "result",
            in_single_precision,
        )


def arguments(function: ast.FunctionDef) -> list[str]:
    """The names a caller passes (a method's ``self`` apart)."""
    return [a.arg for a in function.args.args if a.arg not in ("self", "cls")]


def in_single_precision(node: ast.AST) -> ast.AST | None:
    """``def f(x, w): ...`` made ``def f(x, w): x = single(x); w = single(w); ...``, after
    the docstring (which stays the function's first statement)."""
    if not isinstance(node, ast.FunctionDef):
        return None
    casts: list[ast.stmt] = [
        ast.Assign(
            [ast.Name(name, ast.Store())],
            ast.Call(ast.Name(SINGLE_HELPER, ast.Load()), [ast.Name(name, ast.Load())], []),
        )
        for name in arguments(node)
    ]
    docstring = 1 if ast.get_docstring(node) is not None else 0
    node.body[docstring:docstring] = casts
    return node
