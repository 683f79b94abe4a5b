"""The similarity report's cost: a class of 300 synthetic answers to one exercise.

Builds the answers of tests/app/services/similarity_answers.py (``layer-norm``, one planted
copy), compares every pair as a report does (copydetect; the starter and the reference as
boilerplate) and prints the time, the distribution and the flagged pairs. The target is a
minute on 2 cores. Then the cost of hostile answers (tests/app/services/similarity_answers.py's
``Hostile``, 100 kB each): this process's CPU time for a report of 20 honest answers, of the
same with one hostile answer, and with ``--hostile`` copies of it, against the same number of
honest answers instead (the ratio). Nothing is asserted (the machines here are noisy):

    .venv/bin/python bench/similarity.py [--learners 300] [--hostile 8]
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.services.similarity import Answer, compare  # noqa: E402
from app.services.similarity_jobs import boilerplate  # noqa: E402
from graders.api import ExerciseCatalog  # noqa: E402
from tests.app.services.similarity_answers import (  # noqa: E402
    Hostile,
    disguised_copy,
    honest_answers,
    hostile_answer,
)

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--exercises", type=Path, default=ROOT / "exercises")
    parser.add_argument("--hostile", type=int, default=8, help="copies of each hostile answer")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
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
        logger.info("flagged %.2f %s %s", pair.similarity, pair.learner_a, pair.learner_b)
    logger.info("%d flagged in all", len(report.flagged))
    hostile_costs(shared, args.hostile)


if __name__ == "__main__":
    main()
