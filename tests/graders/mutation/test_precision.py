"""graders/mutation/precision.py: a function computed in float32."""

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
    variants = offered(precision_variants, SOURCE, entry="forward")
    assert [o.operator for o in variants] == [Operator.SINGLE_PRECISION] * 2
    forward, backward = (o.code or "" for o in variants)
    assert '"""x @ w, the cache."""\n    x = _numjudge_single(x)\n    w = _numjudge_single(w)' in (
        forward
    )
    assert "def backward(dout, cache):\n    dout = _numjudge_single(dout)\n    cache = " in backward


def test_the_mutant_computes_in_float32_inside_a_cache_too_and_leaves_other_values() -> None:
    (mutant,) = [
        m for m in make_mutants(SOURCE, "forward") if m.operator is Operator.SINGLE_PRECISION
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
    (variant,) = offered(precision_variants, source, entry="A")
    assert "params = _numjudge_single(params)" in (variant.code or "")
    assert "self = " not in (variant.code or "")
