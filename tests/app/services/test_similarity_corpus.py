"""The similarity report on the planted corpus (tests/app/services/similarity_corpus.py): for
each of three exercises, 30 honest answers and a planted copy of each kind, every planted copy
is flagged and no other pair is. The figures over more seeds are in
tests/app/services/similarity_corpus/README.md (``bench/similarity.py --corpus``)."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from app.services.similarity import Answer, ExerciseSimilarity, compare
from app.services.similarity_jobs import boilerplate
from graders.api import ExerciseCatalog
from tests.app.services.similarity_corpus import (
    EXERCISES,
    HONEST_ANSWERS,
    CopyKind,
    Corpus,
    ExerciseSpec,
    corpus,
    honest_choices,
    independent,
)

CATALOG = ExerciseCatalog(Path(__file__).resolve().parents[3] / "exercises")
SEEDS = (0, 1)


def report_of(planted: Corpus) -> ExerciseSimilarity:
    answers = [Answer(f"honest-{i:02d}", f"h{i}", code) for i, code in enumerate(planted.honest)]
    answers += [
        Answer(f"copy-{c.kind.name}", f"c{k}", c.code) for k, c in enumerate(planted.copies)
    ]
    exercise_id = planted.spec.exercise_id
    return compare(exercise_id, answers, boilerplate(CATALOG, exercise_id))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("spec", EXERCISES, ids=lambda s: s.exercise_id)
def test_every_planted_copy_is_flagged_and_no_other_pair(spec: ExerciseSpec, seed: int) -> None:
    planted = corpus(spec, seed)
    report = report_of(planted)
    copies = {(f"honest-{c.original:02d}", f"copy-{c.kind.name}"): c for c in planted.copies}
    assert report.pairs_left_out == 0 and report.unparsed == ()
    flagged = {(p.learner_a, p.learner_b): p for p in report.flagged}
    for pair_names, copy in copies.items():
        assert pair_names in flagged, f"{copy.kind.value}: not flagged"
        pair = flagged[pair_names]
        assert pair.reasons, copy.kind
        # Why: the statements it shares, unless only its tokens flagged it.
        assert pair.fragments or pair.structure == 0.0
    assert set(flagged) == set(copies)


@pytest.mark.parametrize("spec", EXERCISES, ids=lambda s: s.exercise_id)
def test_the_corpus_is_what_its_readme_says(spec: ExerciseSpec) -> None:
    planted = corpus(spec, 0)
    assert len(planted.honest) == HONEST_ANSWERS
    assert [c.kind for c in planted.copies] == list(CopyKind)
    assert len({c.original for c in planted.copies}) == len(CopyKind)
    for code in (*planted.honest, *(c.code for c in planted.copies)):
        ast.parse(code)
    assert len(set(planted.honest)) == HONEST_ANSWERS
    choices = honest_choices(spec, HONEST_ANSWERS, 0)
    assert all(independent(spec, a, b) for a, b in itertools.combinations(choices, 2))
    # Honest styles vary: loops and vectorised steps, helpers, comments, step orders.
    loops = [any(spec.steps[s].variants[i].loop for s, i in enumerate(c.variants)) for c in choices]
    assert any(loops) and not all(loops)
    assert any(c.helper is not None for c in choices) and any(c.helper is None for c in choices)
    assert len({c.order for c in choices}) > 1 and len({c.comments for c in choices}) > 1
    by_kind = {c.kind: c for c in planted.copies}
    original = planted.honest[by_kind[CopyKind.VERBATIM].original]
    assert by_kind[CopyKind.VERBATIM].code == original
    for kind in set(CopyKind) - {CopyKind.VERBATIM}:
        assert by_kind[kind].code != planted.honest[by_kind[kind].original], kind
