"""graders/sandbox/wire.py: values and frames on the sandbox channel (JSON headers, raw buffers)."""

from __future__ import annotations

import json
import math
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from graders.api import FrameTooLarge, WireError
from graders.sandbox.wire import (
    MAX_HEADER_BYTES,
    decode_value,
    encode_value,
    pack_frame,
    recv_frame,
    send_frame,
)
from graders.values import Foreign

BIG = 1 << 30


@pytest.fixture
def channel() -> Iterator[tuple[socket.socket, socket.socket]]:
    ours, theirs = socket.socketpair()
    ours.settimeout(10)
    theirs.settimeout(10)
    yield ours, theirs
    ours.close()
    theirs.close()


def read_frame(sock: socket.socket, budget: list[int]) -> tuple[dict[str, Any], list[memoryview]]:
    """One frame from ``sock`` through a reader that is closed again (no socket left open)."""
    with sock.makefile("rb") as reader:
        return recv_frame(reader, budget)


def through_channel(value: Any) -> Any:
    """Encode ``value``, send it as a frame over a real socket pair, read and decode it."""
    buffers: list[bytes | memoryview] = []
    node = encode_value(value, buffers)
    ours, theirs = socket.socketpair()
    with ours, theirs:
        sender = threading.Thread(target=send_frame, args=(ours, {"value": node}, buffers))
        sender.start()
        header, received = read_frame(theirs, [BIG])
        sender.join()
    assert json.loads(json.dumps(header)) == header
    return decode_value(header["value"], received)


def assert_same_array(got: Any, want: np.ndarray) -> None:
    assert type(got) is np.ndarray
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# --- round trips --------------------------------------------------------------------------

DTYPES = [
    "?",
    "i1",
    "i2",
    "i4",
    "i8",
    "u1",
    "u2",
    "u4",
    "u8",
    "f2",
    "f4",
    "f8",
    "g",
    "c8",
    "c16",
    ">f8",
    ">i4",
    "<u2",
]
SHAPES = [(0,), (1,), (5,), (2, 3), (0, 3), (3, 0, 2), (2, 1, 4)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_array_round_trip(dtype: str, shape: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(shape) * 31 + DTYPES.index(dtype))
    values = np.asarray(rng.normal(size=shape) * 50)
    if dtype == "?":
        array = values > 0
    elif dtype.startswith("c"):
        array = (values + 1j * values[::-1]).astype(dtype)
    else:
        array = values.astype(dtype)
    assert array.shape == shape
    assert_same_array(through_channel(array), array)


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a[::2],
        lambda a: a[:, ::-1],
        lambda a: a.T,
        lambda a: np.asfortranarray(a),
        lambda a: a[1:, 2:4],
        lambda a: np.broadcast_to(a[:1], (5, 6)),
        lambda a: a.reshape(6, 5)[:, 0],
    ],
    ids=["step", "reversed", "transposed", "fortran", "slice", "broadcast", "column"],
)
def test_non_contiguous_round_trip(make: Any) -> None:
    view = make(np.arange(30.0).reshape(5, 6))
    assert not view.flags.c_contiguous
    assert_same_array(through_channel(view), np.array(view))


def test_special_floats_round_trip() -> None:
    array = np.array([np.nan, np.inf, -np.inf, -0.0, 5e-324, 1.7976931348623157e308])
    got = through_channel(array)
    assert got.tobytes() == array.tobytes()


NUMPY_SCALARS = [
    np.float64(1.5),
    np.float32(-2.25),
    np.float16(0.5),
    np.int8(-7),
    np.int64(2**62),
    np.uint64(2**64 - 1),
    np.bool_(True),
    np.complex64(1 - 2j),
    np.complex128(3 + 4j),
]


def test_numpy_scalars_round_trip_as_scalars() -> None:
    # np.sum(mask) is an np.int64 and np.float32(x) a float32 scalar: each must arrive as a
    # scalar of its type (np.float64 and np.complex128 may arrive as Python float / complex,
    # their base classes), never as an array.
    wrong = []
    for scalar in NUMPY_SCALARS:
        got = through_channel(scalar)
        want_type = (
            float
            if isinstance(scalar, float)
            else (complex if isinstance(scalar, complex) else type(scalar))
        )
        if type(got) is not want_type or got != scalar:
            wrong.append(f"{scalar!r} -> {got!r}")
    assert wrong == []


def test_zero_dimensional_array_stays_a_zero_dimensional_array() -> None:
    for dtype in ("f8", "i4", "?", "c16"):
        array = np.ones((), dtype=dtype)
        assert_same_array(through_channel(array), array)


@pytest.mark.parametrize(
    "value", [True, False, 0, -3, 10**30, 1.5, -0.0, "text", "", "ünïcødé ✓", None, 1e308]
)
def test_python_scalar_round_trip(value: Any) -> None:
    got = through_channel(value)
    assert type(got) is type(value)
    assert got == value


def test_python_special_floats_round_trip() -> None:
    assert math.isnan(through_channel(float("nan")))
    assert through_channel(float("inf")) == float("inf")
    assert through_channel(float("-inf")) == float("-inf")


@pytest.mark.parametrize("value", [1 + 2j, complex(0, -1), complex(float("inf"), 0)])
def test_complex_round_trip(value: complex) -> None:
    got = through_channel(value)
    assert type(got) is complex
    assert got == value


def test_tuples_and_lists_round_trip_nested() -> None:
    value = (np.arange(3.0), [1, (2.5, None), "s"], (), [np.zeros((0, 2), dtype=np.int32)])
    got = through_channel(value)
    assert type(got) is tuple and len(got) == 4
    assert_same_array(got[0], np.arange(3.0))
    assert got[1] == [1, (2.5, None), "s"]
    assert type(got[1][1]) is tuple
    assert got[2] == ()
    assert type(got[3]) is list
    assert_same_array(got[3][0], np.zeros((0, 2), dtype=np.int32))


class Thing:
    pass


class MyArray(np.ndarray):
    pass


class Grads(dict[str, Any]):
    pass


@pytest.mark.parametrize(
    ("value", "foreign"),
    [
        ({1: "a"}, Foreign("dict", "a dict whose keys are not all strings")),
        (Grads(a=1), Foreign(f"{__name__}.Grads", "a subclass of dict")),
        ({1, 2}, Foreign("set")),
        (object(), Foreign("object")),
        (Thing(), Foreign(f"{__name__}.Thing")),
        (range(3), Foreign("range")),
        (b"bytes", Foreign("bytes")),
        (np.ma.array([1.0]), Foreign("numpy.ma.MaskedArray", "a subclass of numpy.ndarray")),
        (np.zeros(2).view(MyArray), Foreign(f"{__name__}.MyArray", "a subclass of numpy.ndarray")),
        (
            np.array([1, "a"], dtype=object),
            Foreign("numpy.ndarray", "an array of dtype object, which is not numeric"),
        ),
        (
            np.array(["ab", "c"]),
            Foreign("numpy.ndarray", "an array of dtype <U2, which is not numeric"),
        ),
        (
            np.zeros(2, dtype=[("x", "f8")]),
            Foreign("numpy.ndarray", "an array of dtype [('x', '<f8')], which is not numeric"),
        ),
    ],
    ids=[
        "dict-int-keys",
        "dict-subclass",
        "set",
        "object",
        "class",
        "range",
        "bytes",
        "masked",
        "subclass",
        "object-array",
        "str-array",
        "structured",
    ],
)
def test_foreign_values_are_described_not_sent(value: Any, foreign: Foreign) -> None:
    buffers: list[bytes | memoryview] = []
    node = encode_value(value, buffers)
    assert buffers == []
    assert node == {"t": "foreign", "type": foreign.type_name, "detail": foreign.detail}
    assert through_channel(value) == foreign


def test_foreign_inside_a_tuple() -> None:
    assert through_channel((np.ones(1), {2: "k"})) == (
        np.ones(1),
        Foreign("dict", "a dict whose keys are not all strings"),
    )


def test_a_dict_of_arrays_crosses_in_its_order() -> None:
    w, b = np.arange(6.0).reshape(2, 3), np.zeros(3, np.int32)
    got = through_channel({"w": w, "b": b, "n": [1, None]})
    assert type(got) is dict
    assert list(got) == ["w", "b", "n"]
    assert_same_array(got["w"], w)
    assert_same_array(got["b"], b)
    assert got["n"] == [1, None]


class TrickKey(str):
    def __eq__(self, other: object) -> bool:
        raise AssertionError("a key's __eq__ ran")

    def __hash__(self) -> int:
        return 0


class Hostile(dict[str, Any]):
    """What a learner's dict subclass can do to a reader that trusts its methods."""

    def items(self) -> Any:
        raise AssertionError("items() ran")

    def keys(self) -> Any:
        raise AssertionError("keys() ran")

    def __iter__(self) -> Any:
        raise AssertionError("__iter__ ran")

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"__getattr__({name}) ran")


def test_a_dict_subclass_and_tricky_keys_are_foreign_without_running_their_code() -> None:
    assert through_channel(Hostile(a=np.ones(2))) == Foreign(
        f"{__name__}.Hostile", "a subclass of dict"
    )
    assert through_channel({TrickKey("a"): 1}) == Foreign(
        "dict", "a dict whose keys are not all strings"
    )


def test_a_generator_crosses_in_its_state() -> None:
    rng = np.random.default_rng(7)
    rng.normal(size=3)
    got = through_channel(rng)
    assert type(got) is np.random.Generator
    assert got.normal(size=4).tolist() == rng.normal(size=4).tolist()


def test_only_a_pcg64_generator_crosses() -> None:
    other = np.random.Generator(np.random.MT19937(1))
    assert through_channel(other) == Foreign("numpy.random._generator.Generator")


@pytest.mark.parametrize(
    "node",
    [
        {"t": "dict", "keys": ["a"], "items": []},
        {"t": "dict", "keys": ["a", "a"], "items": [{"t": "py", "v": 1}] * 2},
        {"t": "dict", "keys": [1], "items": [{"t": "py", "v": 1}]},
        {"t": "dict", "keys": "ab", "items": [{"t": "py", "v": 1}] * 2},
        {"t": "generator", "state": [1, 2, 0]},
        {"t": "generator", "state": [1 << 128, 1, 0, 0]},
        {"t": "generator", "state": [-1, 1, 0, 0]},
        {"t": "generator", "state": [1, 1, True, 0]},
        {"t": "generator", "state": [1.0, 1, 0, 0]},
        {"t": "generator", "state": [1, 1, 0, 1 << 32]},
    ],
    ids=[
        "dict-short",
        "dict-twice",
        "dict-int-key",
        "dict-keys-string",
        "gen-short",
        "gen-big",
        "gen-negative",
        "gen-bool",
        "gen-float",
        "gen-uinteger",
    ],
)
def test_malformed_dicts_and_generators_are_refused(node: dict[str, Any]) -> None:
    with pytest.raises(WireError):
        decode_value(node, [])


def test_encoding_shape_of_the_tree() -> None:
    buffers: list[bytes | memoryview] = []
    node = encode_value((np.zeros((2, 3), dtype=">i4"), np.zeros(1, np.float32), 2, 1j), buffers)
    assert node == {
        "t": "tuple",
        "items": [
            {"t": "nd", "dtype": ">i4", "shape": [2, 3], "b": 0},
            {"t": "nd", "dtype": "<f4", "shape": [1], "b": 1},
            {"t": "py", "v": 2},
            {"t": "complex", "v": [0.0, 1.0]},
        ],
    }
    assert [memoryview(b).nbytes for b in buffers] == [24, 4]


def test_encoding_of_a_numpy_scalar() -> None:
    buffers: list[bytes | memoryview] = []
    node = encode_value(np.float32(1), buffers)
    assert node == {"t": "nd", "dtype": "<f4", "shape": [], "b": 0, "scalar": True}


def test_decoded_arrays_do_not_share_memory_with_the_sender() -> None:
    array = np.arange(4.0)
    buffers: list[bytes | memoryview] = []
    node = encode_value(array, buffers)
    got = decode_value(node, [bytes(b) for b in buffers])
    array[0] = 99.0
    assert got[0] == 0.0


# --- decode refuses what an untrusted peer may send ---------------------------------------


def decode_error(node: Any, buffers: list[bytes] | None = None) -> str:
    with pytest.raises(WireError) as raised:
        decode_value(node, buffers or [])
    return str(raised.value)


@pytest.mark.parametrize(
    ("dtype", "size"), [("|O", 8), ("<U1", 4), ("|S4", 4), ("|V8", 8), ("<M8[D]", 8), ("<m8[s]", 8)]
)
def test_decode_refuses_non_numeric_dtypes(dtype: str, size: int) -> None:
    message = decode_error({"t": "nd", "dtype": dtype, "shape": [1], "b": 0}, [b"\0" * size])
    assert message == f"refused dtype {np.dtype(dtype)}"


def test_decode_refuses_a_size_mismatch() -> None:
    node = {"t": "nd", "dtype": "<f8", "shape": [2], "b": 0}
    assert decode_error(node, [b"\0" * 8]) == "array size does not match its buffer"
    assert decode_error(node, [b"\0" * 24]) == "array size does not match its buffer"
    negative = {"t": "nd", "dtype": "<f8", "shape": [-1, -2], "b": 0}
    assert decode_error(negative, [b"\0" * 16]) == "array size does not match its buffer"


@pytest.mark.parametrize(
    "node",
    [
        {"t": "nd", "shape": [1], "b": 0},
        {"t": "nd", "dtype": "<f8", "b": 0},
        {"t": "nd", "dtype": "<f8", "shape": [1]},
        {"t": "nd", "dtype": "<f8", "shape": [1], "b": 3},
        {"t": "nd", "dtype": "not a dtype", "shape": [1], "b": 0},
        {"t": "nd", "dtype": "<f8", "shape": None, "b": 0},
        {"t": "nd", "dtype": "<f8", "shape": [["x"]], "b": 0},
    ],
)
def test_decode_refuses_bad_array_headers(node: dict[str, Any]) -> None:
    assert decode_error(node, [b"\0" * 8]).startswith("bad array header: ")


@pytest.mark.parametrize(
    ("node", "message"),
    [
        ([1, 2], "value is not an object"),
        ("x", "value is not an object"),
        ({"t": "pickle", "v": "gASV"}, "unknown value kind 'pickle'"),
        ({"v": 1}, "unknown value kind None"),
        ({"t": "py", "v": [1]}, "bad plain value"),
        ({"t": "py", "v": {"a": 1}}, "bad plain value"),
        ({"t": "complex", "v": [1.0]}, "bad complex value"),
        ({"t": "complex", "v": ["1", 2]}, "bad complex value"),
        ({"t": "tuple", "items": "abc"}, "bad sequence"),
        ({"t": "list"}, "bad sequence"),
        (
            {"t": "tuple", "items": [{"t": "py", "v": 1}, {"t": "eval"}]},
            "unknown value kind 'eval'",
        ),
    ],
)
def test_decode_refuses_bad_kinds(node: Any, message: str) -> None:
    assert decode_error(node) == message


def test_decode_truncates_foreign_descriptions() -> None:
    got = decode_value({"t": "foreign", "type": "x" * 1000, "detail": "y" * 1000}, [])
    assert got == Foreign("x" * 200, "y" * 200)


# --- frames -------------------------------------------------------------------------------


def test_pack_frame_layout() -> None:
    pieces = pack_frame({"kind": "task"}, [b"abc", memoryview(b"de")])
    header = b'{"kind":"task","buffers":[3,2]}'
    assert pieces[:2] == [struct.pack(">I", len(header)), header]
    assert [bytes(p) for p in pieces[2:]] == [b"abc", b"de"]


def test_frames_in_sequence_and_budget_accounting(
    channel: tuple[socket.socket, socket.socket],
) -> None:
    ours, theirs = channel
    send_frame(ours, {"kind": "a"}, [b"12345"])
    send_frame(ours, {"kind": "b"})
    ours.close()
    budget = [1000]
    with theirs.makefile("rb") as reader:
        header, buffers = recv_frame(reader, budget)
        assert (header, list(map(bytes, buffers))) == ({"kind": "a", "buffers": [5]}, [b"12345"])
        first_header = len(b'{"kind":"a","buffers":[5]}')
        assert budget == [1000 - first_header - 5]
        assert recv_frame(reader, budget) == ({"kind": "b", "buffers": []}, [])
        with pytest.raises(EOFError):
            recv_frame(reader, budget)


def test_large_frame(channel: tuple[socket.socket, socket.socket]) -> None:
    ours, theirs = channel
    big = np.arange(600_000, dtype=np.float64)  # 4.8 MB: more than one socket buffer
    sender = threading.Thread(target=send_frame, args=(ours, {"k": 1}, [big.data]))
    sender.start()
    header, buffers = read_frame(theirs, [BIG])
    sender.join()
    assert header == {"k": 1, "buffers": [big.nbytes]}
    np.testing.assert_array_equal(np.frombuffer(buffers[0]), big)


def test_clean_close_raises_eof(channel: tuple[socket.socket, socket.socket]) -> None:
    ours, theirs = channel
    ours.close()
    with pytest.raises(EOFError):
        read_frame(theirs, [BIG])


def raw_frame_error(
    channel: tuple[socket.socket, socket.socket], data: bytes, budget: int = BIG
) -> str:
    ours, theirs = channel
    ours.sendall(data)
    ours.close()
    with pytest.raises(WireError) as raised:
        read_frame(theirs, [budget])
    return str(raised.value)


def test_close_inside_the_length_prefix(channel: tuple[socket.socket, socket.socket]) -> None:
    assert raw_frame_error(channel, b"\0\0") == "channel closed inside a frame"


def test_close_inside_the_header(channel: tuple[socket.socket, socket.socket]) -> None:
    assert raw_frame_error(channel, struct.pack(">I", 50) + b'{"bu') == (
        "channel closed inside a frame"
    )


def test_close_inside_a_buffer(channel: tuple[socket.socket, socket.socket]) -> None:
    header = b'{"buffers":[10]}'
    assert raw_frame_error(channel, struct.pack(">I", len(header)) + header + b"12345") == (
        "channel closed inside a frame"
    )


def test_header_over_the_budget(channel: tuple[socket.socket, socket.socket]) -> None:
    header = b'{"buffers":[]}'
    assert raw_frame_error(channel, struct.pack(">I", len(header)) + header, budget=10) == (
        f"frame header of {len(header)} bytes is over the limit"
    )


def test_header_over_the_absolute_limit(channel: tuple[socket.socket, socket.socket]) -> None:
    size = MAX_HEADER_BYTES + 1
    assert raw_frame_error(channel, struct.pack(">I", size)) == (
        f"frame header of {size} bytes is over the limit"
    )


def test_buffers_over_the_budget(channel: tuple[socket.socket, socket.socket]) -> None:
    header = b'{"buffers":[400,400]}'
    frame = struct.pack(">I", len(header)) + header
    assert raw_frame_error(channel, frame, budget=len(header) + 799) == (
        "output of 800 bytes is over the limit"
    )


def test_budget_exactly_enough(channel: tuple[socket.socket, socket.socket]) -> None:
    ours, theirs = channel
    header = b'{"buffers":[4]}'
    ours.sendall(struct.pack(">I", len(header)) + header + b"abcd")
    budget = [len(header) + 4]
    header_read, buffers = read_frame(theirs, budget)
    assert (header_read, list(map(bytes, buffers))) == ({"buffers": [4]}, [b"abcd"])
    assert budget == [0]


def test_budget_is_shared_across_frames(channel: tuple[socket.socket, socket.socket]) -> None:
    ours, theirs = channel
    for _ in range(3):
        send_frame(ours, {}, [b"x" * 100])
    budget = [2 * (len(b'{"buffers":[100]}') + 100) + 50]
    with theirs.makefile("rb") as reader:
        recv_frame(reader, budget)
        recv_frame(reader, budget)
        with pytest.raises(FrameTooLarge, match="over the limit"):
            recv_frame(reader, budget)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (b"not json", "frame header is not JSON: "),
        (b"[1, 2]", "frame header lists no valid buffers"),
        (b'{"kind": "x"}', "frame header lists no valid buffers"),
        (b'{"buffers": [-1]}', "frame header lists no valid buffers"),
        (b'{"buffers": ["3"]}', "frame header lists no valid buffers"),
        (b'{"buffers": 3}', "frame header lists no valid buffers"),
    ],
)
def test_malformed_headers(
    channel: tuple[socket.socket, socket.socket], header: bytes, message: str
) -> None:
    error = raw_frame_error(channel, struct.pack(">I", len(header)) + header)
    assert error.startswith(message)
