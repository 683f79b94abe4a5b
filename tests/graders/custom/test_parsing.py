"""graders/custom/parsing.py: a learner's inputs read without running anything."""

from __future__ import annotations

import contextlib
import tracemalloc

import numpy as np
import pytest

from graders.custom import parsing
from graders.custom.parsing import PARSE_BYTES_PER_CHAR, Call, parse_inputs
from graders.errors import CustomInputRefused

CAP = 8_000_000
"""Bytes reading the inputs may allocate: a million float64 numbers."""
FLOATS = CAP // 8


def one(text: str, cap: int = CAP) -> object:
    return parse_inputs({"x": text}, ("x",), cap)["x"]


def test_literals_and_containers() -> None:
    assert one("-1.5") == -1.5
    assert one("[1, 2.5, -3]") == [1, 2.5, -3]
    assert one("(True, None, 'relu')") == (True, None, "relu")
    assert one("{'a': [1, 2], 3: (4,)}") == {"a": [1, 2], 3: (4,)}
    assert one("  2e-3\n") == 0.002


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("np.array([[1, 2], [3, 4]])", np.array([[1, 2], [3, 4]])),
        ("numpy.array([1.0, -2.0], dtype=np.float32)", np.array([1.0, -2.0], dtype=np.float32)),
        ("np.zeros((2, 3))", np.zeros((2, 3))),
        ("np.ones(4, dtype='int32')", np.ones(4, dtype=np.int32)),
        ("np.full((2, 2), -7.5)", np.full((2, 2), -7.5)),
        ("np.eye(3, k=1)", np.eye(3, k=1)),
        ("np.eye(2, 3)", np.eye(2, 3)),
        ("np.arange(6)", np.arange(6)),
        ("np.arange(1, 2, 0.25)", np.arange(1, 2, 0.25)),
        ("np.linspace(0, 1, 5)", np.linspace(0, 1, 5)),
        ("np.linspace(0, 1, num=4, endpoint=False)", np.linspace(0, 1, 4, endpoint=False)),
        ("np.array([np.zeros(2), np.ones(2)])", np.array([[0.0, 0.0], [1.0, 1.0]])),
    ],
)
def test_numpy_constructors(text: str, expected: np.ndarray) -> None:
    value = one(text)
    assert isinstance(value, np.ndarray)
    assert value.dtype == expected.dtype
    np.testing.assert_array_equal(value, expected)


def test_inputs_come_in_the_functions_order() -> None:
    values = parse_inputs({"b": "np.zeros(2)", "W": "np.eye(2)"}, ("W", "b"), CAP)
    assert list(values) == ["W", "b"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("__import__('os').system('id')", "column 1: only np.array"),
        ("np.load('/etc/passwd')", "only np.array"),
        ("os.system('id')", "only np.array"),
        ("x", "column 1: a name is not allowed"),
        ("np.zeros", "an attribute is not allowed"),
        ("np.zeros(3).__class__", "an attribute is not allowed"),
        ("().__class__.__bases__[0]", "indexing is not allowed"),
        ("().__class__", "an attribute is not allowed"),
        ("[1, 2][0]", "indexing is not allowed"),
        ("2 ** 1000", "an operator"),
        ("[1] * 10**9", "an operator"),
        ("(lambda: 1)()", "only np.array"),
        ("[x for x in (1, 2)]", "a comprehension is not allowed"),
        ("f'{1}'", "an f-string is not allowed"),
        ("{1, 2}", "a set is not allowed"),
        ("np.zeros((2, 3), dtype=object)", "dtype is one of"),
        ("np.array([1, None])", "an array of numbers of one shape"),
        ("np.array([[1, 2], [3]])", "np.array"),
        ("np.zeros(-1)", "non-negative"),
        ("np.zeros(2.5)", "non-negative integer"),
        ("np.arange(0, 10, 0)", "step other than 0"),
        ("np.ones(3, order='F')", "keyword order is not allowed"),
        ("np.ones(*[3])", "unpacked"),
        ("np.ones(**{'shape': 3})", "** is not allowed"),
        ("-'a'", "a sign goes before a number"),
        ("[1, 2", "not a Python expression"),
        ("x = 1", "not a Python expression"),
        ("", "empty"),
        ("[" * 100 + "]" * 100, "nested"),
    ],
)
def test_refused_with_the_input_and_a_reason(text: str, words: str) -> None:
    with pytest.raises(CustomInputRefused, match=r"^input x") as refused:
        one(text)
    assert words in str(refused.value)


def test_the_position_is_named() -> None:
    with pytest.raises(CustomInputRefused, match="line 2, column 5: a name is not allowed"):
        one("[1,\n    y]")


@pytest.mark.parametrize(
    "text",
    [
        "np.zeros((100000, 100000))",
        f"np.ones({FLOATS + 1})",
        "np.full((1000, 1000, 1000), 1)",
        "np.arange(1e12)",
        f"np.linspace(0, 1, {FLOATS + 1})",
        "np.eye(1001)",
    ],
)
def test_sizes_are_capped_before_anything_is_built(text: str) -> None:
    with pytest.raises(CustomInputRefused, match=f"too large: .* may allocate at most {CAP:,} "):
        one(text)


def test_the_cap_holds_for_all_inputs_together() -> None:
    texts = {"a": f"np.zeros({FLOATS * 6 // 10})", "b": f"np.zeros({FLOATS * 6 // 10})"}
    with pytest.raises(CustomInputRefused, match="input b"):
        parse_inputs(texts, ("a", "b"), CAP)


def test_missing_and_unknown_inputs_are_named() -> None:
    with pytest.raises(CustomInputRefused, match="missing input"):
        parse_inputs({"a": "1"}, ("a", "b"), CAP)
    with pytest.raises(CustomInputRefused, match=r"unknown input.*z: the function takes a, b"):
        parse_inputs({"a": "1", "b": "2", "z": "3"}, ("a", "b"), CAP)


# A hostile learner's inputs: each cost the trusted side more than the cap says, or crashed it.
LONG_TEXT = "'" + "a" * 1000 + "'"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # 4 000 bytes per element: the cap's 8 388 608 elements of a 512 MB exercise made 32 GB
        (f"np.full(({CAP},), {LONG_TEXT})", "np.full: an array of numbers"),
        # 20 000 counted elements, each 4 000 bytes wide: 80 MB from 60 kB of text
        ("np.array([" + LONG_TEXT + "," + ",".join(['""'] * 20_000) + "])", "np.array: an array"),
        ("np.array([1, {}])", "np.array: an array of numbers"),
        # Objects inside a container escaped the check of the outermost value alone
        ("[np.array([1, None])]", "np.array: an array of numbers"),
        ("{'w': np.full(3, None)}", "np.full: an array of numbers"),
        # Python's int-to-text limit: the wire raised ValueError, a 500
        ("0x" + "f" * 100_000, "an integer must fit in 64 bits"),
        (str(2**64), "an integer must fit in 64 bits"),
        ("-" + str(2**63 + 1), "an integer must fit in 64 bits"),
        ("[np.full(3, " + str(2**70) + ")]", "an integer must fit in 64 bits"),
        # hash() raised TypeError while the dict was built: a 500
        ("{([1],): 1}", "a dict key is a number, a string or a tuple of them"),
        ("{(np.zeros(2),): 1}", "a dict key is a number, a string or a tuple of them"),
    ],
)
def test_what_would_cost_or_crash_the_trusted_side_is_refused(text: str, words: str) -> None:
    with pytest.raises(CustomInputRefused, match=r"^input x") as refused:
        one(text, 2**40)  # a cap the long texts' reading fits in: the reason is another
    assert words in str(refused.value)


def test_integers_at_64_bits_and_strings_outside_arrays_still_read() -> None:
    assert one(str(2**64 - 1)) == 2**64 - 1
    assert one(str(-(2**63))) == -(2**63)
    assert one("{'mode': 'train', (1, 2): [0.5]}") == {"mode": "train", (1, 2): [0.5]}
    value = one(f"np.array([{2**63}])")
    assert isinstance(value, np.ndarray)
    assert value.dtype == np.uint64


def test_linspace_is_charged_the_rows_it_builds_for_each_element_of_its_ends() -> None:
    """np.linspace(np.zeros(N), 1, num=N) builds N x num: the rule charged N + num, so two
    inputs of 0.1 MiB built 1 GiB (N = 11 585), and at the cap numpy asked for 116 TiB."""
    n = 2_000  # builds 32 MB; the arguments alone are 32 kB
    text = f"np.linspace(np.zeros({n}), 1, num={n})"
    with pytest.raises(CustomInputRefused, match="too large"):
        one(text, cap=100 * 2 * n * 8)
    value = one(text, cap=2**30)
    assert isinstance(value, np.ndarray)
    assert value.shape == (n, n)


def test_numpy_out_of_memory_is_a_refusal_that_says_so() -> None:
    """A cap above what the host has (an exercise's memory limit larger than the server's):
    numpy's MemoryError was a 500."""
    with pytest.raises(CustomInputRefused, match=r"np\.ones: the server could not find the"):
        one(f"np.ones({2**47})", cap=2**62)  # 1 PiB


def test_a_call_that_builds_more_than_its_charge_is_refused(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The second line of defence: a rule of costs.py that undercounts refuses, and logs."""
    monkeypatch.setitem(parsing.ALLOWED_CALLS, "zeros", Call(("shape",), lambda _: 8, np.zeros))
    with pytest.raises(CustomInputRefused, match=r"np\.zeros: built 80 bytes where 8 were counted"):
        one("np.zeros(10)")
    assert [r.getMessage() for r in caplog.records] == ["custom input built more than charged"]


@pytest.mark.parametrize("item", ["0", "-0", "a", "0:0", "()", "[0]", "np.zeros(0)"])
def test_reading_the_text_is_charged_what_the_syntax_tree_takes(item: str) -> None:
    """ast.parse allocates about 500 bytes per character of a list of one-character items:
    a 200 000-character input took 93 MiB, uncharged."""
    body = ",".join([item] * (5_000 // (len(item) + 1)))
    text = "{" + body + "}" if ":" in item else "[" + body + "]"
    tracemalloc.start()
    try:
        with contextlib.suppress(CustomInputRefused):  # a name is refused once parsed
            one(text, cap=2**40)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= len(text) * PARSE_BYTES_PER_CHAR
    with pytest.raises(CustomInputRefused, match=r"^input x: too large"):
        one(text, cap=peak)
