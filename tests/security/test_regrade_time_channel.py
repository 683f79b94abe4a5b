"""A regrade's time carries at most a few bits too: against a live ``numjudge serve``, a
learner whose submissions wait chosen times in their first hidden call, polling their history
while an instructor regrades them, sees each regraded result appear one boundary of the
release ladder after the one before, never after the grading's own time, and never sees a
regrade running (docs/security.md, "Regrades").
"""

from __future__ import annotations

import itertools
import signal
from datetime import timedelta
from pathlib import Path

import pytest

from app.core.db import session_scope, upgrade_database
from app.models import Role
from app.services import release
from app.store import submissions as submission_store
from graders.api import SandboxLimits
from tests.app.live import LiveServer
from tests.security.timing import regrade_and_watch, submit_and_wait, waiting_code
from tests.security.vault import make_vault, prepared_vault

# Each wait plus the grading's own time falls between two boundaries (1.6 s to 3.2 s, 3.2 s
# to 6.4 s), far from both: a gap that times the grading is no boundary.
WAITS_S = (0.3, 2.2, 4.2, 2.2)
EARLY = timedelta(milliseconds=150)
"""How much earlier than a boundary a gap may read: the poll that saw the previous result
came late (a busy host's share)."""
LATE = timedelta(milliseconds=300)
"""How much later: storing the result at the boundary and the next poll (a busy host's
share; a grading's own time is 0.6 s or more from every boundary)."""


@pytest.mark.slow
def test_regraded_results_appear_only_a_boundary_apart(tmp_path: Path) -> None:
    catalog = make_vault(tmp_path / "catalog")
    longest = timedelta(
        seconds=SandboxLimits(time_s=prepared_vault(catalog).exercise.limits.time_s).wall_s
    )
    database_url = f"sqlite:///{tmp_path / 'numjudge.db'}"
    upgrade_database(database_url)
    # The regrades' own ladder, from the fixed first step: the measured first rung is
    # tests/security/test_time_channel.py's.
    server = LiveServer(
        tmp_path,
        database_url,
        extra_env={"NUMJUDGE_EXERCISES_DIR": str(catalog), "NUMJUDGE_MEASURE_FIRST_RUNGS": "false"},
    )
    server.start()
    try:
        with (
            server.client(server.add_user("mallory")) as learner,
            server.client(server.add_user("prof", Role.INSTRUCTOR)) as instructor,
        ):
            ids = [submit_and_wait(learner, waiting_code(s)).answer["id"] for s in WAITS_S]
            seen = regrade_and_watch(learner, instructor, catalog, ids)
    finally:
        server.kill(signal.SIGTERM)

    # The moment a regrade started is a time too (the previous one's end).
    assert seen.statuses == {"queued", "done"}
    # A regrade at the lowest CPU priority on a busy host can pass the top: its multiples too.
    boundaries = list(itertools.islice(release.boundaries(longest), 20))
    with session_scope(database_url) as session:
        rows = [submission_store.get_submission(session=session, submission_id=i) for i in ids]
    for gap, row in zip(seen.gaps, rows[1:], strict=True):
        assert row is not None and row.started_at and row.finished_at
        graded = row.finished_at - row.started_at
        assert any(b - EARLY <= gap < b + LATE for b in boundaries), (gap, graded)
        assert gap + EARLY >= graded  # after the grading: stored at its boundary, not before
