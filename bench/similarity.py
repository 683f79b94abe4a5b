"""The similarity report's cost: a class of 300 synthetic answers to one exercise.

Builds the answers of tests/app/services/similarity_answers.py (``layer-norm``, one planted
copy), compares every pair as a report does (copydetect; the starter and the reference as
boilerplate) and prints the time, the distribution and the flagged pairs. The target is a
minute on 2 cores. Then the cost of hostile answers (tests/app/services/similarity_answers.py's
``Hostile``, 100 kB each): this process's CPU time for a report of 20 honest answers, of the
same with one hostile answer, and with ``--hostile`` copies of it, against the same number of
honest answers instead (the ratio). With ``--corpus N``, instead, the planted corpus of
tests/app/services/similarity_corpus/ over seeds 0 to N-1: per exercise and seed, the
planted copies flagged, the honest pairs flagged, and each measure's highest honest pair and
fence (its README's figures). Nothing is asserted (the machines here are noisy):

    .venv/bin/python bench/similarity.py [--learners 300] [--hostile 8] [--corpus 6]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.services.similarity import Answer, Measure, compare  # noqa: E402
from app.services.similarity_jobs import boilerplate  # noqa: E402
from graders.api import ExerciseCatalog  # noqa: E402
from tests.app.services.similarity_answers import (  # noqa: E402
    Hostile,
    disguised_copy,
    honest_answers,
    hostile_answer,
)
from tests.app.services.similarity_corpus import EXERCISES, corpus  # noqa: E402

logger = logging.getLogger("bench.similarity")
HONEST_CLASS = 20


def cpu_s(answers: list[Answer], shared: tuple[str, ...]) -> float:
    """This process's CPU time for one report of ``answers``."""
    started = time.process_time()
    compare("layer-norm", answers, shared)
    return time.process_time() - started


def hostile_costs(shared: tuple[str, ...], copies: int) -> None:
    codes = honest_answers(HONEST_CLASS + copies, seed=3)
    answers = [Answer(f"learner-{i:03d}", f"s{i}", code) for i, code in enumerate(codes)]
    honest_class, honest_more = answers[:HONEST_CLASS], answers
    base, honest = cpu_s(honest_class, shared), cpu_s(honest_more, shared)
    logger.info(
        "%d honest answers: %.3f s of CPU; %d: %.3f s", HONEST_CLASS, base, len(answers), honest
    )
    for kind in Hostile:
        code = hostile_answer(kind)
        one = cpu_s([*honest_class, Answer("hostile", "h", code)], shared)
        many = cpu_s(
            [*honest_class, *(Answer(f"hostile-{i}", f"h{i}", code) for i in range(copies))],
            shared,
        )
        logger.info(
            "%s (%d kB): one %.3f s (+%.3f s); %d of them %.3f s, %.1f times %d honest ones",
            kind.value,
            len(code) // 1000,
            one,
            one - base,
            copies,
            many,
            many / honest,
            copies,
        )


def corpus_figures(catalog: ExerciseCatalog, seeds: int) -> None:
    """The planted corpus's figures: per exercise and seed, what the report flagged."""
    missed, false_flags, honest_pairs, copies = [], 0, 0, 0
    for seed in range(seeds):
        for spec in EXERCISES:
            planted = corpus(spec, seed)
            answers = [Answer(f"honest-{i:02d}", f"h{i}", c) for i, c in enumerate(planted.honest)]
            answers += [Answer(f"copy-{k}", f"c{k}", c.code) for k, c in enumerate(planted.copies)]
            started = time.process_time()
            report = compare(spec.exercise_id, answers, boilerplate(catalog, spec.exercise_id))
            spent = time.process_time() - started
            kinds = {
                (f"honest-{c.original:02d}", f"copy-{k}"): c.kind
                for k, c in enumerate(planted.copies)
            }
            honest = [p for p in report.pairs if (p.learner_a, p.learner_b) not in kinds]
            flagged = [p for p in report.pairs if (p.learner_a, p.learner_b) in kinds and p.flagged]
            fences = (report.distribution, report.structure_distribution, report.both_distribution)
            logger.info(
                "%s seed %d: %d of %d copies flagged, %d of %d honest pairs; highest honest "
                "tokens %.1f %%, structure %.1f %%, both %.1f %%; fences %s (%.2f s of CPU)",
                spec.exercise_id,
                seed,
                len(flagged),
                len(kinds),
                sum(p.flagged for p in honest),
                len(honest),
                *(100 * max(p.measured(m) for p in honest) for m in Measure),
                " ".join(f"{100 * d.fence:.0f} %" for d in fences if d is not None),
                spent,
            )
            for pair in report.pairs:
                kind = kinds.get((pair.learner_a, pair.learner_b))
                if kind is not None:
                    why = ", ".join(f"{r.measure.value} {r.kind.value}" for r in pair.reasons)
                    logger.info(
                        "  %-45s tokens %5.1f %% structure %5.1f %% both %5.1f %%  %s",
                        kind.value,
                        100 * pair.similarity,
                        100 * pair.structure,
                        100 * pair.both,
                        why or "MISSED",
                    )
                    missed += [] if pair.flagged else [(spec.exercise_id, seed, kind.value)]
            false_flags += sum(p.flagged for p in honest)
            honest_pairs += len(honest)
            copies += len(kinds)
    logger.info(
        "in all: %d of %d copies flagged, %d of %d honest pairs; missed: %s",
        copies - len(missed),
        copies,
        false_flags,
        honest_pairs,
        missed or "none",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--exercises", type=Path, default=ROOT / "exercises")
    parser.add_argument("--hostile", type=int, default=8, help="copies of each hostile answer")
    parser.add_argument("--corpus", type=int, default=0, help="the planted corpus's seeds")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.corpus:
        corpus_figures(ExerciseCatalog(args.exercises), args.corpus)
        return
    codes = honest_answers(args.learners - 1, seed=1)
    answers = [Answer(f"learner-{i:03d}", f"s{i}", code) for i, code in enumerate(codes)]
    answers.append(Answer("planted", "s-planted", disguised_copy(codes[7])))
    shared = boilerplate(ExerciseCatalog(args.exercises), "layer-norm")
    started = time.perf_counter()
    report = compare("layer-norm", answers, shared)
    elapsed = time.perf_counter() - started
    spread = report.distribution
    logger.info(
        "%d answers, %d pairs in %.1f s (%.0f pairs/s); quartiles %.2f %.2f %.2f, fence %.2f",
        report.answers,
        spread.pairs,
        elapsed,
        spread.pairs / elapsed,
        spread.q1,
        spread.median,
        spread.q3,
        spread.fence,
    )
    for pair in report.flagged[:10]:
        logger.info(
            "flagged tokens %.2f structure %.2f %s %s (%s)",
            pair.similarity,
            pair.structure,
            pair.learner_a,
            pair.learner_b,
            ", ".join(f"{r.measure.value} {r.kind.value}" for r in pair.reasons),
        )
    logger.info("%d flagged in all", len(report.flagged))
    hostile_costs(shared, args.hostile)


if __name__ == "__main__":
    main()
