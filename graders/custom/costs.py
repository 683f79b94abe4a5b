"""What numpy allocates to build each array a learner's input may call for, in bytes, computed
from the call's arguments before numpy builds anything (graders/custom/parsing.py charges it).

A call's cost is its result's elements times their itemsize, plus every temporary numpy makes
on the way, each rule read from numpy's own code (2.x):

- ``np.array(object)``: the shape and dtype numpy would give ``object`` (lists, tuples and
  arrays of numbers of one shape), never an array of objects;
- ``np.zeros``/``np.ones(shape)``, ``np.eye(N, M)``: the shape, float64 unless told;
- ``np.full(shape, fill_value)``: the shape, in the fill's dtype unless told, and the fill as
  an array when it is a list (``asarray``);
- ``np.arange``: numpy's own length, ``ceil((stop - start) / step)``;
- ``np.linspace(start, stop, num)``: ``num`` times the broadcast size of ``start`` and
  ``stop`` (each row of the result is one of their elements), and on the way the ramp
  ``arange(num)``, then for arrays ``stop - start``, the step and its zero test, and the ramp
  times the step as a new array; a ``dtype`` other than the computation's is one more copy.
  The arguments' own sizes (``N + num``, the old rule) say nothing of this:
  ``np.linspace(np.zeros(N), 1, num=N)`` builds N × num.

The sum of a try's costs is what its inputs may allocate on the trusted side at most (its
peak is lower: temporaries are freed). ``tests/graders/custom/test_costs.py`` builds random
calls under ``tracemalloc`` and checks that numpy never allocated more than the cost.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from graders.errors import CustomInputRefused

NUMERIC_KINDS = frozenset("biufc")
NUMBERS_ONLY = (
    "an array of numbers of one shape was expected (ragged lists or mixed values make an "
    "array of objects)"
)
FLOAT = np.dtype(np.float64)
COMPLEX = np.dtype(np.complex128)
INT64_RANGE = range(-(2**63), 2**63)


def size_of(shape: Any, where: str) -> int:
    """The elements of an array of ``shape`` (an integer or a tuple or list of them)."""
    dims = shape if isinstance(shape, tuple | list) else (shape,)
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
        raise CustomInputRefused(f"{where}: a shape is a non-negative integer or a tuple of them")
    return math.prod(dims)


def shape_of(value: Any, where: str) -> tuple[int, ...]:
    """The shape ``np.asarray(value)`` would have; ``CustomInputRefused`` for anything but
    numbers, numeric arrays, and lists and tuples of them of one shape."""
    if isinstance(value, bool | int | float | complex):
        return ()
    if isinstance(value, np.ndarray) and value.dtype.kind in NUMERIC_KINDS:
        return tuple(value.shape)
    if isinstance(value, list | tuple):
        shapes = {shape_of(item, where) for item in value}
        if len(shapes) > 1:
            raise CustomInputRefused(f"{where}: {NUMBERS_ONLY}")
        return (len(value), *(shapes.pop() if shapes else ()))
    raise CustomInputRefused(f"{where}: {NUMBERS_ONLY}")


def dtype_of(value: Any) -> np.dtype[Any]:
    """The dtype ``np.asarray(value)`` would have, for a ``value`` ``shape_of`` accepts
    (integers past int64 and below 0 together make objects, refused once built)."""
    dtypes: set[np.dtype[Any]] = set()
    _leaf_dtypes(value, dtypes)
    return np.result_type(*dtypes) if dtypes else FLOAT


def _leaf_dtypes(value: Any, dtypes: set[np.dtype[Any]]) -> None:
    match value:
        case bool():
            dtypes.add(np.dtype(np.bool_))
        case int():
            dtypes.add(np.dtype(np.int64 if value in INT64_RANGE else np.uint64))
        case float():
            dtypes.add(FLOAT)
        case complex():
            dtypes.add(COMPLEX)
        case np.ndarray():
            dtypes.add(value.dtype)
        case list() | tuple():
            for item in value:
                _leaf_dtypes(item, dtypes)


def nbytes_of(value: Any, where: str) -> int:
    """The bytes of ``np.asarray(value)``."""
    return size_of(shape_of(value, where), where) * dtype_of(value).itemsize


def _asked(args: Mapping[str, Any], otherwise: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(args["dtype"]) if "dtype" in args else otherwise


def _copied(value: Any, where: str) -> int:
    """What numpy's ``asarray`` allocates for an argument: a list or tuple is built anew, an
    array or a number is not."""
    return nbytes_of(value, where) if isinstance(value, list | tuple) else 0


def array_cost(args: Mapping[str, Any]) -> int:
    obj = args["object"]
    shape = shape_of(obj, "np.array")
    return size_of(shape, "np.array") * _asked(args, dtype_of(obj)).itemsize


def zeros_cost(args: Mapping[str, Any]) -> int:
    """``np.zeros`` and ``np.ones``."""
    return size_of(args["shape"], "np.zeros") * _asked(args, FLOAT).itemsize


def full_cost(args: Mapping[str, Any]) -> int:
    fill = args["fill_value"]
    shape_of(fill, "np.full")  # numbers only, before numpy builds an array of strings
    result = size_of(args["shape"], "np.full") * _asked(args, dtype_of(fill)).itemsize
    return result + _copied(fill, "np.full")


def eye_cost(args: Mapping[str, Any]) -> int:
    return size_of((args["N"], args.get("M", args["N"])), "np.eye") * _asked(args, FLOAT).itemsize


def arange_cost(args: Mapping[str, Any]) -> int:
    start, stop, step = args.get("start", 0), args.get("stop"), args.get("step", 1)
    if stop is None:
        start, stop = 0, start
    if not all(isinstance(v, int | float) for v in (start, stop, step)) or step == 0:
        raise CustomInputRefused("np.arange takes numbers, with a step other than 0")
    length: int = max(0, math.ceil((stop - start) / step))  # numpy's own formula
    # Numbers that are not complex make int64 or float64 at most (bool, int8, ...: less).
    return length * _asked(args, FLOAT).itemsize


def linspace_cost(args: Mapping[str, Any]) -> int:
    start, stop = args["start"], args["stop"]
    num = size_of(args.get("num", 50), "np.linspace")  # a non-negative integer
    broadcast = np.broadcast_shapes(shape_of(start, "np.linspace"), shape_of(stop, "np.linspace"))
    width = size_of(broadcast, "np.linspace")
    inexact = (
        COMPLEX if "c" in (dtype_of(start).kind, dtype_of(stop).kind) else FLOAT
    ).itemsize  # numpy computes in float64 at most, complex128 for complex ends
    work = num * inexact  # arange(0, num): the result itself when the ends are numbers
    if broadcast:  # stop - start, the step, step == 0, then the ramp times the step anew
        work += 3 * width * inexact + num * width * inexact
    cast = num * width * np.dtype(args["dtype"]).itemsize if "dtype" in args else 0
    return _copied(start, "np.linspace") + _copied(stop, "np.linspace") + work + cast
