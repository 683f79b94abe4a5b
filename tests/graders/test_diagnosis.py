"""graders/diagnosis.py: when a known mistake is named, and the layout note."""

from __future__ import annotations

import numpy as np

from graders.checks.arrays import Tolerance
from graders.diagnosis import (
    CHECK_HINTS,
    Candidate,
    CaseTable,
    Observation,
    diagnose,
    diagnose_by_check,
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


def observed(name: str, case: CaseTable, value: list[float], passed: bool = False
             ) -> Observation:
    return Observation(name, case, np.array(value), passed)


def test_the_mistake_that_explains_every_failing_case() -> None:
    found = diagnose(CANDIDATES, [observed("small", SMALL, [2.0]),
                                  observed("large", LARGE, [2.0, 5.0])])
    assert found is not None
    assert (found.hint, found.cases, found.source) == ("hint B", ("small", "large"), MISTAKE)


def test_a_coincidence_on_a_small_case_names_nothing() -> None:
    # The learner matches a and b on the single-unit case only: no hint at all.
    assert diagnose(CANDIDATES, [observed("small", SMALL, [2.0]),
                                 observed("large", LARGE, [7.0, 7.0])]) is None


def test_mistakes_with_different_hints_that_fit_alike_name_nothing() -> None:
    assert diagnose(CANDIDATES, [observed("small", SMALL, [2.0])]) is None


def test_a_candidate_wrong_where_the_learner_is_right_is_ruled_out() -> None:
    # Only the small case fails; a is wrong on the large case, which the learner passes, and
    # b as well: nothing is left.
    found = diagnose(CANDIDATES, [observed("small", SMALL, [2.0]),
                                  observed("large", LARGE, [1.0, 1.0], passed=True)])
    assert found is None
    # The mutant is right on the large case, so it stays when the learner matches it.
    found = diagnose(CANDIDATES, [observed("small", SMALL, [3.0]),
                                  observed("large", LARGE, [1.0, 1.0], passed=True)])
    assert found is not None and (found.hint, found.source) == ("mutant M", MUTANT)


def test_hand_written_mistakes_come_before_mutants() -> None:
    candidates = {**CANDIDATES, "m2": Candidate("m2", "mutant 2", MUTANT)}
    case = table([1.0], a=[2.0], m2=[2.0])
    found = diagnose(candidates, [observed("one", case, [2.0])])
    assert found is not None and (found.key, found.source) == ("a", MISTAKE)


def test_a_python_number_and_a_numpy_scalar_of_equal_value_match() -> None:
    # The mistake returns a numpy integer, the learner a Python int of the same value: the
    # type check tells them apart, the diagnosis must not.
    case = CaseTable.build(61, {"a": np.int32(-7), "b": np.float64(2.5)}, frozenset({"a", "b"}),
                           Tolerance())
    found = diagnose(CANDIDATES, [Observation("large layer", case, -7, passed=False)])
    assert found is not None
    assert (found.hint, found.cases) == ("hint A", ("large layer",))
    assert case.matching(flatten(2.5)) == {"b"}
    # A numpy scalar equal to the expected Python int has the right value.
    assert case.matching(flatten(np.int64(61))) == {""}


def test_booleans_and_arrays_stay_apart_from_numbers() -> None:
    signatures = {flatten(value)[0] for value in (1, True, np.bool_(True), np.array(1.0))
                  if flatten(value) is not None}
    assert len(signatures) == 3
    assert flatten(1)[0] == flatten(np.float32(1.0))[0]


def test_one_check_failed_on_right_values_is_named_in_fixed_words() -> None:
    found = diagnose_by_check([("small", Failure.CHANGED_INPUT), ("large", Failure.CHANGED_INPUT)],
                              [observed("small", SMALL, [1.0]),
                               observed("large", LARGE, [1.0, 1.0])])
    assert found is not None
    assert (found.hint, found.cases, found.source, found.key) == (
        CHECK_HINTS[Failure.CHANGED_INPUT], ("small", "large"), DiagnosisSource.CHECK,
        "changed_input")


def test_no_check_is_named_when_the_failures_differ_or_say_nothing_of_a_cause() -> None:
    assert diagnose_by_check([("small", Failure.CHANGED_INPUT), ("large", Failure.WARNING)],
                             []) is None
    for vague in (Failure.VALUES, Failure.EXCEPTION, Failure.TIME_LIMIT, Failure.CRASHED):
        assert diagnose_by_check([("small", vague)], [observed("small", SMALL, [2.0])]) is None


def test_a_wrong_type_is_named_only_when_its_values_are_right() -> None:
    # The type check runs before the values: 1 (an int) for 1.0 has the right value...
    right = Observation("small", SMALL, np.array([1]), False)
    found = diagnose_by_check([("small", Failure.WRONG_TYPE)], [right])
    assert found is not None and found.key == "wrong_type"
    # ...a wrong value, or no value at all, names nothing.
    assert diagnose_by_check([("small", Failure.WRONG_TYPE)],
                             [observed("small", SMALL, [2.0])]) is None
    assert diagnose_by_check([("small", Failure.WRONG_DTYPE)], []) is None
