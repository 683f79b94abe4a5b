"""The precision family: a function computed in single precision (float32), its inputs and
result rounded to float32, or its integer inputs converted to float64.

A learner casts to float32 "to save memory" or gets float32 from a library default, and
casts back at the end or not: either way every value carries float32's rounding (about seven
significant digits), which the cases' float64 tolerances do not forgive. One mutant casts
each float64 array the function receives (also inside a tuple or list, such as a cache) to
float32 on entry, through :data:`SINGLE_HELPER`; where float32 arithmetic itself loses more
than the inputs' rounding (an expansion that cancels), a learner who only subtracts and
squares float32 inputs gets another output, which the second mutant gives: the inputs and the
result rounded to float32 (:data:`ROUNDED_HELPER`), the arithmetic between them in float64.
Both mean the same to a learner; the diagnosis compares a float32 output at float32
precision.

A learner who converts integers to floats (to negate them, to divide) loses the integers
float64 cannot hold (beyond 2**53, neighbours become equal): the third mutant converts every
integer array argument to float64 on entry (:data:`FLOATS_HELPER`). Each mutant gets its
helper's source appended.
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
ROUNDED_HELPER = "_numjudge_rounded"
ROUNDED_SOURCE = (
    f"\n\ndef {ROUNDED_HELPER}(value):\n"
    "    import numpy\n"
    "    if isinstance(value, tuple | list):\n"
    f"        return type(value)({ROUNDED_HELPER}(v) for v in value)\n"
    "    if isinstance(value, numpy.ndarray) and value.dtype == numpy.float64:\n"
    "        return value.astype(numpy.float32).astype(numpy.float64)\n"
    "    return value\n"
)
FLOATS_HELPER = "_numjudge_floats"
FLOATS_SOURCE = (
    f"\n\ndef {FLOATS_HELPER}(value):\n"
    "    import numpy\n"
    "    if isinstance(value, tuple | list):\n"
    f"        return type(value)({FLOATS_HELPER}(v) for v in value)\n"
    "    if isinstance(value, numpy.ndarray) and value.dtype.kind in 'iu':\n"
    "        return value.astype(numpy.float64)\n"
    "    return value\n"
)
SINGLE_MEANING = (
    "computed in single precision (float32, about 7 significant digits) where the cases need "
    "double precision: keep every array in float64 from the inputs to the result"
)


def precision_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """The function's array arguments made float32 on entry, rounded to float32 with its
    result, or made float64 where they hold integers."""
    if isinstance(node, ast.FunctionDef) and arguments(node):
        yield Variant(Operator.SINGLE_PRECISION, "", SINGLE_MEANING, in_single_precision)
        yield Variant(Operator.SINGLE_PRECISION, "rounded", SINGLE_MEANING, rounded_to_single)
        yield Variant(
            Operator.INTEGERS_AS_FLOATS,
            "",
            "computed with integers converted to floats, where float64 tells integers apart "
            "only up to 2**53 (larger neighbours become equal): keep integer inputs as "
            "integers",
            integers_as_floats,
        )


def arguments(function: ast.FunctionDef) -> list[str]:
    """The names a caller passes (a method's ``self`` apart)."""
    return [a.arg for a in function.args.args if a.arg not in ("self", "cls")]


def converted_on_entry(function: ast.FunctionDef, helper: str) -> ast.FunctionDef:
    """``def f(x, w): ...`` made ``def f(x, w): x = helper(x); w = helper(w); ...``, after
    the docstring (which stays the function's first statement)."""
    casts: list[ast.stmt] = [
        ast.Assign(
            [ast.Name(name, ast.Store())],
            ast.Call(ast.Name(helper, ast.Load()), [ast.Name(name, ast.Load())], []),
        )
        for name in arguments(function)
    ]
    docstring = 1 if ast.get_docstring(function) is not None else 0
    function.body[docstring:docstring] = casts
    return function


def in_single_precision(node: ast.AST) -> ast.AST | None:
    """Every float64 array argument made float32 on entry."""
    return converted_on_entry(node, SINGLE_HELPER) if isinstance(node, ast.FunctionDef) else None


def rounded_to_single(node: ast.AST) -> ast.AST | None:
    """Every float64 array argument and every returned one rounded to float32 (their dtype
    kept), not the function's nested functions' returns."""
    if not isinstance(node, ast.FunctionDef):
        return None
    pending = list(ast.iter_child_nodes(node))
    while pending:
        inner = pending.pop()
        if isinstance(inner, ast.FunctionDef | ast.Lambda):
            continue
        if isinstance(inner, ast.Return) and inner.value is not None:
            inner.value = ast.Call(ast.Name(ROUNDED_HELPER, ast.Load()), [inner.value], [])
        pending.extend(ast.iter_child_nodes(inner))
    return converted_on_entry(node, ROUNDED_HELPER)


def integers_as_floats(node: ast.AST) -> ast.AST | None:
    """Every integer array argument made float64 on entry."""
    return converted_on_entry(node, FLOATS_HELPER) if isinstance(node, ast.FunctionDef) else None
