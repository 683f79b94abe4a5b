"""graders/custom/costs.py: every constructor a learner may call is charged at least what numpy
allocates to build it, its result and its temporaries, checked on random calls."""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from graders.custom.parsing import DTYPES, parse_inputs
from graders.errors import CustomInputRefused

UNBOUNDED = 2**62
SLACK = 512 * 1024
"""What a call may allocate beyond its charge: numpy's iterator buffers (8 192 elements per
operand of a ufunc that casts), a constant the rules leave out."""


def one(text: str, cap: int = UNBOUNDED) -> Any:
    return parse_inputs({"x": text}, ("x",), cap)["x"]


def arrays_in(value: Any) -> list[np.ndarray]:
    if isinstance(value, np.ndarray):
        return [value]
    if isinstance(value, list | tuple):
        return [array for item in value for array in arrays_in(item)]
    return []


def allocated(text: str) -> tuple[Any, int]:
    """The value of ``text`` and the most bytes allocated at once while it was built (a second
    time: the first fills numpy's and Python's caches)."""
    one(text)
    tracemalloc.start()
    try:
        value = one(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return value, peak


dims = st.integers(0, 60)
shapes = st.one_of(dims.map(str), st.lists(dims, max_size=3).map(lambda d: repr(tuple(d))))
dtypes = st.one_of(st.just(""), st.sampled_from(sorted(DTYPES)).map(lambda d: f", dtype='{d}'"))
small_ints = st.integers(-50, 50)
reals = st.one_of(small_ints, st.floats(-50, 50).map(lambda f: round(f, 3)))
numbers = st.one_of(
    reals,
    st.booleans(),
    st.complex_numbers(max_magnitude=50, allow_nan=False, allow_infinity=False),
)


def rows(width: int) -> st.SearchStrategy[str]:
    """A list literal of ``width`` numbers."""
    return st.lists(numbers, min_size=width, max_size=width).map(lambda xs: repr([*xs]))


@st.composite
def endpoint(draw: st.DrawFn) -> str:
    """One end of np.linspace: a number, a list, or an array of a shape that broadcasts with
    a vector of up to 24 (or a column of it)."""
    width = draw(st.sampled_from([1, 3, 24, 200]))
    return draw(
        st.one_of(
            reals.map(repr),
            rows(width),
            st.just(f"np.zeros(({width}, 1))"),
            st.just(f"np.ones({width})"),
            dtypes.map(lambda d: f"np.arange({width}{d})"),
        )
    )


@st.composite
def calls(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["array", "zeros", "ones", "full", "eye", "arange", "linspace"]))
    dtype = draw(dtypes)
    match kind:
        case "array":
            width = draw(st.integers(0, 30))
            inner = draw(
                st.one_of(
                    rows(width),
                    st.just(f"[np.zeros({width}), np.arange({width})]"),
                    st.just(f"np.eye({width * 20})"),
                    st.just(f"[[{width}, 1.5], [True, 2j]]"),
                )
            )
            return f"np.array({inner}{dtype})"
        case "zeros" | "ones":
            return f"np.{kind}({draw(shapes)}{dtype})"
        case "full":
            width = draw(st.integers(1, 200))
            fill = draw(st.one_of(numbers.map(repr), rows(width), st.just(f"np.ones({width})")))
            return f"np.full(({draw(dims)}, {width}), {fill}{dtype})"
        case "eye":
            return f"np.eye({draw(dims)}, {draw(dims)}, k={draw(small_ints)}{dtype})"
        case "arange":
            start, stop = draw(reals), draw(reals)
            step = draw(reals.filter(lambda s: s != 0))
            return f"np.arange({start!r}, {stop!r}, {step!r}{dtype})"
        case _:
            num = draw(st.integers(0, 3000))
            endpoint_flag = draw(st.booleans())
            return (
                f"np.linspace({draw(endpoint())}, {draw(endpoint())}, num={num}, "
                f"endpoint={endpoint_flag}{dtype})"
            )


@pytest.mark.slow  # 400 calls, each built three times and one under tracemalloc: 5-20 s
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_no_call_builds_more_than_it_is_charged(text: str) -> None:
    """Whatever numpy built, and whatever it allocated at once on the way, a cap below it
    refuses the call: the charge is never less."""
    try:
        value, peak = allocated(text)
    except CustomInputRefused:
        event("refused")  # arguments numpy does not take (shapes that do not broadcast, ...)
        return
    event(text[: text.index("(")])
    built = sum(array.nbytes for array in arrays_in(value))
    for below in {built - 1, peak - SLACK - 1}:
        if below >= 0:
            with pytest.raises(CustomInputRefused, match="too large"):
                one(text, below)
