"""Similarity of learners' answers, pair by pair, measured two ways.

- **Tokens** (copydetect): each answer tokenised (names, strings and comments normalised
  away), winnowed k-gram fingerprints kept, the tokens two answers share counted.
- **Structure** (``app.services.structure``): each answer's syntax tree normalised (names
  and constants abstracted, one-line helpers inlined, independent statements in a canonical
  order) and cut into fragments; two answers share the weight of the fragments both have.
  A copy whose statements were reordered, a helper extracted or one loop vectorised keeps
  most of its fragments where it loses most of its runs of tokens.

What every answer of an exercise shares says nothing of a pair: the starter and the reference
solution are boilerplate for both measures, fingerprints found in more than half of the
class's answers join the boilerplate of the tokens, and a fragment weighs ``log((n + 1) /
d)`` for ``n`` answers, ``d`` of them having it (inverse document frequency: a fragment in
every answer weighs next to nothing, one in two answers the most).

Short numpy answers look alike by nature, so each measure's pairs are judged against their
distribution: a pair is *flagged* by a measure when it is above that measure's fence, the
upper quartile plus 1.5 interquartile ranges (Tukey's rule) held between the measure's floor
(two independent answers that wrote one long step alike) and :data:`NEAR_IDENTICAL`: a pair
at or above that is flagged whatever the rest of the class looks like, so the fence is never
above it. Each flag says which measure raised it and why (:class:`Reason`), and the pair
keeps the largest fragments it shares. A flag asks an instructor to look; nothing here
changes a score.

A learner chooses what a report costs: copydetect's work grows with an answer's tokens, and
a pair of long answers sharing repeated fingerprints costs in proportion to both (issue 41: a
100 kB answer cost ~0.85 s of CPU where 20 honest ones cost 0.02 s, and eight of them
28-37 s). So an answer is compared on its first :data:`MAX_ANSWER_CHARS` characters (its
structure too), and pairs stop being compared once a :class:`CpuBudget` is spent; the report
says which answers were cut, which could not be parsed, and how many pairs were left out.

Pure: answers in, a report out (no database; no clock but the budget's CPU time);
``app.services.similarity_jobs`` stores reports and computes them in a background process.
"""

from __future__ import annotations

import io
import itertools
import math
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
from copydetect import CodeFingerprint, compare_files

from app.services.structure import Structure, structure

NOISE_THRESHOLD = 25
"""Shortest run of tokens that counts as shared (copydetect's ``k``, its default): shorter
runs are what any two numpy answers share."""
WINDOW = 1
"""Every k-gram is a fingerprint (no winnowing): answers are short, so winnowing would save
little, and the fingerprints a window keeps depend on Python's per-process string hashes, so
the same answers would give another report in another process."""
MIN_FLAGGED = 0.8
"""The tokens' floor: a pair flagged by its tokens also shares most of both answers (in a
small class the fence can fall low, and two independent answers that wrote one long step
alike share 60-70 % of their tokens)."""
MIN_FLAGGED_STRUCTURE = 0.5
"""The structure's floor: the independent answers of the planted corpus share at most 47.5 %
of their statements' weight (tests/app/services/similarity_corpus/README.md)."""
MIN_FLAGGED_BOTH = 0.55
"""The floor of the two measures' mean: a copy of a short answer with its one loop vectorised
keeps 68-84 % of its tokens and 33-71 % of its statements (the corpus's ``gru-update-gate``),
often each within what independent answers share, and together mostly above them (the
corpus's README)."""
NEAR_IDENTICAL = 0.9
"""A pair sharing this much by either measure is flagged whatever the distribution: the
fence is never above it."""
COMMON_SHARE = 0.5
"""A token fingerprint found in more than this share of the answers (and in three at least)
is what the exercise makes every answer write: it joins the boilerplate."""
FENCE_IQRS = 1.5
MAX_ANSWER_CHARS = 10_000
"""An answer is compared on its first 10 000 characters (its tokens, which copydetect counts
on the code with names and comments taken out, are fewer): five times the longest reference
solution of the exercises (2.1 kB), and a tenth of the largest submission accepted."""
MAX_FRAGMENTS = 5
"""Shared fragments a pair keeps to show (the largest, none inside another)."""


class CpuBudget:
    """The CPU time (this process's, so the report's own process) a report may spend."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._deadline = time.process_time() + seconds

    def spent(self) -> bool:
        return time.process_time() > self._deadline


class Measure(Enum):
    """What a similarity counts."""

    TOKENS = "tokens"  # copydetect's shared runs of tokens
    STRUCTURE = "structure"  # the weight of shared statements of the normalised syntax tree
    BOTH = "both"  # the mean of the two: each short of its fence, together far above


class FlagKind(Enum):
    """Why a measure flagged a pair."""

    NEAR_IDENTICAL = "near-identical"  # at or above NEAR_IDENTICAL, whatever the rest
    OUTLIER = "outlier"  # above its measure's fence


@dataclass(frozen=True)
class Reason:
    measure: Measure
    kind: FlagKind


@dataclass(frozen=True)
class Answer:
    """One learner's answer to one exercise: the submission the report compares."""

    learner: str
    submission_id: str
    code: str


Span = tuple[int, int]


@dataclass(frozen=True)
class SharedFragment:
    """A fragment of the normalised tree both answers have: where it is in each, ``(start,
    end)`` character offsets."""

    span_a: Span
    span_b: Span


@dataclass(frozen=True)
class Pair:
    """Two learners' answers to one exercise; regions are ``(start, end)`` character offsets
    into each answer's code, the stretches of tokens matched."""

    exercise_id: str
    learner_a: str
    learner_b: str
    submission_a: str
    submission_b: str
    similarity: float  # tokens: the mean of the two shares below (0 to 1)
    share_a: float  # of a's tokens, the share found in b
    share_b: float
    regions_a: tuple[Span, ...]
    regions_b: tuple[Span, ...]
    structure: float = 0.0  # the larger of each answer's share of statement weight (0 to 1)
    reasons: tuple[Reason, ...] = ()
    fragments: tuple[SharedFragment, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.reasons)

    @property
    def both(self) -> float:
        return (self.similarity + self.structure) / 2

    @property
    def score(self) -> float:
        """The higher of the two measures, which ranks the pairs."""
        return max(self.similarity, self.structure)

    def measured(self, measure: Measure) -> float:
        return {
            Measure.TOKENS: self.similarity,
            Measure.STRUCTURE: self.structure,
            Measure.BOTH: self.both,
        }[measure]

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
            "structure": self.structure,
            "reasons": [[r.measure.value, r.kind.value] for r in self.reasons],
            "fragments": [[*f.span_a, *f.span_b] for f in self.fragments],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pair:
        if "reasons" in data:
            reasons = tuple(Reason(Measure(m), FlagKind(k)) for m, k in data["reasons"])
        else:  # stored before the structure: a flag was a tokens' outlier
            reasons = (Reason(Measure.TOKENS, FlagKind.OUTLIER),) if data["flagged"] else ()
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
            structure=float(data.get("structure", 0.0)),
            reasons=reasons,
            fragments=tuple(
                SharedFragment((int(a), int(b)), (int(c), int(d)))
                for a, b, c, d in data.get("fragments", ())
            ),
        )


@dataclass(frozen=True)
class Distribution:
    """The similarities of an exercise's pairs by one measure: quartiles, Tukey's fence of
    them, and the fence a pair is flagged above (Tukey's, held between the measure's floor
    and :data:`NEAR_IDENTICAL`)."""

    pairs: int
    q1: float
    median: float
    q3: float
    fence: float
    histogram: tuple[int, ...]  # pairs per tenth of similarity: [0, 0.1), …, [0.9, 1]
    tukey: float  # the upper quartile plus 1.5 interquartile ranges (may pass 100 %)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "q1": self.q1,
            "median": self.median,
            "q3": self.q3,
            "fence": self.fence,
            "histogram": list(self.histogram),
            "tukey": self.tukey,
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
            float(data.get("tukey", data["fence"])),  # stored before the fence was held
        )


@dataclass(frozen=True)
class ExerciseSimilarity:
    exercise_id: str
    answers: int
    distribution: Distribution  # of the tokens
    pairs: tuple[Pair, ...]  # highest score first
    cut: tuple[str, ...] = ()  # learners whose answer was compared on MAX_ANSWER_CHARS only
    pairs_left_out: int = 0  # pairs not compared: the CPU budget was spent
    structure_distribution: Distribution | None = None  # None in reports stored before it
    both_distribution: Distribution | None = None
    unparsed: tuple[str, ...] = ()  # learners whose answer has no structure (no parse)

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
            "structure_distribution": (
                self.structure_distribution.to_dict() if self.structure_distribution else None
            ),
            "both_distribution": (
                self.both_distribution.to_dict() if self.both_distribution else None
            ),
            "unparsed": list(self.unparsed),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExerciseSimilarity:
        structural, both = data.get("structure_distribution"), data.get("both_distribution")
        return cls(
            data["exercise_id"],
            int(data["answers"]),
            Distribution.from_dict(data["distribution"]),
            tuple(Pair.from_dict(p) for p in data["pairs"]),
            tuple(data.get("cut", ())),  # reports stored before the cap have neither
            int(data.get("pairs_left_out", 0)),
            Distribution.from_dict(structural) if structural else None,
            Distribution.from_dict(both) if both else None,
            tuple(data.get("unparsed", ())),
        )


def distribution(similarities: Sequence[float], floor: float = MIN_FLAGGED) -> Distribution:
    """Quartiles (inclusive method) of ``similarities``, Tukey's upper fence of them, and
    the fence a pair is flagged above: Tukey's, at least ``floor``, at most
    :data:`NEAR_IDENTICAL`."""
    histogram = [0] * 10
    for value in similarities:
        histogram[min(9, int(value * 10))] += 1
    if len(similarities) < 2:
        only = similarities[0] if similarities else 0.0
        q1 = median = q3 = tukey = only
    else:
        q1, median, q3 = statistics.quantiles(similarities, n=4, method="inclusive")
        tukey = q3 + FENCE_IQRS * (q3 - q1)
    fence = min(max(tukey, floor), NEAR_IDENTICAL)
    return Distribution(len(similarities), q1, median, q3, fence, tuple(histogram), tukey)


def reasons(values: Mapping[Measure, float], fences: Mapping[Measure, float]) -> tuple[Reason, ...]:
    """Why a pair with these measures is flagged against these fences (none: it is not)."""
    found = []
    for measure, value in values.items():
        if value >= NEAR_IDENTICAL:
            found.append(Reason(measure, FlagKind.NEAR_IDENTICAL))
        elif value > fences[measure]:
            found.append(Reason(measure, FlagKind.OUTLIER))
    return tuple(found)


def _fingerprint(code: str, boilerplate: np.ndarray[Any, Any]) -> CodeFingerprint:
    # ``file`` only picks the tokeniser (Python, by its suffix); the code comes from ``fp``.
    return CodeFingerprint("answer.py", NOISE_THRESHOLD, WINDOW, boilerplate, fp=io.StringIO(code))


def _regions(slices: Any) -> tuple[Span, ...]:
    array = np.asarray(slices)
    if array.size == 0:
        return ()
    return tuple((int(s), int(e)) for s, e in zip(array[0], array[1], strict=True))


def _common(counts: Counter[int], answers: int) -> set[int]:
    """What more than :data:`COMMON_SHARE` of ``answers`` (and three at least) have."""
    least = max(3, math.floor(answers * COMMON_SHARE) + 1)
    return {h for h, n in counts.items() if n >= least}


def _token_prints(codes: Sequence[str], boilerplate: Iterable[str]) -> list[CodeFingerprint]:
    """Each answer's fingerprints, less the boilerplate's and those most answers have."""
    shared = [
        _fingerprint(code, np.array([], dtype=np.int64)).hashes for code in boilerplate if code
    ]
    excluded = np.array(sorted(set().union(*shared)), dtype=np.int64)
    prints = [_fingerprint(code, excluded) for code in codes]
    common = _common(Counter(h for p in prints for h in set(p.hashes)), len(codes))
    if not common:
        return prints
    excluded = np.array(sorted(set(excluded.tolist()) | common), dtype=np.int64)
    return [_fingerprint(code, excluded) for code in codes]


class StructureWeights:
    """Each fragment's weight in a class: ``log((n + 1) / d)`` for ``n`` answers, ``d`` of
    them having it; nothing for the boilerplate's fragments."""

    def __init__(self, structures: Sequence[Structure | None], boilerplate: Iterable[str]):
        counts = Counter(h for s in structures if s is not None for h in s.fragments)
        answers = len(structures)
        self.boilerplate = {
            h for code in boilerplate for h in (structure(code) or _EMPTY).fragments
        }
        self.common = _common(counts, answers)
        self.weights = {
            h: 0.0 if h in self.boilerplate else math.log((answers + 1) / n)
            for h, n in counts.items()
        }

    def total(self, answer: Structure) -> float:
        return sum(self.weights[h] * f.count for h, f in answer.fragments.items())

    def shares(self, a: Structure, b: Structure) -> tuple[float, float, set[int]]:
        """Of each answer's fragment weight, the share the other has; the fragments shared."""
        shared = a.fragments.keys() & b.fragments.keys()
        weight = sum(
            self.weights[h] * min(a.fragments[h].count, b.fragments[h].count) for h in shared
        )
        total_a, total_b = self.total(a), self.total(b)
        return (
            weight / total_a if total_a else 0.0,
            weight / total_b if total_b else 0.0,
            shared,
        )

    def shown(self, a: Structure, b: Structure, shared: set[int]) -> tuple[SharedFragment, ...]:
        """The largest shared fragments that say something (not the boilerplate, not what
        most answers have), none inside another already shown."""
        chosen: list[SharedFragment] = []
        for h in sorted(shared, key=lambda h: (-a.fragments[h].size, h)):
            if h in self.boilerplate or h in self.common:
                continue
            span_a, span_b = a.fragments[h].span, b.fragments[h].span
            if span_a is None or span_b is None:
                continue
            if any(c.span_a[0] <= span_a[0] and span_a[1] <= c.span_a[1] for c in chosen):
                continue
            chosen.append(SharedFragment(span_a, span_b))
            if len(chosen) == MAX_FRAGMENTS:
                break
        return tuple(sorted(chosen, key=lambda f: f.span_a))


_EMPTY = Structure({})


@dataclass(frozen=True)
class _Measured:
    a: Answer
    b: Answer
    share_a: float
    share_b: float
    slices: tuple[Any, Any]
    structure: float
    fragments: tuple[SharedFragment, ...]

    @property
    def similarity(self) -> float:
        return (self.share_a + self.share_b) / 2


def compare(
    exercise_id: str,
    answers: Iterable[Answer],
    boilerplate: Iterable[str],
    budget: CpuBudget | None = None,
) -> ExerciseSimilarity:
    """Every pair of ``answers`` ranked by its higher measure, flagged against each measure's
    distribution; ``boilerplate``: code that never counts (the starter, the reference). Once
    ``budget`` is spent the pairs left are not compared (and counted in ``pairs_left_out``)."""
    answers = list(answers)
    boilerplate = [code for code in boilerplate if code]
    codes = [a.code[:MAX_ANSWER_CHARS] for a in answers]
    prints = _token_prints(codes, boilerplate)
    structures = [structure(code) for code in codes]
    weights = StructureWeights(structures, boilerplate)
    measured: list[_Measured] = []
    every_pair = list(itertools.combinations(range(len(answers)), 2))
    for i, j in every_pair:
        if budget is not None and budget.spent():
            break
        _, (share_a, share_b), slices = compare_files(prints[i], prints[j])
        structural = 0.0
        fragments: tuple[SharedFragment, ...] = ()
        if (first := structures[i]) is not None and (second := structures[j]) is not None:
            fraction_a, fraction_b, shared = weights.shares(first, second)
            structural = max(fraction_a, fraction_b)
            fragments = weights.shown(first, second, shared)
        measured.append(
            _Measured(
                answers[i],
                answers[j],
                float(share_a),
                float(share_b),
                slices,
                structural,
                fragments,
            )
        )
    tokens = distribution([m.similarity for m in measured], MIN_FLAGGED)
    structural_spread = distribution([m.structure for m in measured], MIN_FLAGGED_STRUCTURE)
    both = distribution([(m.similarity + m.structure) / 2 for m in measured], MIN_FLAGGED_BOTH)
    fences = {
        Measure.TOKENS: tokens.fence,
        Measure.STRUCTURE: structural_spread.fence,
        Measure.BOTH: both.fence,
    }
    pairs = sorted(
        (
            Pair(
                exercise_id,
                m.a.learner,
                m.b.learner,
                m.a.submission_id,
                m.b.submission_id,
                m.similarity,
                m.share_a,
                m.share_b,
                _regions(m.slices[0]),
                _regions(m.slices[1]),
                m.structure,
                reasons(
                    {
                        Measure.TOKENS: m.similarity,
                        Measure.STRUCTURE: m.structure,
                        Measure.BOTH: (m.similarity + m.structure) / 2,
                    },
                    fences,
                ),
                m.fragments,
            )
            for m in measured
        ),
        key=lambda p: (-p.score, p.learner_a, p.learner_b),
    )
    cut = tuple(a.learner for a in answers if len(a.code) > MAX_ANSWER_CHARS)
    unparsed = tuple(a.learner for a, s in zip(answers, structures, strict=True) if s is None)
    return ExerciseSimilarity(
        exercise_id,
        len(answers),
        tokens,
        tuple(pairs),
        cut,
        len(every_pair) - len(measured),
        structural_spread,
        both,
        unparsed,
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
