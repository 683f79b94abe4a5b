"""Similarity of answers (app/services/similarity.py): a planted copy among honest answers is
ranked first and flagged, the honest ones are not, and what the starter and the reference
share with every answer never counts."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from app.services.similarity import (
    MAX_ANSWER_CHARS,
    MIN_FLAGGED,
    NEAR_IDENTICAL,
    Answer,
    CpuBudget,
    ExerciseSimilarity,
    FlagKind,
    Measure,
    Pair,
    Reason,
    Segment,
    compare,
    distribution,
    reasons,
    segments,
)
from app.services.structure import structure
from tests.app.services.similarity_answers import (
    Hostile,
    disguised_copy,
    honest_answers,
    hostile_answer,
)

LAYER_NORM = Path(__file__).resolve().parents[3] / "exercises" / "layer-norm"
BOILERPLATE = tuple(
    (LAYER_NORM / name).read_text(encoding="utf-8") for name in ("starter.py", "solution.py")
)


def planted_class(seed: int) -> list[Answer]:
    """14 independent answers (no two alike at more than one step) and a disguised copy of
    the fourth."""
    codes = honest_answers(14, seed, shared_steps=1)
    answers = [Answer(f"learner-{i:02d}", f"s{i}", code) for i, code in enumerate(codes)]
    return [*answers, Answer("copier", "s-copy", disguised_copy(codes[3]))]


@pytest.mark.parametrize("seed", range(4))
def test_the_planted_pair_is_ranked_first_and_flagged_and_no_honest_pair_is(seed: int) -> None:
    report = compare("layer-norm", planted_class(seed), BOILERPLATE)
    assert report.answers == 15 and report.distribution.pairs == 15 * 14 // 2
    first = report.pairs[0]
    assert (first.learner_a, first.learner_b) == ("learner-03", "copier")
    assert (first.submission_a, first.submission_b) == ("s3", "s-copy")
    assert first.similarity == pytest.approx(1.0) and first.structure == pytest.approx(1.0)
    assert Reason(Measure.TOKENS, FlagKind.NEAR_IDENTICAL) in first.reasons
    assert Reason(Measure.STRUCTURE, FlagKind.NEAR_IDENTICAL) in first.reasons
    assert report.flagged == (first,)
    # The honest pairs are at or below every measure's fence.
    fences = fences_of(report)
    for pair in report.pairs[1:]:
        assert all(pair.measured(m) <= fence for m, fence in fences.items())
    assert [p.score for p in report.pairs] == sorted((p.score for p in report.pairs), reverse=True)


def fences_of(report: ExerciseSimilarity) -> dict[Measure, float]:
    assert report.structure_distribution and report.both_distribution
    return {
        Measure.TOKENS: report.distribution.fence,
        Measure.STRUCTURE: report.structure_distribution.fence,
        Measure.BOTH: report.both_distribution.fence,
    }


def test_the_regions_mark_the_copied_stretches_in_each_answer() -> None:
    answers = planted_class(0)
    original, copy = answers[3], answers[-1]
    first = compare("layer-norm", answers, BOILERPLATE).pairs[0]
    for answer, regions in ((original, first.regions_a), (copy, first.regions_b)):
        marked = "".join(s.text for s in segments(answer.code, regions) if s.matched)
        body = answer.code.split("-> np.ndarray:\n", 1)[1]
        # Every statement of the body is marked (the copy's renamed names too) ...
        for line in body.splitlines():
            if line.strip() and not line.strip().startswith("#"):
                assert line in marked, line
        # ... and the start of the header, which every answer shares, is not.
        assert "def layer_norm" not in marked and "import numpy" not in marked


def test_answers_that_are_the_reference_share_nothing_that_counts() -> None:
    reference = BOILERPLATE[1]
    report = compare(
        "layer-norm", [Answer("a", "sa", reference), Answer("b", "sb", reference)], BOILERPLATE
    )
    (pair,) = report.pairs
    assert pair.similarity == 0.0 and pair.structure == 0.0
    assert not pair.flagged and pair.regions_a == () and pair.fragments == ()


def test_a_report_round_trips_through_its_stored_form() -> None:
    report = compare("layer-norm", planted_class(1), BOILERPLATE)
    assert ExerciseSimilarity.from_dict(report.to_dict()) == report


def test_fewer_than_two_answers_make_no_pair_and_flag_nothing() -> None:
    report = compare("layer-norm", [Answer("a", "sa", "x = 1\n")], BOILERPLATE)
    assert report.pairs == () and report.distribution.pairs == 0


def test_the_fence_is_the_upper_quartile_plus_one_and_a_half_interquartile_ranges() -> None:
    spread = distribution([0.1, 0.2, 0.2, 0.3, 0.4, 0.9], floor=0.5)
    assert (spread.q1, spread.median, spread.q3) == pytest.approx((0.2, 0.25, 0.375))
    assert spread.tukey == spread.fence == pytest.approx(0.375 + 1.5 * 0.175)
    assert spread.histogram == (0, 1, 2, 1, 1, 0, 0, 0, 0, 1)


def test_the_fence_is_held_between_its_floor_and_near_identical() -> None:
    low = distribution([0.1, 0.2, 0.2, 0.3, 0.4, 0.9])
    assert low.tukey == pytest.approx(0.6375) and low.fence == MIN_FLAGGED
    # A class whose pairs spread widely puts Tukey's fence past 100 %: the fence stays at
    # NEAR_IDENTICAL, so identical answers are flagged whatever the rest.
    high = distribution([0.0] * 5 + [0.85] * 5 + [1.0])
    assert high.tukey > 1 and high.fence == NEAR_IDENTICAL
    fences = dict.fromkeys(Measure, high.fence)
    values = {Measure.TOKENS: 1.0, Measure.STRUCTURE: 0.95, Measure.BOTH: 0.975}
    assert reasons(values, fences) == tuple(Reason(m, FlagKind.NEAR_IDENTICAL) for m in Measure)
    assert reasons(dict.fromkeys(Measure, 0.89), fences) == ()


def test_an_identical_pair_is_flagged_in_a_class_of_alike_answers() -> None:
    """Answers alike at four of five steps put the tokens' Tukey fence high; a verbatim copy
    is flagged anyway, as near-identical by both measures."""
    codes = honest_answers(14, seed=7)
    answers = [Answer(f"learner-{i:02d}", f"s{i}", code) for i, code in enumerate(codes)]
    report = compare("layer-norm", [*answers, Answer("copier", "s-copy", codes[5])], BOILERPLATE)
    (pair,) = [p for p in report.pairs if p.learner_b == "copier" and p.learner_a == "learner-05"]
    assert pair.reasons[:2] == (
        Reason(Measure.TOKENS, FlagKind.NEAR_IDENTICAL),
        Reason(Measure.STRUCTURE, FlagKind.NEAR_IDENTICAL),
    )
    assert all(fence <= NEAR_IDENTICAL for fence in fences_of(report).values())


def test_a_report_stored_before_the_structure_reads_back_with_its_flags() -> None:
    stored = compare("layer-norm", planted_class(0), BOILERPLATE).to_dict()
    stored.pop("structure_distribution"), stored.pop("both_distribution"), stored.pop("unparsed")
    for pair in stored["pairs"]:
        for key in ("structure", "reasons", "fragments"):
            pair.pop(key)
        pair["flagged"] = (pair["learner_a"], pair["learner_b"]) == ("learner-03", "copier")
    old = ExerciseSimilarity.from_dict(stored)
    assert [p.learner_b for p in old.flagged] == ["copier"]
    assert old.flagged[0].reasons == (Reason(Measure.TOKENS, FlagKind.OUTLIER),)
    assert old.structure_distribution is None and old.pairs[0].structure == 0.0


def test_a_pair_keeps_the_statements_it_shares_and_where_they_are() -> None:
    answers = planted_class(1)
    first = compare("layer-norm", answers, BOILERPLATE).pairs[0]
    assert isinstance(first, Pair) and first.fragments
    original, copy = answers[3].code, answers[-1].code
    for fragment in first.fragments:
        # The same statement in each (under each answer's own names): whole statements that
        # normalise alike.
        shown_a = textwrap.dedent(original[slice(*fragment.span_a)])
        shown_b = textwrap.dedent(copy[slice(*fragment.span_b)])
        alone_a, alone_b = structure(shown_a), structure(shown_b)
        assert alone_a is not None and alone_b is not None
        assert alone_a.fragments.keys() == alone_b.fragments.keys() != set()


def test_segments_cut_the_code_at_the_regions_and_keep_every_character() -> None:
    code = "a = 1\nb = 2\nc = 3\n"
    cut = segments(code, [(6, 11), (0, 3)])
    assert cut == [
        Segment("a =", True),
        Segment(" 1\n", False),
        Segment("b = 2", True),
        Segment("\nc = 3\n", False),
    ]
    assert "".join(s.text for s in cut) == code


HOSTILE_COST = 20
"""A report with four hostile answers of 100 kB costs at most this many times the same report
with four honest answers instead (about 11 measured with the cap; 60-130 without it)."""


def report_cpu_s(answers: Sequence[Answer]) -> float:
    """This process's CPU time for the report, the least of three runs (the host is noisy)."""
    spent = []
    for _ in range(3):
        started = time.process_time()
        compare("layer-norm", answers, BOILERPLATE)
        spent.append(time.process_time() - started)
    return min(spent)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(Hostile))
def test_a_hostile_answer_costs_a_bounded_multiple_of_an_honest_one(kind: Hostile) -> None:
    """Four learners send the same hostile answer (a shared one makes every pair of them
    costly): the report costs a bounded multiple of the one with four honest answers."""
    codes = honest_answers(16, seed=5)
    honest = [Answer(f"learner-{i:02d}", f"s{i}", code) for i, code in enumerate(codes)]
    hostile = [Answer(f"hostile-{i}", f"h{i}", hostile_answer(kind)) for i in range(4)]
    ratio = report_cpu_s(honest[:12] + hostile) / report_cpu_s(honest)
    assert ratio <= HOSTILE_COST, f"{kind}: {ratio:.1f} times an honest report"


def test_a_long_answer_is_compared_on_its_start_and_named_in_the_report() -> None:
    answers = planted_class(2)
    padding = "\n# " + "x" * MAX_ANSWER_CHARS
    long_copy = Answer("copier", "s-copy", answers[-1].code + padding)
    report = compare("layer-norm", [*answers[:-1], long_copy], BOILERPLATE)
    assert report.cut == ("copier",)
    first = report.pairs[0]
    assert (first.learner_a, first.learner_b) == ("learner-03", "copier") and first.flagged
    assert max(end for _, end in first.regions_b) <= MAX_ANSWER_CHARS
    assert ExerciseSimilarity.from_dict(report.to_dict()) == report


def test_pairs_past_the_cpu_budget_are_left_out_and_counted() -> None:
    answers = planted_class(3)
    report = compare("layer-norm", answers, BOILERPLATE, CpuBudget(0.0))
    assert report.pairs == () and report.pairs_left_out == 15 * 14 // 2
    assert report.distribution.pairs == 0
    whole = compare("layer-norm", answers, BOILERPLATE, CpuBudget(60.0))
    assert whole.pairs_left_out == 0 and whole.distribution.pairs == 15 * 14 // 2
