"""The sandbox channel's encoding: JSON headers plus raw array buffers, never pickle.

A frame is ``>I`` header length, the UTF-8 JSON header, then the raw buffers the header
lists in ``"buffers"`` (their byte sizes). Values inside a header are small JSON trees:

- ``{"t": "nd", "dtype": "<f8", "shape": [2, 3], "b": 0}`` an ndarray (buffer 0),
  with ``"scalar": true`` for a numpy scalar;
- ``{"t": "py", "v": 1.5}`` a Python bool, int, float, str or None;
  ``{"t": "complex", "v": [re, im]}``;
- ``{"t": "tuple" | "list", "items": [...]}``;
- ``{"t": "dict", "keys": ["w", "b"], "items": [...]}`` a plain dict with string keys, in
  its order (a dict subclass is foreign: its methods are the sender's code);
- ``{"t": "generator", "state": [state, inc, has_uint32, uinteger]}`` a
  ``numpy.random.Generator`` over ``PCG64`` (the integers of its bit generator's state);
- ``{"t": "function", "name": "quadratic", "source": "def quadratic(x): ..."}`` an author's
  function as an input (``graders.values.InputFunction``), only from the trusted side: the
  sandbox re-creates it from its source (``live_function``); a peer that decodes a sandbox's
  values refuses it (``decode_value(functions=False)``);
- ``{"t": "foreign", "type": "dict", "detail": "..."}`` anything else, described, not sent.

Only numeric dtypes cross the channel: object, string and structured arrays are refused.
Which frames the two sides exchange, and in which order, is described at the top of
``graders/sandbox/harness.py``.
"""

from __future__ import annotations

import builtins
import functools
import json
import math
import socket
import struct
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from graders.errors import FrameTooLarge, HeaderTooComplex, WireError
from graders.values import (
    FUNCTION_BUILTINS,
    MAX_FUNCTION_SOURCE_CHARS,
    Foreign,
    GeneratorState,
    InputFunction,
)

HEADER = struct.Struct(">I")
MAX_HEADER_BYTES = 4 * 1024 * 1024
NUMERIC_KINDS = frozenset("biufc")
MAX_VALUE_NESTING = 18
"""How deeply tuples and lists in a value from a sandbox may nest."""
MAX_HEADER_DEPTH = 4 + 2 * MAX_VALUE_NESTING
"""How deeply a counted header (``recv_frame``'s ``headers``) may nest JSON objects and arrays:
a results frame takes 4 (frame, results, result, value), each tuple or list of a value 2
more (its node and its items)."""
COUNTED = (b'"', b",", b"[", b"{")
NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[]{}"')))
BRACES_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")


def qualified_type_name(value: object) -> str:
    cls = type(value)
    module = cls.__module__
    return cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"


def encode_value(value: object, buffers: list[bytes | memoryview]) -> dict[str, Any]:
    """Describe ``value`` as a JSON tree, appending array bytes to ``buffers``."""
    if isinstance(value, bool | int | str) or value is None:
        return {"t": "py", "v": value}
    if isinstance(value, float):
        return {"t": "py", "v": value}
    if isinstance(value, complex):
        return {"t": "complex", "v": [value.real, value.imag]}
    if isinstance(value, np.generic):
        return _encode_array(np.asarray(value), buffers, scalar=True)
    if type(value) is np.ndarray:
        return _encode_array(value, buffers, scalar=False)
    if isinstance(value, np.ndarray):
        return {
            "t": "foreign",
            "type": qualified_type_name(value),
            "detail": "a subclass of numpy.ndarray",
        }
    if isinstance(value, tuple | list):
        return {
            "t": "tuple" if isinstance(value, tuple) else "list",
            "items": [encode_value(item, buffers) for item in value],
        }
    if isinstance(value, dict):
        return _encode_dict(value, buffers)
    state = generator_state(value)
    if state is not None:
        return {"t": "generator", "state": list(state)}
    if type(value) is InputFunction:
        return {"t": "function", "name": value.name, "source": value.source}
    return {"t": "foreign", "type": qualified_type_name(value), "detail": ""}


def _encode_dict(value: dict[Any, Any], buffers: list[bytes | memoryview]) -> dict[str, Any]:
    # Only a plain dict with plain string keys: a subclass's items() or a key's __eq__ and
    # __hash__ would be the sender's code deciding what the other side reads.
    if type(value) is not dict:
        return {
            "t": "foreign",
            "type": qualified_type_name(value),
            "detail": "a subclass of dict",
        }
    if not all(type(key) is str for key in value):
        return {"t": "foreign", "type": "dict", "detail": "a dict whose keys are not all strings"}
    return {
        "t": "dict",
        "keys": list(value),
        "items": [encode_value(item, buffers) for item in value.values()],
    }


def generator_state(value: object) -> GeneratorState | None:
    """The state of ``value`` if it is a ``numpy.random.Generator`` over ``PCG64`` (exact types:
    no method of a subclass runs), else None."""
    if type(value) is not np.random.Generator or type(value.bit_generator) is not np.random.PCG64:
        return None
    state: Mapping[str, Any] = value.bit_generator.state
    return (
        int(state["state"]["state"]),
        int(state["state"]["inc"]),
        int(state["has_uint32"]),
        int(state["uinteger"]),
    )


def _encode_array(
    array: np.ndarray, buffers: list[bytes | memoryview], *, scalar: bool
) -> dict[str, Any]:
    if array.dtype.kind not in NUMERIC_KINDS:
        return {
            "t": "foreign",
            "type": "numpy.ndarray",
            "detail": f"an array of dtype {array.dtype}, which is not numeric",
        }
    # np.ascontiguousarray would turn a 0-d array into shape (1,).
    contiguous = array if array.flags.c_contiguous else array.copy(order="C")
    buffers.append(contiguous.data.cast("B") if contiguous.nbytes else b"")
    node: dict[str, Any] = {
        "t": "nd",
        "dtype": contiguous.dtype.str,
        "shape": list(contiguous.shape),
        "b": len(buffers) - 1,
    }
    if scalar:
        node["scalar"] = True
    return node


def decode_value(
    node: Any, buffers: Sequence[bytes | memoryview], *, functions: bool = False
) -> Any:
    """Rebuild a value from its JSON tree, validating everything an untrusted peer sent.

    ``functions``: the values are inputs from the trusted side, whose author functions are
    re-created here (``live_function``); a side that reads a sandbox's values leaves it off,
    and a function among them is refused: it is never run there."""
    if not isinstance(node, dict):
        raise WireError("value is not an object")
    kind = node.get("t")
    if kind == "py":
        value = node.get("v")
        if not isinstance(value, bool | int | float | str) and value is not None:
            raise WireError("bad plain value")
        return value
    if kind == "complex":
        re_im = node.get("v")
        if not (
            isinstance(re_im, list)
            and len(re_im) == 2
            and all(isinstance(x, int | float) for x in re_im)
        ):
            raise WireError("bad complex value")
        return complex(re_im[0], re_im[1])
    if kind == "nd":
        return _decode_array(node, buffers)
    if kind in ("tuple", "list"):
        items = node.get("items")
        if not isinstance(items, list):
            raise WireError("bad sequence")
        decoded = [decode_value(item, buffers, functions=functions) for item in items]
        return tuple(decoded) if kind == "tuple" else decoded
    if kind == "dict":
        return _decode_dict(node, buffers, functions)
    if kind == "generator":
        return _decode_generator(node)
    if kind == "function":
        if not functions:
            raise WireError("a function among a sandbox's values")
        return live_function(_decode_function(node))
    if kind == "foreign":
        return Foreign(str(node.get("type", "?"))[:200], str(node.get("detail", ""))[:200])
    raise WireError(f"unknown value kind {kind!r}")


def _decode_dict(
    node: dict[str, Any], buffers: Sequence[bytes | memoryview], functions: bool
) -> dict[str, Any]:
    keys, items = node.get("keys"), node.get("items")
    if (
        not isinstance(keys, list)
        or not isinstance(items, list)
        or len(keys) != len(items)
        or not all(isinstance(key, str) for key in keys)
        or len(set(keys)) != len(keys)
    ):
        raise WireError("bad dict")
    return {
        key: decode_value(item, buffers, functions=functions)
        for key, item in zip(keys, items, strict=True)
    }


def _decode_function(node: dict[str, Any]) -> InputFunction:
    name, source = node.get("name"), node.get("source")
    if not (
        isinstance(name, str)
        and name.isidentifier()
        and isinstance(source, str)
        and len(source) <= MAX_FUNCTION_SOURCE_CHARS
    ):
        raise WireError("bad function")
    return InputFunction(name, source)


FUNCTION_FILE = "<function "
"""How the file name of a re-created author function begins (``<function quadratic>``)."""


def live_function(function: InputFunction) -> types.FunctionType:
    """The function ``function`` describes, re-created from its source in a namespace of its
    own: numpy, math and the pure builtins (``graders.values.FUNCTION_BUILTINS``), nothing of
    the module it was written in. In a sandbox it is learner-level code, as the submission is."""
    namespace: dict[str, Any] = {
        "__builtins__": {name: getattr(builtins, name) for name in FUNCTION_BUILTINS},
        "__name__": "cases",
        "np": np,
        "numpy": np,
        "math": math,
    }
    exec(compile(function.source, f"{FUNCTION_FILE}{function.name}>", "exec"), namespace)
    made = namespace[function.name]
    if not isinstance(made, types.FunctionType):
        raise WireError(f"{function.name} is not a function")
    return made


def live(value: Any) -> Any:
    """``value`` with each author function in it (in a list, tuple or dict too) re-created:
    the trusted side's calls get them as the sandbox's do."""
    if type(value) is InputFunction:
        return live_function(value)
    if type(value) in (list, tuple):
        return type(value)(live(item) for item in value)
    if type(value) is dict:
        return {key: live(item) for key, item in value.items()}
    return value


PCG64_LIMITS = (1 << 128, 1 << 128, 2, 1 << 32)
"""Exclusive upper bounds of a PCG64 state's numbers: state, increment, has_uint32,
uinteger."""


def checked_generator_state(numbers: Any) -> GeneratorState:
    """``numbers`` from an untrusted peer as a PCG64 state: a list of four ints, each within
    its bound (WireError if not)."""
    if not (
        isinstance(numbers, list)
        and len(numbers) == len(PCG64_LIMITS)
        and all(
            type(n) is int and 0 <= n < limit
            for n, limit in zip(numbers, PCG64_LIMITS, strict=False)
        )
    ):
        raise WireError("bad generator state")
    state, inc, has_uint32, uinteger = numbers
    return state, inc, has_uint32, uinteger


def _decode_generator(node: dict[str, Any]) -> np.random.Generator:
    state, inc, has_uint32, uinteger = checked_generator_state(node.get("state"))
    bits = np.random.PCG64(0)  # a fixed seed: no entropy drawn for a state replaced at once
    bits.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": has_uint32,
        "uinteger": uinteger,
    }
    return np.random.Generator(bits)


@functools.lru_cache(maxsize=64)
def numeric_dtype(text: str) -> np.dtype[Any]:
    """The dtype ``text`` names, if it is one that may cross the channel (WireError if not)."""
    dtype = np.dtype(text)
    if dtype.kind not in NUMERIC_KINDS or dtype.fields is not None:
        raise WireError(f"refused dtype {dtype}")
    return dtype


def _decode_array(node: dict[str, Any], buffers: Sequence[bytes | memoryview]) -> Any:
    try:
        dtype = numeric_dtype(str(node["dtype"]))
        shape = tuple(map(int, node["shape"]))
        data = buffers[int(node["b"])]
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise WireError(f"bad array header: {exc}") from None
    if min(shape, default=0) < 0 or math.prod(shape) * dtype.itemsize != len(data):
        raise WireError("array size does not match its buffer")
    array = np.frombuffer(data, dtype=dtype).reshape(shape)
    return array[()] if node.get("scalar") and array.ndim == 0 else array


def pack_frame(
    header: dict[str, Any], buffers: list[bytes | memoryview]
) -> list[bytes | memoryview]:
    """The pieces of one frame, ready for ``sendall`` one after another."""
    header = {**header, "buffers": [memoryview(b).nbytes for b in buffers]}
    encoded = json.dumps(header, separators=(",", ":")).encode()
    return [HEADER.pack(len(encoded)), encoded, *buffers]


SMALL_FRAME_BYTES = 1 << 20


def send_frame(
    sock: socket.socket, header: dict[str, Any], buffers: list[bytes | memoryview] | None = None
) -> None:
    send_pieces(sock, pack_frame(header, buffers or []))


def send_pieces(sock: socket.socket, pieces: list[bytes | memoryview]) -> None:
    """Send a packed frame: one system call when small, piece by piece when large."""
    if sum(memoryview(p).nbytes for p in pieces) <= SMALL_FRAME_BYTES:
        sock.sendall(b"".join(pieces))  # one system call for the common small frame
        return
    for piece in pieces:
        if memoryview(piece).nbytes:
            sock.sendall(piece)


def _read_exactly(reader: BinaryIO, size: int) -> bytes:
    data = reader.read(size)
    if data is None or len(data) < size:
        raise EOFError("channel closed")
    return data


def header_values(raw: bytes) -> int:
    """At most how many Python objects ``json.loads(raw)`` builds, counted without building one.

    Each value is charged to a byte before it: an array's item to the ``[`` or ``,`` before
    it, an object's key and value to the key's two quotes, the outermost value to the 1. Text
    that holds these bytes only raises the count. Four passes in C over the bytes: about 1 ms
    per MB.
    """
    return 1 + sum(raw.count(byte) for byte in COUNTED)


def header_depth_within(raw: bytes, limit: int) -> bool:
    """Whether the JSON objects and arrays of ``raw`` nest at most ``limit`` deep, or for text
    that is no JSON, whether its brackets outside strings do (it is refused either way).

    Strings are cut out of the bytes first (escaped backslashes, then escaped quotes, then
    every byte but brackets and quotes; what lies between two quotes is a string), braces
    become brackets (only the depth counts), then the innermost pairs are removed once per
    level. Only called on headers whose ``header_values`` fit the budget, which bounds the
    quotes ``split`` cuts at.
    """
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = unescaped.translate(BRACES_AS_BRACKETS, NOT_STRUCTURE)
    structure = b"".join(brackets.split(b'"')[::2])
    for _ in range(limit):
        if not structure:
            return True
        structure = structure.replace(b"[]", b"")
    return not structure


@dataclass
class HeaderBudget:
    """What the headers of a sandbox's frames may still hold, all frames together: parsing
    and decoding a header costs time in proportion to its bytes and its values."""

    bytes: int
    values: int
    """JSON values, as ``header_values`` counts them."""


def recv_frame(
    reader: BinaryIO, budget: list[int], headers: HeaderBudget | None = None
) -> tuple[dict[str, Any], list[memoryview]]:
    """Read one frame from a buffered reader of the channel (``sock.makefile("rb")``).

    ``budget[0]`` is the bytes still allowed and is decreased. ``headers``, given for frames
    from a sandbox, is decreased by each header, which must also nest at most
    ``MAX_HEADER_DEPTH`` deep: checked on the header's length and bytes before it is parsed,
    so a header refused costs no Python object. Raises EOFError on a clean close before a
    frame starts, HeaderTooComplex on a header over those limits, WireError on anything
    malformed or over budget.
    """
    header_size = reader.read(HEADER.size)
    if not header_size:
        raise EOFError("channel closed")
    if len(header_size) < HEADER.size:
        raise WireError("channel closed inside a frame")
    (length,) = HEADER.unpack(header_size)
    if length > MAX_HEADER_BYTES or length > budget[0]:
        raise FrameTooLarge(f"frame header of {length} bytes is over the limit")
    if headers is not None:
        if length > headers.bytes:
            raise HeaderTooComplex(f"a frame header of {length} bytes is over the limit")
        headers.bytes -= length
    budget[0] -= length
    try:
        raw = _read_exactly(reader, length)
    except EOFError:
        raise WireError("channel closed inside a frame") from None
    if headers is not None:
        count = header_values(raw)
        if count > headers.values:
            raise HeaderTooComplex(f"a frame header of up to {count} values is over the limit")
        headers.values -= count
        if not header_depth_within(raw, MAX_HEADER_DEPTH):
            raise HeaderTooComplex(f"a frame header nests deeper than {MAX_HEADER_DEPTH}")
    try:
        header = json.loads(raw)
    except ValueError as exc:
        raise WireError(f"frame header is not JSON: {exc}") from None
    sizes = header.get("buffers") if isinstance(header, dict) else None
    if not isinstance(sizes, list) or not all(isinstance(n, int) and n >= 0 for n in sizes):
        raise WireError("frame header lists no valid buffers")
    if sum(sizes) > budget[0]:
        raise FrameTooLarge(f"output of {sum(sizes)} bytes is over the limit")
    total = sum(sizes)
    budget[0] -= total
    try:
        payload = memoryview(_read_exactly(reader, total))  # one read, then views of it
    except EOFError:
        raise WireError("channel closed inside a frame") from None
    buffers = []
    for size in sizes:
        buffers.append(payload[:size])
        payload = payload[size:]
    return header, buffers
