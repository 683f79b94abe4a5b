"""The similarity reports' pages (instructors only): asked for with a form, computed on the
grading queue, stored; the ranking with its flags, a pair side by side with the matched
stretches marked (the learners' code escaped), the CSV, and the CLI on the same rows."""

from __future__ import annotations

import csv
import io
import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.grading.recovery import recover
from app.models import (
    ReportState,
    Role,
    SubmissionKind,
    SubmissionStatus,
    WorkScope,
    utcnow,
)
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from app.services import similarity_jobs
from app.store import accounts as account_store
from app.store import similarity as similarity_store
from app.store import submissions as submission_store
from tests.app.services.similarity_answers import disguised_copy, honest_answers
from tests.app.web.helpers import csrf_of, sign_in

REPO = Path(__file__).resolve().parents[3]
HOSTILE = "# </code><script>alert('copied')</script>\n"


def graded(runtime: GradingRuntime, name: str, code: str, score: float = 1.0) -> str:
    """A learner's graded submission to layer-norm, stored as the grading thread stores one."""
    with runtime.sessions() as session:
        user = account_store.get_user_by_name(session=session, name=name)
        if user is None:
            user = account_store.create_user(
                session=session, name=name, role=Role.LEARNER, password="correct horse"
            )
        row = submission_store.create_submission(
            session=session,
            user=user,
            exercise_id="layer-norm",
            exercise_version="v1",
            code=code,
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=utcnow(),
        )
        row.status, row.score, row.max_score = SubmissionStatus.DONE, score, 4.0
        row.finished_at = utcnow()
        session.commit()
        return row.id


def seed_class(runtime: GradingRuntime) -> dict[str, str]:
    """Ten honest learners and a copier of learner-03; the copier's earlier, worse try is not
    the answer that counts. The submission ids by learner."""
    codes = honest_answers(10, seed=2, shared_steps=1)
    ids = {f"learner-{i:02d}": graded(runtime, f"learner-{i:02d}", c) for i, c in enumerate(codes)}
    graded(runtime, "copier", "import numpy as np\n", score=0.0)
    ids["copier"] = graded(runtime, "copier", HOSTILE + disguised_copy(codes[3]))
    return ids


def wait_for_report(client: TestClient, url: str) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page: str = client.get(url).text
        if 'data-state="queued"' not in page:
            return page
        time.sleep(0.2)
    raise AssertionError("the report stayed queued")


def test_an_instructor_asks_for_a_report_and_reads_the_ranking_the_pair_and_the_csv(
    client: TestClient, runtime: GradingRuntime
) -> None:
    ids = seed_class(runtime)
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password="correct horse"
        )
        session.commit()
    sign_in(client, "teacher", "correct horse")
    index = client.get("/instructor/similarity")
    assert index.status_code == 200 and "No report yet." in index.text
    asked = client.post(
        "/instructor/similarity",
        data={"csrf_token": csrf_of(index.text), "scope": "exercise", "target": "layer-norm"},
        follow_redirects=False,
    )
    assert asked.status_code == 303
    url = asked.headers["location"]
    page = wait_for_report(client, url)
    assert 'data-state="done"' in page
    assert "11 answers, 55 pairs" in page and 'data-flagged="1"' in page
    rows = re.findall(r'<tr data-pair="([^"]+)"( data-flagged="1")?>', page)
    assert rows[0] == ("copier|learner-03", ' data-flagged="1"')
    assert all(flag == "" for _, flag in rows[1:])

    # Why it is flagged: each measure, and the fences never above near-identical.
    assert 'data-reason="tokens near-identical"' in page
    assert 'data-reason="structure near-identical"' in page
    fences = [float(f) for f in re.findall(r'data-measure="\w+" data-fence="([0-9.]+)"', page)]
    assert len(fences) == 3 and all(f <= 0.9 for f in fences)
    pair = client.get(f"{url}/layer-norm/1")
    assert pair.status_code == 200
    assert pair.text.count("<mark>") >= 2  # a matched stretch in each answer
    assert "data-reasons" in pair.text and pair.text.count("<tr data-shared>") >= 1
    assert "<script>alert" not in pair.text
    assert "&lt;/code&gt;&lt;script&gt;alert(&#39;copied&#39;)&lt;/script&gt;" in pair.text
    assert f'href="/history/{ids["copier"]}"' in pair.text
    assert f'href="/history/{ids["learner-03"]}"' in pair.text
    assert client.get(f"{url}/layer-norm/56").status_code == 404

    exported = client.get(f"{url}/pairs.csv")
    assert exported.headers["content-type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(exported.text)))
    assert table[0][:7] == [
        "exercise",
        "learner_a",
        "learner_b",
        "similarity",
        "share_a",
        "share_b",
        "flagged",
    ]
    assert table[1][:4] == ["layer-norm", "copier", "learner-03", "1"] and table[1][6] == "flagged"
    assert len(table) == 1 + 55 and all(row[6] == "" for row in table[2:])
    assert client.get("/instructor/similarity").text.count(url) >= 1

    token = csrf_of(client.get("/instructor/similarity").text)
    for scope, target, said in (
        ("exercise", "no-such", "There is no exercise &#39;no-such&#39;."),
        ("assignment", "no-such", "There is no assignment &#39;no-such&#39;."),
    ):
        unknown = client.post(
            "/instructor/similarity",
            data={"csrf_token": token, "scope": scope, "target": target},
            follow_redirects=False,
        )
        assert unknown.status_code == 404 and said in unknown.text
    assert client.get("/instructor/similarity/nothing").status_code == 404


def test_learners_cannot_ask_for_or_read_a_report(
    client: TestClient, runtime: GradingRuntime
) -> None:
    seed_class(runtime)
    sign_in(client, "learner-01", "correct horse")
    assert client.get("/instructor/similarity").status_code == 403
    token = csrf_of(client.get("/account").text)
    refused = client.post(
        "/instructor/similarity",
        data={"csrf_token": token, "scope": "exercise", "target": "layer-norm"},
        follow_redirects=False,
    )
    assert refused.status_code == 403


def test_the_cli_computes_and_stores_a_report_the_pages_show(
    client: TestClient, runtime: GradingRuntime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_class(runtime)
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", runtime.settings.database_url)
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(runtime.settings.exercises_dir))
    get_settings.cache_clear()
    out = tmp_path / "pairs.csv"
    try:
        result = CliRunner().invoke(
            cli, ["similarity", "layer-norm", "--csv", str(out), "--top", "2"]
        )
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("layer-norm: 11 answers, 55 pairs;") and "1 flagged" in lines[0]
    assert (
        "copier · learner-03  FLAGGED (tokens: near-identical; structure: near-identical"
        in lines[1]
    )
    assert "FLAGGED" not in lines[2]
    assert (
        out.read_text(encoding="utf-8").splitlines()[1].startswith("layer-norm,copier,learner-03,1")
    )
    report_id = lines[-1].split()[1].rstrip(":")
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password="correct horse"
        )
        session.commit()
    sign_in(client, "teacher", "correct horse")
    page = client.get(f"/instructor/similarity/{report_id}").text
    assert 'data-state="done"' in page and "Asked for by numjudge similarity" in page


def test_a_report_the_queue_never_received_fails_with_a_reason(
    runtime: GradingRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    def queue_down(report_id: str) -> None:
        raise QueueUnavailable("queue redis://nowhere: connection refused")

    monkeypatch.setattr(runtime.queue, "enqueue_report", queue_down)
    report_id = similarity_jobs.request_report(
        runtime=runtime, scope=WorkScope.EXERCISE, target="layer-norm", requested_by="t"
    )
    with runtime.sessions() as session:
        report = similarity_store.get_report(session=session, report_id=report_id)
        assert report is not None
        assert (report.state, report.error) == (ReportState.FAILED, similarity_jobs.QUEUE_DOWN)


def test_a_queued_report_is_sent_again_when_the_workers_start(
    client: TestClient, runtime: GradingRuntime
) -> None:
    seed_class(runtime)  # the client's app runs the workers that compute it
    with runtime.sessions() as session:  # queued, its message lost with a stopped worker
        report_id = similarity_store.create_report(
            session=session, scope=WorkScope.EXERCISE, target="layer-norm", requested_by="t"
        ).id
        session.commit()
    recover(runtime=runtime, startup=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with runtime.sessions() as session:
            report = similarity_store.get_report(session=session, report_id=report_id)
            assert report is not None
            if report.state is not ReportState.QUEUED:
                break
        time.sleep(0.2)
    assert report is not None and report.state is ReportState.DONE, report


def test_no_learner_reads_a_report_its_csv_or_a_pair_even_their_own(
    client: TestClient, runtime: GradingRuntime
) -> None:
    """A report that exists, read by the learners of its flagged pair and by no one signed
    in: each of its routes refuses, and no learner's code is in the answer."""
    seed_class(runtime)
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password="correct horse"
        )
        session.commit()
    sign_in(client, "teacher", "correct horse")
    asked = client.post(
        "/instructor/similarity",
        data={
            "csrf_token": csrf_of(client.get("/instructor/similarity").text),
            "scope": "exercise",
            "target": "layer-norm",
        },
        follow_redirects=False,
    )
    url = asked.headers["location"]
    assert 'data-state="done"' in wait_for_report(client, url)
    routes = (url, f"{url}/pairs.csv", f"{url}/layer-norm/1")
    assert all(client.get(route).status_code == 200 for route in routes)  # the control
    assert "copied" in client.get(routes[2]).text  # the copier's code, shown to the teacher

    for learner in ("copier", "learner-03"):
        client.cookies.clear()
        sign_in(client, learner, "correct horse")
        for route in routes:
            answer = client.get(route, follow_redirects=False)
            assert answer.status_code == 403, (learner, route)
            assert "copied" not in answer.text and "def layer_norm" not in answer.text
    client.cookies.clear()
    for route in routes:
        answer = client.get(route, follow_redirects=False)
        assert answer.status_code in (303, 401), route
        assert "copied" not in answer.text and "def layer_norm" not in answer.text


def test_a_report_past_its_cpu_time_leaves_pairs_out_and_says_so(
    client: TestClient, runtime: GradingRuntime
) -> None:
    """A budget spent before the first pair (a tiny one here; hostile answers in earnest):
    the report is stored with no pair compared, and its page says how many were left out and
    whose answers were cut."""
    seed_class(runtime)
    graded(runtime, "long-winded", honest_answers(1, seed=9)[0] + "# " + "x" * 20_000 + "\n")
    with runtime.sessions() as session:
        report = similarity_jobs.compute_now(
            session=session,
            catalog=runtime.catalog,
            scope=WorkScope.EXERCISE,
            target="layer-norm",
            requested_by="prof",
            settings=runtime.settings.model_copy(update={"similarity_cpu_s": 1e-9}),
        )
    (section,) = report.sections
    assert report.state is ReportState.DONE
    assert section.pairs == () and section.pairs_left_out == 12 * 11 // 2
    assert section.cut == ("long-winded",)
    with runtime.sessions() as session:
        account_store.create_user(
            session=session, name="teacher", role=Role.INSTRUCTOR, password="correct horse"
        )
        session.commit()
    sign_in(client, "teacher", "correct horse")
    page = client.get(f"/instructor/similarity/{report.id}").text
    assert 'data-left-out="66"' in page and "66 of 66 pairs were not compared" in page
    assert 'data-cut="long-winded"' in page and "first 10000 characters only" in page
