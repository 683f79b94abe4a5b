"""graders/checks/diagnosis.py: when a known mistake is named, and the layout note."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from graders.checks.compare import Tolerance
from graders.checks.diagnosis import (
    CHECK_HINTS,
    EXPECTED,
    FLOAT_DTYPE_HINT,
    UNTOLD,
    Candidate,
    CaseTable,
    Observation,
    diagnose,
    diagnose_by_check,
    exception_kind,
    flatten,
)
from graders.results import DiagnosisSource, Failure

MISTAKE, MUTANT = DiagnosisSource.MISTAKE, DiagnosisSource.MUTANT
CANDIDATES = {
    "a": Candidate("a", "hint A", MISTAKE),
    "b": Candidate("b", "hint B", MISTAKE),
    "b_again": Candidate("b_again", "hint B", MISTAKE),
    "m": Candidate("m", "mutant M", MUTANT),
}


def table(expected: list[float], **outputs: list[float]) -> CaseTable:
    want = np.array(expected)
    arrays = {k: np.array(v) for k, v in outputs.items()}
    wrong = frozenset(k for k, v in arrays.items() if not np.allclose(v, want))
    return CaseTable.build(want, arrays, wrong, Tolerance())


# Two cases: "small" where a and b coincide (a single unit), "large" where they differ.
SMALL = table([1.0], a=[2.0], b=[2.0], b_again=[2.0], m=[3.0])
LARGE = table([1.0, 1.0], a=[2.0, 2.0], b=[2.0, 5.0], b_again=[2.0, 5.0], m=[1.0, 1.0])


def observed(
    name: str, case: CaseTable, value: list[float] | list[list[float]], passed: bool = False
) -> Observation:
    return Observation(name, case, np.array(value), passed)


def test_the_mistake_that_explains_every_failing_case() -> None:
    found = diagnose(
        CANDIDATES, [observed("small", SMALL, [2.0]), observed("large", LARGE, [2.0, 5.0])]
    )
    assert found is not None
    assert (found.hint, found.cases, found.source) == ("hint B", ("small", "large"), MISTAKE)


def test_a_coincidence_on_a_small_case_names_nothing() -> None:
    # The learner matches a and b on the single-unit case only: no hint at all.
    assert (
        diagnose(
            CANDIDATES, [observed("small", SMALL, [2.0]), observed("large", LARGE, [7.0, 7.0])]
        )
        is None
    )


def test_mistakes_with_different_hints_that_fit_alike_name_nothing() -> None:
    assert diagnose(CANDIDATES, [observed("small", SMALL, [2.0])]) is None


def test_a_candidate_wrong_where_the_learner_is_right_is_ruled_out() -> None:
    # Only the small case fails; a is wrong on the large case, which the learner passes, and
    # b as well: nothing is left.
    found = diagnose(
        CANDIDATES,
        [observed("small", SMALL, [2.0]), observed("large", LARGE, [1.0, 1.0], passed=True)],
    )
    assert found is None
    # The mutant is right on the large case, so it stays when the learner matches it.
    found = diagnose(
        CANDIDATES,
        [observed("small", SMALL, [3.0]), observed("large", LARGE, [1.0, 1.0], passed=True)],
    )
    assert found is not None and (found.hint, found.source) == ("mutant M", MUTANT)


def test_hand_written_mistakes_come_before_mutants() -> None:
    candidates = {**CANDIDATES, "m2": Candidate("m2", "mutant 2", MUTANT)}
    case = table([1.0], a=[2.0], m2=[2.0])
    found = diagnose(candidates, [observed("one", case, [2.0])])
    assert found is not None and (found.key, found.source) == ("a", MISTAKE)


def test_a_python_number_and_a_numpy_scalar_of_equal_value_match() -> None:
    # The mistake returns a numpy integer, the learner a Python int of the same value: the
    # type check tells them apart, the diagnosis must not.
    case = CaseTable.build(
        61, {"a": np.int32(-7), "b": np.float64(2.5)}, frozenset({"a", "b"}), Tolerance()
    )
    found = diagnose(CANDIDATES, [Observation("large layer", case, -7, passed=False)])
    assert found is not None
    assert (found.hint, found.cases) == ("hint A", ("large layer",))
    assert case.matching(flatten(2.5)) == {"b"}
    # A numpy scalar equal to the expected Python int has the right value.
    assert case.matching(flatten(np.int64(61))) == {""}


def test_booleans_and_arrays_stay_apart_from_numbers() -> None:
    flats = [flatten(value) for value in (1, True, np.bool_(True), np.array(1.0))]
    assert len({flat[0] for flat in flats if flat is not None}) == 3 and None not in flats
    one, single = flatten(1), flatten(np.float32(1.0))
    assert one is not None and single is not None and one[0] == single[0]


def test_dicts_match_in_any_key_order_and_none_is_a_value() -> None:
    expected = ({"w": np.ones(2), "b": np.zeros(1)}, None)
    case = CaseTable.build(
        expected,
        {"a": ({"b": np.ones(1), "w": np.ones(2)}, None), "b": ({"w": np.ones(2)}, None)},
        frozenset({"a", "b"}),
        Tolerance(),
    )
    learner = ({"w": np.ones(2), "b": np.ones(1)}, None)
    assert case.matching(flatten(learner)) == {"a"}
    assert case.matching(flatten(({"b": np.zeros(1), "w": np.ones(2)}, None))) == {""}
    assert case.matching(flatten(({"w": np.ones(2)}, np.zeros(1)))) == set()
    # Keys are part of the structure: the same numbers under other keys match nothing.
    assert case.matching(flatten(({"w": np.ones(2), "c": np.ones(1)}, None))) == set()


def test_one_check_failed_on_right_values_is_named_in_fixed_words() -> None:
    found = diagnose_by_check(
        [("small", Failure.CHANGED_INPUT), ("large", Failure.CHANGED_INPUT)],
        [observed("small", SMALL, [1.0]), observed("large", LARGE, [1.0, 1.0])],
    )
    assert found is not None
    assert (found.hint, found.cases, found.source, found.key) == (
        CHECK_HINTS[Failure.CHANGED_INPUT],
        ("small", "large"),
        DiagnosisSource.CHECK,
        "changed_input",
    )


def test_no_check_is_named_where_the_runner_stopped_a_call_before_its_values() -> None:
    # An array replaced instead of updated in place is changed_input, but no value was judged.
    stopped = Observation("small", SMALL, None, False, "NotUpdatedInPlace")
    assert diagnose_by_check([("small", Failure.CHANGED_INPUT)], [stopped]) is None


def test_no_check_is_named_when_the_failures_differ_or_say_nothing_of_a_cause() -> None:
    assert (
        diagnose_by_check([("small", Failure.CHANGED_INPUT), ("large", Failure.WARNING)], [])
        is None
    )
    for vague in (Failure.VALUES, Failure.EXCEPTION, Failure.TIME_LIMIT, Failure.CRASHED):
        assert diagnose_by_check([("small", vague)], [observed("small", SMALL, [2.0])]) is None


def test_a_wrong_type_is_named_only_when_its_values_are_right() -> None:
    # The type check runs before the values: 1 (an int) for 1.0 has the right value...
    right = Observation("small", SMALL, np.array([1]), False)
    found = diagnose_by_check([("small", Failure.WRONG_TYPE)], [right])
    assert found is not None and found.key == "wrong_type"
    # ...a wrong value, or no value at all, names nothing.
    assert (
        diagnose_by_check([("small", Failure.WRONG_TYPE)], [observed("small", SMALL, [2.0])])
        is None
    )
    assert diagnose_by_check([("small", Failure.WRONG_DTYPE)], []) is None


def test_a_float_dtype_mix_up_names_both_dtypes() -> None:
    def returned(dtype: str, expected: tuple[str, ...] = ("float64",)) -> Observation:
        return Observation(
            "small", SMALL, np.array([1.0], dtype=dtype), False, None, frozenset(), {}, expected
        )

    single = diagnose_by_check([("small", Failure.WRONG_DTYPE)], [returned("float32")])
    assert single is not None
    assert single.hint == FLOAT_DTYPE_HINT.format(got="float32", expected="float64")
    assert "float32 where the statement asks for float64" in single.hint
    # An int array where floats belong, or no expected dtype known (a hidden case): the
    # general hint, which names no dtype.
    for other in (returned("int64"), returned("float32", ())):
        general = diagnose_by_check([("small", Failure.WRONG_DTYPE)], [other])
        assert general is not None and general.hint == CHECK_HINTS[Failure.WRONG_DTYPE]


# --- cases where the learner's code raised ------------------------------------------------

RAISING = {
    "swap": Candidate("swap", "matrix from the other side", MUTANT),
    "axis": Candidate("axis", "joined along the first axis", MUTANT),
    "wide": Candidate("wide", "raises on wide inputs", MUTANT),
}
# On a batch, swap and axis raise a ValueError, wide a TypeError; on a square batch, swap
# returns (a wrong value) where axis still raises.
ONE = table([1.0, 2.0])
BATCH = CaseTable.build(
    np.ones((2, 3)),
    {},
    frozenset(RAISING),
    Tolerance(),
    {"swap": "ValueError", "axis": "ValueError", "wide": "TypeError"},
)
SQUARE = CaseTable.build(
    np.ones((3, 3)),
    {"swap": np.zeros((3, 3))},
    frozenset(RAISING),
    Tolerance(),
    {"axis": "ValueError", "wide": "TypeError"},
)


def raised(name: str, case: CaseTable, exception: str) -> Observation:
    return Observation(name, case, None, False, exception)


def test_a_raised_case_is_explained_by_a_candidate_that_raised_the_same_type() -> None:
    found = diagnose(
        RAISING,
        [
            observed("one", ONE, [1.0, 2.0], passed=True),
            raised("batch", BATCH, "ValueError"),
            raised("square", SQUARE, UNTOLD),
        ],
    )
    assert found is not None and (found.key, found.cases) == ("axis", ("batch", "square"))


def test_a_candidate_that_returned_where_the_learner_raised_is_out_and_the_reverse() -> None:
    # The learner's square batch returned what swap returns: axis raised there.
    found = diagnose(
        RAISING,
        [
            raised("batch", BATCH, "ValueError"),
            observed("square", SQUARE, np.zeros((3, 3)).tolist()),
        ],
    )
    assert found is not None and found.key == "swap"
    # Another value on the square batch: swap does not explain it, and nothing else returned.
    assert (
        diagnose(
            RAISING,
            [
                raised("batch", BATCH, "ValueError"),
                observed("square", SQUARE, np.full((3, 3), 7.0).tolist()),
            ],
        )
        is None
    )


def test_a_raise_no_candidate_makes_leaves_the_mistake_its_returned_values_show() -> None:
    # The learner's code also fails on a third case (a second slip, whose own error it
    # reads): b is named for the cases where it returned, and for those only.
    third = table([1.0], a=[2.0], b=[4.0], b_again=[4.0], m=[3.0])
    returned = [observed("small", SMALL, [2.0]), observed("large", LARGE, [2.0, 5.0])]
    found = diagnose(CANDIDATES, [*returned, raised("third", third, "ValueError")])
    assert found is not None
    assert (found.hint, found.cases) == ("hint B", ("small", "large"))
    # One returned case alone can equal a candidate by chance: nothing is named.
    assert diagnose(CANDIDATES, [returned[0], raised("third", third, "ValueError")]) is None
    # A candidate that raises alike still comes first, with the raised case among its own.
    raising = {**CANDIDATES, "r": Candidate("r", "hint R", MISTAKE)}
    both = table([1.0], a=[2.0], b=[4.0], b_again=[4.0], m=[3.0])
    both = replace(both, raised={"r": "ValueError"}, wrong=both.wrong | {"r"})
    small = table([1.0], a=[2.0], b=[2.0], b_again=[2.0], m=[3.0], r=[2.0])
    large = table(
        [1.0, 1.0], a=[2.0, 2.0], b=[2.0, 5.0], b_again=[2.0, 5.0], m=[1.0, 1.0], r=[2.0, 5.0]
    )
    found = diagnose(
        raising,
        [
            observed("small", small, [2.0]),
            observed("large", large, [2.0, 5.0]),
            raised("third", both, "ValueError"),
        ],
    )
    assert found is not None and (found.key, found.cases) == ("r", ("small", "large", "third"))


def test_a_public_case_tells_the_type_a_hidden_one_does_not() -> None:
    # A KeyError on the public batch: no candidate raised one.
    assert (
        diagnose(
            RAISING,
            [observed("one", ONE, [1.0, 2.0], passed=True), raised("batch", BATCH, "KeyError")],
        )
        is None
    )
    # On a hidden case any exception may be the candidates': swap, axis and wide all fit and
    # their hints differ.
    assert (
        diagnose(
            RAISING, [observed("one", ONE, [1.0, 2.0], passed=True), raised("batch", BATCH, UNTOLD)]
        )
        is None
    )


def test_a_public_shape_error_is_matched_by_the_numpy_operation_that_failed() -> None:
    # Both raise a ValueError on the batch, but one from a matrix product, the other from a
    # concatenation; a learner whose broadcast failed there is neither.
    candidates = {"swap": RAISING["swap"], "axis": RAISING["axis"]}
    matmul = exception_kind(
        "ValueError",
        "matmul: Input operand 1 has a mismatch in its core "
        "dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?)",
    )
    concatenate = exception_kind(
        "ValueError",
        "all the input array dimensions except for the concatenation axis must match exactly",
    )
    broadcast = exception_kind(
        "ValueError", "operands could not be broadcast together with shapes (6,3) (3,3)"
    )
    assert len({matmul, concatenate, broadcast}) == 3
    assert exception_kind("KeyError", "'W'") == "KeyError"
    batch = CaseTable.build(
        np.ones((2, 3)),
        {},
        frozenset(candidates),
        Tolerance(),
        {"swap": matmul, "axis": concatenate},
    )
    learner_right = observed("one", ONE, [1.0, 2.0], passed=True)
    for kind, named in ((matmul, "swap"), (concatenate, "axis"), (broadcast, None)):
        found = diagnose(candidates, [learner_right, raised("batch", batch, kind)])
        assert (found.key if found else None) == named


def numpy_error(operation: Callable[[], object]) -> str:
    """The kind of the exception numpy raises for ``operation``, as a public case reports it."""
    try:
        operation()
    except ValueError as exc:
        return exception_kind(type(exc).__name__, str(exc))
    raise AssertionError("numpy raised nothing")


def test_a_public_shape_error_is_matched_by_the_shapes_that_do_not_fit() -> None:
    # gru-pytorch-port on a batch of 2 rows, D = 2, H = 3: the matrix applied from the other
    # side (weight_ih @ x) fits, and its (9, 2) result meets the bias (9,) in a broadcast. A
    # learner who sliced the gate blocks on the batch axis (gi[:H], gi[2 * H:]) fails a
    # broadcast too, of (2, 9) with (0, 9): another slip, so no hint.
    x, weight_ih, bias_ih = np.ones((2, 2)), np.ones((9, 2)), np.ones(9)
    swapped = numpy_error(lambda: weight_ih @ x + bias_ih)
    gi = x @ weight_ih.T + bias_ih
    blocks_on_batch = numpy_error(lambda: gi[6:] + gi[:3] * gi[6:])
    bias_first = numpy_error(lambda: bias_ih + weight_ih @ x)
    assert swapped.startswith("ValueError:broadcast:")
    assert blocks_on_batch.startswith("ValueError:broadcast:")
    batch = CaseTable.build(
        np.ones((2, 3)), {}, frozenset({"swap"}), Tolerance(), {"swap": swapped}
    )
    learner_right = observed("one", ONE, [1.0, 2.0], passed=True)
    swap = {"swap": RAISING["swap"]}
    assert diagnose(swap, [learner_right, raised("batch", batch, blocks_on_batch)]) is None
    # The same operands in the other order are the same slip.
    found = diagnose(swap, [learner_right, raised("batch", batch, bias_first)])
    assert found is not None and found.key == "swap"


def test_code_that_raises_everywhere_names_nothing() -> None:
    assert (
        diagnose(
            RAISING, [raised("batch", BATCH, "ValueError"), raised("square", SQUARE, "ValueError")]
        )
        is None
    )


# --- float32 ----------------------------------------------------------------------------

FLOAT32 = {
    "f32": Candidate("f32", "float32", MISTAKE),
    "clip": Candidate("clip", "clipped", MISTAKE),
    "same": Candidate("same", "equivalent", MUTANT),
}
EXACT = np.array([0.1234567891234, 0.9876543210987, 0.5555555555555])


def single(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float32).astype(np.float64)


def float32_table(expected: np.ndarray, **outputs: np.ndarray) -> CaseTable:
    wrong = frozenset(
        k for k, v in outputs.items() if not np.allclose(v, expected, rtol=1e-7, atol=1e-9)
    )
    return CaseTable.build(expected, outputs, wrong, Tolerance())


def test_float32_values_match_a_float32_mistake_at_float32_precision() -> None:
    # The learner's float32 rounding differs from the mistake's in the last digits.
    mistake = single(EXACT * (1 + 2e-7))
    learner = single(EXACT * (1 - 2e-7))
    case = float32_table(EXACT, f32=mistake, same=EXACT)
    assert case.matching(flatten(learner)) == set()
    found = diagnose(FLOAT32, [observed("case", case, learner.tolist())])
    assert found is not None and found.key == "f32"


def test_a_float64_near_miss_is_not_taken_for_float32() -> None:
    # Off by 3e-7 on one entry only, in float64: within float32 precision of the mistake, but
    # its numbers are no float32 values.
    clipped = EXACT + np.array([0.0, 3e-7, 0.0])
    case = float32_table(EXACT, f32=single(EXACT * (1 + 2e-7)))
    assert diagnose(FLOAT32, [observed("case", case, clipped.tolist())]) is None


def test_float32_rounding_that_passes_or_fails_by_chance_rules_nothing_out() -> None:
    # The learner's rounding passes the first case, the mistake's fails it; on the second
    # the mistake's passes and the learner's fails; on the last two both fail.
    passes = float32_table(EXACT, f32=single(EXACT * (1 + 3e-7)))
    fails = float32_table(2 * EXACT, f32=2 * EXACT)  # the mistake is right here
    tight = [float32_table(k * EXACT, f32=single(k * EXACT * (1 + 3e-7))) for k in (3, 4)]
    found = diagnose(
        FLOAT32,
        [
            observed("passes", passes, single(EXACT).tolist(), passed=True),
            observed("fails", fails, single(2 * EXACT * (1 - 3e-7)).tolist()),
            observed("tight", tight[0], single(3 * EXACT * (1 - 3e-7)).tolist()),
            observed("tighter", tight[1], single(4 * EXACT * (1 - 3e-7)).tolist()),
        ],
    )
    assert found is not None
    assert (found.key, found.cases) == ("f32", ("fails", "tight", "tighter"))


def clipped_cases(with_float32: bool) -> list[Observation]:
    """Three failing cases of a float32 learner; the last saturates, where a clipped sigmoid
    is off by 3e-7 (it is right on the others)."""
    saturated = EXACT.copy()
    saturated[1] = 1.0 - 1e-12
    found = []
    for number, expected in enumerate([EXACT, 2 * EXACT, saturated]):
        clipped = expected - np.array([0.0, 3e-7, 0.0]) if number == 2 else expected
        outputs = {"clip": clipped}
        if with_float32:
            outputs["f32"] = single(expected * (1 + 3e-7))
        learner = single(expected * (1 - 3e-7)) if number < 2 else single(expected)
        found.append(
            observed(f"case {number}", float32_table(expected, **outputs), learner.tolist())
        )
    return found


def test_a_float64_near_miss_right_on_most_cases_is_no_float32_mistake() -> None:
    # The clipped sigmoid fits the float32 learner on every case, but is wrong on too few of
    # its failing cases to be what the learner did, unlike the float32 mistake.
    found = diagnose(FLOAT32, clipped_cases(with_float32=True))
    assert found is not None and found.key == "f32"
    assert diagnose(FLOAT32, clipped_cases(with_float32=False)) is None


def test_a_candidate_right_on_every_failing_case_is_never_named() -> None:
    # Every failing case is within float32 precision of the expected output: the equivalent
    # mutant is right everywhere, and no mistake is wrong anywhere.
    case = float32_table(EXACT, same=EXACT)
    assert diagnose(FLOAT32, [observed("case", case, single(EXACT * (1 - 3e-7)).tolist())]) is None


# Where each call leaves its generator argument: the reference draws, "copied" draws from a
# copy (the caller's generator stays where it was), "fresh" draws from its own generator.
DRAWN, UNMOVED = {"rng": (5, 1, 0, 0)}, {"rng": (4, 1, 0, 0)}
GENERATOR_CANDIDATES = {
    "copied": Candidate("copied", "hint copied", MISTAKE),
    "fresh": Candidate("fresh", "hint fresh", MISTAKE),
    "m": Candidate("m", "mutant M", MUTANT),
}


def generator_table(expected: list[float]) -> CaseTable:
    want = np.array(expected)
    outputs = {"copied": want, "fresh": want + 1, "m": want + 2}
    moved = {EXPECTED: DRAWN, "copied": UNMOVED, "fresh": UNMOVED}
    return CaseTable.build(want, outputs, frozenset(outputs), Tolerance(), generators=moved)


def test_right_values_from_a_copy_of_the_generator_are_told_by_where_it_was_left() -> None:
    cases = [generator_table([1.0]), generator_table([1.0, 2.0])]
    copied = [
        Observation(
            f"case {i}",
            case,
            case.expected[1] if case.expected else None,
            False,
            generators=UNMOVED,
        )
        for i, case in enumerate(cases)
    ]
    found = diagnose(GENERATOR_CANDIDATES, copied)
    assert found is not None and (found.hint, found.source) == ("hint copied", MISTAKE)
    # Right values, the generator where the reference leaves it: the case rules "copied" out.
    right = Observation("case 0", cases[0], np.array([1.0]), True, generators=DRAWN)
    assert diagnose(GENERATOR_CANDIDATES, [right, copied[1]]) is None
    # An extra draw: right values, the generator where no candidate leaves it.
    extra = {"rng": (6, 1, 0, 0)}
    assert diagnose(GENERATOR_CANDIDATES, [replace(o, generators=extra) for o in copied]) is None


def test_a_mutants_generator_is_taken_to_be_left_where_the_reference_leaves_it() -> None:
    case = generator_table([1.0])
    mutant = Observation("case", case, np.array([3.0]), False, generators=DRAWN)
    found = diagnose(GENERATOR_CANDIDATES, [mutant])
    assert found is not None and found.hint == "mutant M"


def test_a_non_finite_number_equals_any_other_non_finite_one() -> None:
    # An underflow made NaN (0 / 0) in the candidate and -inf (log 0) in the learner's code.
    small = table([1.0, 2.0], a=[np.nan, 2.0], b=[np.nan, 3.0], b_again=[np.nan, 3.0], m=[1.0, 9.0])
    large = table(
        [1.0, 1.0, 1.0],
        a=[4.0, np.inf, 1.0],
        b=[4.0, 5.0, 1.0],
        b_again=[4.0, 5.0, 1.0],
        m=[1.0] * 3,
    )
    found = diagnose(
        CANDIDATES,
        [observed("small", small, [-np.inf, 2.0]), observed("large", large, [4.0, np.nan, 1.0])],
    )
    assert found is not None and found.hint == "hint A"
    # A finite number is no non-finite one's equal.
    assert diagnose(CANDIDATES, [observed("small", small, [7.0, 2.0])]) is None
