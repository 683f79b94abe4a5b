"""``numjudge_client.Client`` against a real ``numjudge serve``."""

from __future__ import annotations

import importlib.util
import socket
import sys
from pathlib import Path

import numjudge_client
import pytest
from numjudge_client import (
    Client,
    GradingTimedOut,
    InvalidToken,
    Kind,
    NotSignedIn,
    RateLimited,
    ServerError,
    ServerUnreachable,
    Status,
    Verdict,
    Visibility,
)

from tests.app.live import free_port
from tests.clients.conftest import EXERCISE, Learner, exercise_file

MISTAKE = "mistakes/one_minus_z.py"


def client_for(learner: Learner) -> Client:
    return Client(learner.server.url, learner.token)


def import_file(path: Path, name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_exercises_and_starter_come_from_the_server(learner: Learner) -> None:
    with Client(learner.server.url) as anonymous:  # the catalog needs no token
        exercises = anonymous.exercises()
        by_id = {e.id: e for e in exercises}
        assert by_id[EXERCISE].title and len(by_id) == len(exercises) > 1
        assert anonymous.starter(EXERCISE) == exercise_file("starter.py")
        assert anonymous.exercise(EXERCISE).entry == "update_gate"


def test_a_failing_submission_has_its_hint_in_text_and_html(learner: Learner) -> None:
    with client_for(learner) as client:
        result = client.submit(EXERCISE, exercise_file(MISTAKE))
    assert result.status is Status.DONE and result.verdict is Verdict.FAILED
    assert result.kind is Kind.SUBMIT
    assert result.score is not None and result.max_score is not None
    assert result.score < result.max_score
    failed = [t for t in result.tests if t.status is numjudge_client.TestStatus.FAILED]
    assert result.diagnosis is not None and "add up to 1" in result.diagnosis.hint
    assert list(result.diagnosis.cases) == [t.name for t in failed]
    assert {t.visibility for t in result.tests} == {Visibility.PUBLIC, Visibility.HIDDEN}
    text = str(result)
    assert text.startswith(f"{EXERCISE} (submit): Failed")
    assert "FAIL  " in text and "\nhint (numerical example, batch of two," in text
    # The hint is wrapped with the list of cases it explains, wherever that list ends.
    assert "Your gate and the expected one add up to 1" in " ".join(text.split())
    page = result._repr_html_()
    assert 'data-verdict="failed"' in page and '<table class="test-table"' in page
    assert page.count('<tr data-status="failed"') == len(failed)
    assert "Your gate and the expected one add up to 1" in page
    assert f"{result.score:g} / {result.max_score:g}" in page


def test_a_function_is_sent_as_its_module(learner: Learner, tmp_path: Path) -> None:
    path = tmp_path / "my_gate.py"
    path.write_text(exercise_file("solution.py"))
    module = import_file(path, "my_gate_module")
    with client_for(learner) as client:
        result = client.submit(EXERCISE, module.update_gate)  # type: ignore[attr-defined]
        assert result.verdict is Verdict.PASSED, str(result)
        assert result.score == result.max_score
        # another name than the exercise's entry function is bound to it
        renamed = tmp_path / "renamed.py"
        renamed.write_text(exercise_file("solution.py").replace("def update_gate(", "def mine("))
        other = import_file(renamed, "renamed_gate_module")
        assert client.submit(EXERCISE, other.mine).verdict is Verdict.PASSED  # type: ignore[attr-defined]


def test_run_grades_the_public_cases_only(learner: Learner) -> None:
    with client_for(learner) as client:
        result = client.run(EXERCISE, exercise_file(MISTAKE))
    assert result.kind is Kind.RUN and result.verdict is Verdict.FAILED
    assert result.tests and {t.visibility for t in result.tests} == {Visibility.PUBLIC}


def test_wait_zero_returns_the_queued_submission(learner: Learner) -> None:
    with client_for(learner) as client:
        queued = client.submit(EXERCISE, exercise_file("solution.py"), wait=0)
        assert queued.status is Status.QUEUED and queued.verdict is None
        assert "Queued" in str(queued) and 'data-verdict="queued"' in queued._repr_html_()
        assert client.result(queued.id).id == queued.id


@pytest.mark.slow
def test_waiting_too_long_names_the_submission(learner: Learner) -> None:
    slow = "import time\ntime.sleep(2)\n" + exercise_file("solution.py")
    with client_for(learner) as client, pytest.raises(GradingTimedOut) as caught:
        client.submit(EXERCISE, slow, wait=0.3)
    assert caught.value.submission_id in str(caught.value)
    assert "No result for gru-update-gate after 0.3 s" in str(caught.value)


def test_a_wrong_token_is_said_in_words(learner: Learner) -> None:
    with Client(learner.server.url, "nj_wrong") as client, pytest.raises(InvalidToken) as caught:
        client.submit(EXERCISE, "x = 1")
    assert "refused the token (Invalid, expired or revoked API token)" in str(caught.value)
    assert f"{learner.server.url}/account" in str(caught.value)
    not_signed_in = pytest.raises(NotSignedIn, match="Not signed in: run %numjudge login")
    with Client(learner.server.url) as client, not_signed_in:
        client.check_token()


def test_an_unknown_exercise_gives_the_servers_sentence(learner: Learner) -> None:
    with client_for(learner) as client, pytest.raises(ServerError) as caught:
        client.submit("nope", "x = 1")
    assert caught.value.status_code == 404
    assert str(caught.value) == "The server refused (404): Exercise 'nope' not found"


def test_an_unreachable_server_is_said_in_words() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with Client(url, "nj_any") as client, pytest.raises(ServerUnreachable) as caught:
        client.exercises()
    assert f"Cannot reach the numjudge server at {url}" in str(caught.value)


def test_too_many_submissions_say_when_to_retry(limited_learner: Learner) -> None:
    with client_for(limited_learner) as client:
        assert client.submit(EXERCISE, exercise_file("solution.py")).passed
        with pytest.raises(RateLimited) as caught:
            client.submit(EXERCISE, exercise_file("solution.py"))
    retry_after = caught.value.retry_after
    assert retry_after is not None and 0 < retry_after <= 60
    assert str(caught.value) == (
        "Too many submissions: You sent 1 submissions in the last "
        f"minute (the limit is 1). Try again in {retry_after:g} s."
    )


def test_a_server_that_does_not_answer_in_time_is_said_in_words() -> None:
    with socket.socket() as silent:  # the kernel completes the handshake; nobody answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with (
            Client(url, "nj_any", timeout=0.2) as client,
            pytest.raises(ServerUnreachable) as caught,
        ):
            client.exercises()
    assert str(caught.value) == (
        f"The numjudge server at {url} did not answer in time; try again in a moment."
    )
