"""Tests with a CPU-time rule of their own are listed on the exercise page and in the API."""

from __future__ import annotations

from html import unescape
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.runtime.engine import SandboxGrader
from tests.app.conftest import make_runtime, make_settings, wipe
from tests.app.web.helpers import sign_up
from tests.graders.timed_exercises import make_gram, make_running_total


def test_speed_rules_and_time_limits_are_listed(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> None:
    make_gram(tmp_path / "exercises")
    make_running_total(tmp_path / "exercises")
    settings = make_settings(database_url, tmp_path, exercises_dir=tmp_path / "exercises")
    try:
        with TestClient(create_app(runtime=make_runtime(settings, shared_grader))) as client:
            gram = client.get("/exercises/gram-matrix").json()
            assert gram["case_rules"] == [
                {"test": "large", "time_limit_s": None, "max_slowdown": 5.0}
            ]
            total = client.get("/exercises/running-total").json()
            assert total["case_rules"] == [
                {"test": "long", "time_limit_s": 0.5, "max_slowdown": None}
            ]
            sign_up(client, "ada")
            page = unescape(client.get("/learn/gram-matrix?lang=en").text)
            assert (
                '<li data-test="large">Test large: at most 5× the reference\'s CPU time</li>'
                in page
            )
            page = client.get("/learn/running-total?lang=en").text
            assert '<li data-test="long">Test long: at most 0.5 s of CPU time</li>' in page
    finally:
        wipe(database_url)
