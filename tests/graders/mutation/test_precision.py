"""graders/mutation/precision.py: a function computed in float32, its inputs and result
rounded to float32, or its integers made floats."""

from __future__ import annotations

import numpy as np

from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from graders.mutation.precision import precision_variants
from tests.graders.mutation.helpers import offered

SOURCE = '''
import numpy as np


def forward(x, w):
    """x @ w, the cache."""
    return x @ w, (x, w)


def backward(dout, cache):
    x, w = cache
    return dout @ w.T, x.T @ dout
'''


def test_every_function_gets_its_arguments_cast_after_its_docstring() -> None:
    every = offered(precision_variants, SOURCE, entry="forward")
    assert {(o.operator, o.name) for o in every} == {
        (Operator.SINGLE_PRECISION, ""),
        (Operator.SINGLE_PRECISION, "rounded"),
        (Operator.INTEGERS_AS_FLOATS, ""),
    }
    variants = [o for o in every if o.operator is Operator.SINGLE_PRECISION and not o.name]
    assert len(variants) == 2
    forward, backward = (o.code or "" for o in variants)
    assert '"""x @ w, the cache."""\n    x = _numjudge_single(x)\n    w = _numjudge_single(w)' in (
        forward
    )
    assert "def backward(dout, cache):\n    dout = _numjudge_single(dout)\n    cache = " in backward


def test_the_mutant_computes_in_float32_inside_a_cache_too_and_leaves_other_values() -> None:
    (mutant,) = [
        m
        for m in make_mutants(SOURCE, "forward")
        if m.operator is Operator.SINGLE_PRECISION and not m.key.endswith("rounded")
    ][1:]
    namespace: dict[str, object] = {}
    exec(compile(mutant.source, "<mutant>", "exec"), namespace)
    x = np.array([[1.0 / 3.0, 2.0]])
    w = np.array([[1.0], [1e-9]])
    dx, dw = namespace["backward"](np.array([[1.0]]), (x, w))  # type: ignore[operator]
    assert dx.dtype == np.float32 and dw.dtype == np.float32
    assert dw[0, 0] == np.float32(1.0 / 3.0) and float(dw[0, 0]) != 1.0 / 3.0
    # Integers and numbers keep their type: only float64 arrays lose digits.
    kept = namespace["_numjudge_single"]([np.arange(2), 0.5])  # type: ignore[operator]
    assert kept[0].dtype == np.arange(2).dtype and kept[1] == 0.5


def test_a_method_is_cast_without_its_self() -> None:
    source = "class A:\n    def step(self, params):\n        return params\n"
    (variant,) = [
        o
        for o in offered(precision_variants, source, entry="A")
        if o.operator is Operator.SINGLE_PRECISION and not o.name
    ]
    assert "params = _numjudge_single(params)" in (variant.code or "")
    assert "self = " not in (variant.code or "")


def run(source: str, function: str, *args: object) -> object:
    namespace: dict[str, object] = {}
    exec(compile(source, "<mutant>", "exec"), namespace)
    return namespace[function](*args)  # type: ignore[operator]


def test_the_rounded_mutant_rounds_inputs_and_result_and_computes_in_float64_between() -> None:
    source = "def f(x, y):\n    return x - y\n"
    (mutant,) = [m for m in make_mutants(source, "f") if m.key.endswith(":rounded")]
    x, y = np.array([1e4 + 1.0 / 3.0]), np.array([1e4])
    out = run(mutant.source, "f", x, y)
    assert isinstance(out, np.ndarray) and out.dtype == np.float64
    # The inputs lost their digits beyond float32's: the difference keeps only those.
    assert out[0] == np.float32(np.float32(x[0]) - np.float32(y[0]))
    assert abs(out[0] - 1.0 / 3.0) > 1e-4


def test_integers_become_floats_and_lose_what_float64_cannot_hold() -> None:
    source = "def f(x):\n    return x - 1\n"
    (mutant,) = [m for m in make_mutants(source, "f") if m.operator is Operator.INTEGERS_AS_FLOATS]
    big = np.array([2**53 + 1])
    out = run(mutant.source, "f", big)
    assert isinstance(out, np.ndarray) and out.dtype == np.float64 and out[0] == 2.0**53 - 1
    floats = np.array([0.5])
    assert run(mutant.source, "f", floats)[0] == -0.5  # type: ignore[index]
