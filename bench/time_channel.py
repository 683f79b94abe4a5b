"""The whole-submission time channel, measured (issue 22): bits a submission carries by its time.

Against a live ``numjudge serve`` with the exfiltration suite's exercise (tests/security): the
issue's attack (a correct submission that sleeps 18 ms times one byte of its first hidden
input) for each of the four bytes, decoded once from the row's exact times (what a learner read
before results were released on a ladder) and once from what a learner reads now; then a sweep
of waits over the whole range of a byte (every ``--stride``-th value), whose learner-visible
times give the entropy of the observation over a uniform byte: the bits one submission carries.
With ``--regrades``, the same sweep is regraded instead (the exercise edited, an instructor
regrading it) and what a learner polling their history reads is the gap from one regraded
result appearing to the next, each gap timing one regrade: its entropy at the attack's
resolution (18 ms) is the bits one regraded submission carries. docs/security.md quotes what
it prints.

    .venv/bin/python bench/time_channel.py [--stride 15] [--regrades]
"""

from __future__ import annotations

import argparse
import collections
import itertools
import math
import signal
import sys
import tempfile
from collections.abc import Hashable, Sequence
from datetime import timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.db import session_scope, upgrade_database  # noqa: E402
from app.models import Role  # noqa: E402
from app.services import release  # noqa: E402
from app.store import submissions as submission_store  # noqa: E402
from tests.app.live import LiveServer  # noqa: E402
from tests.security.timing import (  # noqa: E402
    STEP_S,
    Seen,
    attack_code,
    hidden_byte,
    regrade_and_watch,
    submit_and_wait,
    waiting_code,
)
from tests.security.vault import make_vault, prepared_vault  # noqa: E402

MS = timedelta(milliseconds=1)


def exact_residue_ms(database_url: str, seen: Seen) -> float:
    """``finished_at - started_at - duration_ms`` of the row: what the API showed before."""
    with session_scope(database_url) as session:
        row = submission_store.get_submission(session=session, submission_id=seen.answer["id"])
        assert row is not None and row.finished_at and row.started_at and row.duration_ms
        span = (row.finished_at - row.started_at) / timedelta(milliseconds=1)
        return span - row.duration_ms


def entropy(observations: Sequence[Hashable]) -> float:
    counts = collections.Counter(observations)
    total = len(observations)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def regrade_sweep(
    server: LiveServer, catalog: Path, client: httpx.Client, stride: int, longest: timedelta
) -> None:
    """Regrade a sweep of waits and read each regrade's time off the gaps between regraded
    results appearing, against its exact time in the row."""
    sweep = list(range(0, 256, stride))
    ids = [submit_and_wait(client, waiting_code(b * STEP_S)).answer["id"] for b in sweep]
    with server.client(server.add_user("prof", Role.INSTRUCTOR)) as instructor:
        seen = regrade_and_watch(client, instructor, catalog, ids)
    with session_scope(server.database_url) as session:
        rows = [submission_store.get_submission(session=session, submission_id=i) for i in ids]
        graded = [
            r.finished_at - r.started_at for r in rows if r and r.finished_at and r.started_at
        ]
    # Gap k ends with regrade k's result: regrade 0's start is the instructor's click.
    gaps, exact = seen.gaps, graded[1:]
    ladder = list(itertools.islice(release.boundaries(longest), 20))
    binned = [round(g.total_seconds() / STEP_S) for g in gaps]
    off = [abs(g - e).total_seconds() * 1000 for g, e in zip(gaps, exact, strict=True)]
    print(
        f"regrades of {len(gaps)} bytes: gaps between results appearing "
        f"{sorted({round(g.total_seconds() * 1000) for g in gaps})} ms"
    )
    print(
        f"entropy of the gaps at 18 ms: {entropy(binned):.2f} bits over {len(set(binned))} "
        f"values (from the row's exact times "
        f"{entropy([round(e.total_seconds() * 1000) for e in exact]):.2f} bits, "
        f"log2 {len(gaps)} = {math.log2(len(gaps)):.2f} at most); a gap is its regrade's "
        f"time within {max(off):.0f} ms (median {sorted(off)[len(off) // 2]:.0f} ms)"
    )
    # The host's own jitter (storing, polling) splits a boundary over a few 18 ms bins: the
    # entropy of the nearest boundary is what the gaps tell once that noise is read away.
    nearest = [min(ladder, key=lambda b: abs(b - g)) for g in gaps]
    apart = max(abs(g - b) for g, b in zip(gaps, nearest, strict=True))
    print(
        f"entropy of the nearest boundary: {entropy(nearest):.2f} bits over "
        f"{len(set(nearest))} boundaries, a gap {apart.total_seconds() * 1000:.0f} ms from it "
        "at most"
    )
    print(f"statuses a learner saw: {sorted(seen.statuses)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stride", type=int, default=15, help="sweep every n-th byte value")
    parser.add_argument("--regrades", action="store_true", help="measure regrades instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        catalog = make_vault(tmp / "catalog")
        prepared = prepared_vault(catalog)
        hidden = next(case for case in prepared.cases if not case.spec.public)
        first = float(hidden.inputs["x"].ravel()[0])
        database_url = f"sqlite:///{tmp / 'numjudge.db'}"
        upgrade_database(database_url)
        longest = timedelta(seconds=prepared.exercise.limits.time_s * 2 + 1)
        server = LiveServer(tmp, database_url, extra_env={"NUMJUDGE_EXERCISES_DIR": str(catalog)})
        server.start()
        try:
            with server.client(server.add_user("mallory")) as client:
                if args.regrades:
                    regrade_sweep(server, catalog, client, args.stride, longest)
                    return
                # The version's first submission here also waits for its first rung to be
                # measured (app.runtime.rungs): calibrate on the second.
                submit_and_wait(client, waiting_code(0))
                calibrating = submit_and_wait(client, waiting_code(0))
                calibration = exact_residue_ms(database_url, calibrating)
                # A submission as fast as the reference is released on the exercise's first
                # rung (app.runtime.rungs): the span a learner reads for it.
                first_rung = calibrating.span
                print(f"first rung (a fast submission's span): {first_rung / MS:.1f} ms")
                before: list[int] = []
                after: list[int] = []
                for index in range(4):
                    byte = hidden_byte(first, index)
                    seen = submit_and_wait(client, attack_code(index))
                    exact = round(
                        (exact_residue_ms(database_url, seen) - calibration) / 1000 / STEP_S
                    )
                    # The learner's best guess now: the middle of the bytes the boundary covers.
                    span_s = seen.span.total_seconds()
                    ladder = itertools.islice(release.boundaries(longest, first_rung), 40)
                    low = max((b.total_seconds() for b in ladder if b < seen.span), default=0.0)
                    guess = min(255, round((low + span_s) / 2 / STEP_S))
                    before.append(abs(exact - byte))
                    after.append(abs(guess - byte))
                    print(
                        f"byte {index}: {byte:3d}  from exact times {exact:3d}  "
                        f"learner sees span {seen.span.total_seconds() * 1000:.0f} ms, "
                        f"residue {seen.residue_ms:.0f} ms -> guess {guess:3d}"
                    )
                print(
                    f"largest error of the decoded byte: {max(before)} from the row's times, "
                    f"{max(after)} from a learner's (of 256 values)"
                )
                sweep = list(range(0, 256, args.stride))
                seen_sweep = [submit_and_wait(client, waiting_code(b * STEP_S)) for b in sweep]
                observations = [s.observation() for s in seen_sweep]
                exact_sweep = [round(exact_residue_ms(database_url, s)) for s in seen_sweep]
                late = [
                    s.appeared_after.total_seconds() - s.span.total_seconds() for s in seen_sweep
                ]
                print(
                    f"sweep of {len(sweep)} bytes: {len(set(observations))} distinct learner "
                    f"observations, entropy {entropy(observations):.2f} bits "
                    f"(from the row's exact times {entropy(exact_sweep):.2f} bits, "
                    f"log2 {len(sweep)} = {math.log2(len(sweep)):.2f} at most)"
                )
                print(
                    f"bound: log2({release.boundaries_within(longest, first_rung)} boundaries "
                    f"within {longest.total_seconds():g} s from a first rung of "
                    f"{first_rung / MS:.1f} ms) = "
                    f"{release.leak_bound_bits(longest, first_rung):.2f} bits per submission"
                )
                print(
                    f"answer after release: median {sorted(late)[len(late) // 2] * 1000:.0f} ms, "
                    f"max {max(late) * 1000:.0f} ms (never before: {min(late) >= 0})"
                )
        finally:
            server.kill(signal.SIGTERM)


if __name__ == "__main__":
    main()
