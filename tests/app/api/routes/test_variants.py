"""Per-learner variants in the service: each learner's numbers stay theirs on every view and
submission, differ between learners, are recorded with each submission and kept by its
regrade, show on the pages, and are never the request's to choose."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.models import LearnerVariant, Role, Submission
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.store import accounts as account_store
from app.store import variants as variant_store
from tests.app.conftest import read_exercise_file
from tests.app.course_catalog import course_service, user
from tests.app.web.helpers import make_instructor, sign_up
from tests.app.web.helpers import submit as submit_from_page

LEAKY = "leaky-integrator"
# The reference with the statement's default factor written in: right only for a learner
# whose step response uses 0.75.
FIXED_ALPHA = read_exercise_file(LEAKY, "solution.py").replace(
    "a = np.asarray(alpha, dtype=np.float64)",
    "a = np.asarray(0.75 if np.ndim(alpha) == 0 else alpha)",
)


@pytest.fixture
def service(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[tuple[TestClient, GradingRuntime]]:
    with course_service(database_url, tmp_path, shared_grader, None, copies=(LEAKY,)) as service:
        yield service


def learner_with(runtime: GradingRuntime, name: str, alpha: float) -> dict[str, str]:
    """A learner whose stored seed draws ``alpha`` (as if drawn on their first view)."""
    prepared = runtime.catalog.prepared(LEAKY)
    seed = next(s for s in range(1000) if prepared.variant_for(s)["alpha"] == alpha)
    headers = user(runtime, name)
    with runtime.sessions() as session:
        account = account_store.get_user_by_name(session=session, name=name)
        assert account is not None
        variant_store.variant_seed(
            session=session, user_id=account.id, exercise_id=LEAKY, fresh=seed
        )
        session.commit()
    return headers


def described(client: TestClient, headers: dict[str, str]) -> dict[str, Any]:
    response = client.get(f"/exercises/{LEAKY}", headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def submit(client: TestClient, headers: dict[str, str], code: str) -> dict[str, Any]:
    response = client.post(
        "/submit", params={"wait": 30}, headers=headers, json={"exercise": LEAKY, "code": code}
    )
    result: dict[str, Any] = response.json()
    assert result["status"] == "done", result
    return result


def step_response(result: dict[str, Any]) -> str:
    return str(next(t["status"] for t in result["tests"] if t["name"] == "step response"))


def test_a_learner_keeps_their_variant_and_learners_differ(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = user(runtime, "ada")
    first = described(client, ada)
    assert set(first["variant"]) == {"alpha", "s1", "s2", "window"}
    assert f"\\alpha = {first['variant']['alpha']}$" in first["statement_markdown"]
    assert "{{" not in first["statement_markdown"] + first["statement_html"]
    assert described(client, ada)["variant"] == first["variant"]
    with runtime.sessions() as session:
        assert session.scalar(select(func.count()).select_from(LearnerVariant)) == 1
    # Twelve learners' factors drawn from five: all the same once in 5**11 runs.
    others = [described(client, user(runtime, f"learner{n}"))["variant"] for n in range(12)]
    assert len({v["alpha"] for v in [first["variant"], *others]}) > 1
    # A reader who is not signed in reads the default numbers, and nothing is stored for them.
    anonymous = client.get(f"/exercises/{LEAKY}").json()
    assert anonymous["variant"]["alpha"] == 0.75
    with runtime.sessions() as session:
        assert session.scalar(select(func.count()).select_from(LearnerVariant)) == 13
    # The learner's public inputs are made with their factor.
    inputs = client.get(f"/exercises/{LEAKY}/public-inputs", headers=ada).json()
    step = next(c for c in inputs["cases"] if c["name"] == "step response")
    assert step["inputs"]["alpha"] == first["variant"]["alpha"]


def test_a_submission_is_graded_with_the_learners_variant_and_its_regrade_keeps_it(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada, bob = learner_with(runtime, "ada", 0.6), learner_with(runtime, "bob", 0.75)
    assert described(client, ada)["variant"]["alpha"] == 0.6
    right = submit(client, ada, read_exercise_file(LEAKY, "solution.py"))
    assert right["verdict"] == "passed" and right["variant"]["alpha"] == 0.6
    # The same code is right on bob's step response and wrong on ada's.
    mine, his = submit(client, ada, FIXED_ALPHA), submit(client, bob, FIXED_ALPHA)
    assert (step_response(mine), step_response(his)) == ("failed", "passed")
    assert (mine["variant"]["alpha"], his["variant"]["alpha"]) == (0.6, 0.75)
    # A run is graded with it too.
    run = client.post(
        "/run", params={"wait": 30}, headers=ada, json={"exercise": LEAKY, "code": FIXED_ALPHA}
    ).json()
    assert run["variant"]["alpha"] == 0.6 and step_response(run) == "failed"

    prof = user(runtime, "prof", Role.INSTRUCTOR)
    statement = runtime.catalog.root / LEAKY / "statement.md"
    statement.write_text(statement.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    version = runtime.catalog.load(LEAKY).version
    assert client.post(f"/regrades/{LEAKY}", headers=prof).json()["queued"] >= 3
    # A regrade runs at background priority: on a busy host it waits for the CPU.
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        again = client.get(f"/submissions/{mine['id']}", headers=ada).json()
        if again["exercise_version"] == version and again["status"] == "done":
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"not regraded within 300 s: {again}")
    assert again["regraded"] is True and again["variant"] == mine["variant"]
    assert step_response(again) == "failed"


def test_a_learner_cannot_choose_their_variant(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    ada = learner_with(runtime, "ada", 0.6)
    response = client.post(
        "/submit",
        params={"wait": 30},
        headers=ada,
        json={"exercise": LEAKY, "code": FIXED_ALPHA, "variant": {"alpha": 0.75}},
    )
    assert response.status_code == 422
    with runtime.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == 0
        # Their seed is the one stored first: a second first view cannot replace it.
        account = account_store.get_user_by_name(session=session, name="ada")
        assert account is not None
        stored = variant_store.variant_seed(
            session=session, user_id=account.id, exercise_id=LEAKY, fresh=12345
        )
        assert stored != 12345
    assert submit(client, ada, FIXED_ALPHA)["variant"]["alpha"] == 0.6


def test_the_pages_show_the_variant_to_the_learner_and_the_instructor(
    service: tuple[TestClient, GradingRuntime],
) -> None:
    client, runtime = service
    sign_up(client, "ada")
    page = client.get(f"/learn/{LEAKY}").text
    numbers = re.search(r'id="variant">.*?<code>alpha = ([0-9.]+)</code>', page, re.DOTALL)
    assert numbers is not None, page
    alpha = numbers.group(1)
    assert f"\\alpha = {alpha}" in page
    assert client.get(f"/learn/{LEAKY}").text.count(f"alpha = {alpha}") == page.count(
        f"alpha = {alpha}"
    )
    japanese = client.get(f"/learn/{LEAKY}?lang=ja").text
    assert "この演習でのあなた専用の数値" in japanese and f"\\alpha = {alpha}" in japanese
    submit_from_page(client, LEAKY, "solution.py")
    with runtime.sessions() as session:
        row = session.scalars(select(Submission)).one()
    assert row.variant is not None and str(row.variant["alpha"]) == alpha
    own = client.get(f"/history/{row.id}").text
    assert f"<code>alpha = {alpha}</code>" in own
    client.cookies.clear()
    make_instructor(runtime, client)
    seen = client.get(f"/history/{row.id}").text
    assert "learner&#39;s own numbers" in seen or "learner's own numbers" in seen
    assert f"<code>alpha = {alpha}</code>" in seen


def test_a_draw_that_is_no_variant_is_a_broken_exercise_not_a_server_error(
    service: tuple[TestClient, GradingRuntime], tmp_path: Path
) -> None:
    client, runtime = service
    cases = tmp_path / "exercises" / LEAKY / "cases.py"
    source = cases.read_text(encoding="utf-8")
    drawn = "    alpha = float(rng.choice(RETENTIONS))\n"
    assert drawn in source
    cases.write_text(source.replace(drawn, drawn + "    return (alpha,)\n"), encoding="utf-8")
    # A learner meets it as any broken folder: it does not exist for them.
    learner = client.get(f"/exercises/{LEAKY}", headers=user(runtime, "ada"))
    assert learner.status_code == 404, learner.text
    # The instructor reads what to fix.
    instructor = client.get(f"/exercises/{LEAKY}", headers=user(runtime, "ian", Role.INSTRUCTOR))
    assert "@variant must return a dict of numbers keyed by name, got tuple" in instructor.text
