"""Similarity of learners' answers, pair by pair, with copydetect.

copydetect tokenises each answer (names, strings and comments normalised away), keeps
winnowed k-gram fingerprints and counts the tokens two answers share. The starter and the
reference solution are boilerplate: what every answer shares with them does not count.

Short numpy answers look alike by nature, so a pair is judged against the distribution of
the exercise's pairs: a pair is *flagged* when its similarity is above the upper fence of
that distribution (the upper quartile plus 1.5 interquartile ranges, Tukey's rule) and above
:data:`MIN_FLAGGED` (most of both answers shared). A flag asks an instructor to look; nothing
here changes a score.

A learner chooses what a report costs: copydetect's work grows with an answer's tokens, and
a pair of long answers sharing repeated fingerprints costs in proportion to both (issue 41: a
100 kB answer cost ~0.85 s of CPU where 20 honest ones cost 0.02 s, and eight of them
28-37 s). So an answer is compared on its first :data:`MAX_ANSWER_CHARS` characters, and
pairs stop being compared once a :class:`CpuBudget` is spent; the report says which answers
were cut and how many pairs were left out.

Pure: answers in, a report out (no database; no clock but the budget's CPU time);
``app.services.similarity_jobs`` stores reports and computes them in a background process.
"""

from __future__ import annotations

import io
import itertools
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from copydetect import CodeFingerprint, compare_files

NOISE_THRESHOLD = 25
"""Shortest run of tokens that counts as shared (copydetect's ``k``, its default): shorter
runs are what any two numpy answers share."""
WINDOW = 1
"""Every k-gram is a fingerprint (no winnowing): answers are short, so winnowing would save
little, and the fingerprints a window keeps depend on Python's per-process string hashes, so
the same answers would give another report in another process."""
MIN_FLAGGED = 0.8
"""A flagged pair also shares most of both answers: in a small class the fence can fall low,
and two independent answers that wrote one long step alike share 60-70 % of their tokens
(tests/app/services/test_similarity.py's class)."""
FENCE_IQRS = 1.5
MAX_ANSWER_CHARS = 10_000
"""An answer is compared on its first 10 000 characters (its tokens, which copydetect counts
on the code with names and comments taken out, are fewer): five times the longest reference
solution of the exercises (2.1 kB), and a tenth of the largest submission accepted."""


class CpuBudget:
    """The CPU time (this process's, so the report's own process) a report may spend."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._deadline = time.process_time() + seconds

    def spent(self) -> bool:
        return time.process_time() > self._deadline


@dataclass(frozen=True)
class Answer:
    """One learner's answer to one exercise: the submission the report compares."""

    learner: str
    submission_id: str
    code: str


@dataclass(frozen=True)
class Pair:
    """Two learners' answers to one exercise; regions are ``(start, end)`` character offsets
    into each answer's code, the matched stretches."""

    exercise_id: str
    learner_a: str
    learner_b: str
    submission_a: str
    submission_b: str
    similarity: float  # the mean of the two shares below (0 to 1)
    share_a: float  # of a's tokens, the share found in b
    share_b: float
    regions_a: tuple[tuple[int, int], ...]
    regions_b: tuple[tuple[int, int], ...]
    flagged: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "exercise_id": self.exercise_id,
            "learner_a": self.learner_a,
            "learner_b": self.learner_b,
            "submission_a": self.submission_a,
            "submission_b": self.submission_b,
            "similarity": self.similarity,
            "share_a": self.share_a,
            "share_b": self.share_b,
            "regions_a": [list(r) for r in self.regions_a],
            "regions_b": [list(r) for r in self.regions_b],
            "flagged": self.flagged,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pair:
        return cls(
            exercise_id=data["exercise_id"],
            learner_a=data["learner_a"],
            learner_b=data["learner_b"],
            submission_a=data["submission_a"],
            submission_b=data["submission_b"],
            similarity=float(data["similarity"]),
            share_a=float(data["share_a"]),
            share_b=float(data["share_b"]),
            regions_a=tuple((int(s), int(e)) for s, e in data["regions_a"]),
            regions_b=tuple((int(s), int(e)) for s, e in data["regions_b"]),
            flagged=bool(data["flagged"]),
        )


@dataclass(frozen=True)
class Distribution:
    """The similarities of an exercise's pairs: quartiles and the fence above which a pair
    is flagged."""

    pairs: int
    q1: float
    median: float
    q3: float
    fence: float
    histogram: tuple[int, ...]  # pairs per tenth of similarity: [0, 0.1), …, [0.9, 1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "q1": self.q1,
            "median": self.median,
            "q3": self.q3,
            "fence": self.fence,
            "histogram": list(self.histogram),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Distribution:
        return cls(
            int(data["pairs"]),
            float(data["q1"]),
            float(data["median"]),
            float(data["q3"]),
            float(data["fence"]),
            tuple(int(n) for n in data["histogram"]),
        )


@dataclass(frozen=True)
class ExerciseSimilarity:
    exercise_id: str
    answers: int
    distribution: Distribution
    pairs: tuple[Pair, ...]  # most similar first
    cut: tuple[str, ...] = ()  # learners whose answer was compared on MAX_ANSWER_CHARS only
    pairs_left_out: int = 0  # pairs not compared: the CPU budget was spent

    @property
    def flagged(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if p.flagged)

    def to_dict(self) -> dict[str, Any]:
        return {
            "exercise_id": self.exercise_id,
            "answers": self.answers,
            "distribution": self.distribution.to_dict(),
            "pairs": [p.to_dict() for p in self.pairs],
            "cut": list(self.cut),
            "pairs_left_out": self.pairs_left_out,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExerciseSimilarity:
        return cls(
            data["exercise_id"],
            int(data["answers"]),
            Distribution.from_dict(data["distribution"]),
            tuple(Pair.from_dict(p) for p in data["pairs"]),
            tuple(data.get("cut", ())),  # reports stored before the cap have neither
            int(data.get("pairs_left_out", 0)),
        )


def distribution(similarities: Sequence[float]) -> Distribution:
    """Quartiles (inclusive method) and Tukey's upper fence of ``similarities``."""
    histogram = [0] * 10
    for value in similarities:
        histogram[min(9, int(value * 10))] += 1
    if len(similarities) < 2:
        only = similarities[0] if similarities else 0.0
        return Distribution(len(similarities), only, only, only, 1.0, tuple(histogram))
    q1, median, q3 = statistics.quantiles(similarities, n=4, method="inclusive")
    return Distribution(
        len(similarities), q1, median, q3, q3 + FENCE_IQRS * (q3 - q1), tuple(histogram)
    )


def _fingerprint(code: str, boilerplate: np.ndarray[Any, Any]) -> CodeFingerprint:
    # ``file`` only picks the tokeniser (Python, by its suffix); the code comes from ``fp``.
    return CodeFingerprint("answer.py", NOISE_THRESHOLD, WINDOW, boilerplate, fp=io.StringIO(code))


def _regions(slices: Any) -> tuple[tuple[int, int], ...]:
    array = np.asarray(slices)
    if array.size == 0:
        return ()
    return tuple((int(s), int(e)) for s, e in zip(array[0], array[1], strict=True))


def compare(
    exercise_id: str,
    answers: Iterable[Answer],
    boilerplate: Iterable[str],
    budget: CpuBudget | None = None,
) -> ExerciseSimilarity:
    """Every pair of ``answers`` ranked by similarity, flagged against their distribution;
    ``boilerplate``: code whose fingerprints never count (the starter, the reference). Once
    ``budget`` is spent the pairs left are not compared (and counted in ``pairs_left_out``)."""
    answers = list(answers)
    shared = [
        _fingerprint(code, np.array([], dtype=np.int64)).hashes for code in boilerplate if code
    ]
    boilerplate_hashes = np.array(sorted(set().union(*shared)), dtype=np.int64)
    prints = [_fingerprint(a.code[:MAX_ANSWER_CHARS], boilerplate_hashes) for a in answers]
    measured = []
    every_pair = list(itertools.combinations(zip(answers, prints, strict=True), 2))
    for (a, print_a), (b, print_b) in every_pair:
        if budget is not None and budget.spent():
            break
        _, (share_a, share_b), (slices_a, slices_b) = compare_files(print_a, print_b)
        measured.append((a, b, float(share_a), float(share_b), slices_a, slices_b))
    spread = distribution([(m[2] + m[3]) / 2 for m in measured])
    pairs = sorted(
        (
            Pair(
                exercise_id,
                a.learner,
                b.learner,
                a.submission_id,
                b.submission_id,
                (share_a + share_b) / 2,
                share_a,
                share_b,
                _regions(slices_a),
                _regions(slices_b),
                (share_a + share_b) / 2 > max(spread.fence, MIN_FLAGGED),
            )
            for a, b, share_a, share_b, slices_a, slices_b in measured
        ),
        key=lambda p: (-p.similarity, p.learner_a, p.learner_b),
    )
    cut = tuple(a.learner for a in answers if len(a.code) > MAX_ANSWER_CHARS)
    return ExerciseSimilarity(
        exercise_id, len(answers), spread, tuple(pairs), cut, len(every_pair) - len(measured)
    )


def compare_all(
    exercises: Sequence[tuple[str, Sequence[Answer], Sequence[str]]], budget_s: float
) -> list[ExerciseSimilarity]:
    """:func:`compare` for each ``(exercise_id, answers, boilerplate)``, all within one
    budget of ``budget_s`` CPU seconds (the report's background process runs this)."""
    budget = CpuBudget(budget_s)
    return [compare(i, answers, shared, budget) for i, answers, shared in exercises]


@dataclass(frozen=True)
class Segment:
    """A stretch of an answer, matched in the other answer of its pair or not."""

    text: str
    matched: bool


def segments(code: str, regions: Iterable[tuple[int, int]]) -> list[Segment]:
    """``code`` cut at the regions' edges, for a page to mark the matched stretches (the
    page escapes the text: nothing here is HTML)."""
    cuts: list[Segment] = []
    at = 0
    for start, end in sorted(regions):
        start, end = max(start, at), min(end, len(code))
        if start >= end:
            continue
        if start > at:
            cuts.append(Segment(code[at:start], False))
        cuts.append(Segment(code[start:end], True))
        at = end
    if at < len(code):
        cuts.append(Segment(code[at:], False))
    return cuts
