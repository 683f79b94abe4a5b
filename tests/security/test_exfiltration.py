"""Hidden tests stay hidden: attack submissions against a real ``numjudge serve``.

Every attack of ``attacks.py`` is submitted once through the service (its JSON answer and the
learner's web page of the submission) and once through ``numjudge grade``; no run of four
significant digits of a hidden input may appear in any of them, and every hidden test may
show only one of the outcomes ``graders.checks.hidden.hidden_outcomes`` counts (docs/security.md).
"""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.db import upgrade_database
from app.web import auth
from graders.api import Failure, PreparedExercise
from graders.checks.hidden import (
    diagnosis_outcomes,
    hidden_message,
    hidden_outcomes,
    hidden_status,
    leak_bound_bits,
)
from tests.app.live import LiveServer
from tests.security.attacks import ATTACKS, Attack
from tests.security.vault import EXERCISE, HINT, leaked, make_vault, needles, prepared_vault

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
DURATION = re.compile(r"\((\d+) ms\)")
TEST_KEYS = {
    "name",
    "title",
    "visibility",
    "status",
    "points",
    "max_points",
    "failure",
    "message",
    "error_map",
}


@dataclass
class Surfaces:
    """Everything a learner can read about one submission."""

    api: dict[str, Any]
    page: str
    cli: str
    waited_s: float
    """From sending the submission to reading it graded, as the learner's clock shows it."""
    cli_waited_s: float
    """How long ``numjudge grade`` took, which releases its report as soon as it is judged."""

    def texts(self) -> dict[str, str]:
        return {
            "API JSON": json.dumps(self.api, ensure_ascii=False),
            "web page": self.page,
            "numjudge grade": self.cli,
        }


class Learner:
    """A learner signed in to a live server, submitting to the vault."""

    def __init__(self, server: LiveServer, catalog: Path, tmp: Path) -> None:
        self.client = httpx.Client(base_url=server.url, timeout=60)
        self.catalog, self.tmp = catalog, tmp
        form = CSRF.search(self.client.get("/signup").text)
        assert form, "no CSRF field on the sign-up page"
        response = self.client.post(
            "/signup",
            data={
                "csrf_token": form.group(1),
                "username": "mallory",
                "password": "correct horse",
                "password2": "correct horse",
            },
        )
        assert response.status_code in (200, 303), response.text
        self.csrf = CSRF.search(self.client.get("/account").text)

    def close(self) -> None:
        self.client.close()

    def try_inputs(self, code: str, inputs: dict[str, str]) -> httpx.Response:
        """``POST /exercises/vault/try``, as the exercise page's script sends it."""
        assert self.csrf, "not signed in"
        return self.client.post(
            f"/exercises/{EXERCISE}/try",
            json={"code": code, "inputs": inputs},
            headers={auth.CSRF_HEADER: self.csrf.group(1)},
        )

    def submit(self, code: str) -> Surfaces:
        assert self.csrf, "not signed in"
        sent = time.monotonic()
        answer = self.client.post(
            "/submit",
            params={"wait": 60},
            json={"exercise": EXERCISE, "code": code},
            headers={auth.CSRF_HEADER: self.csrf.group(1)},
        )
        assert answer.status_code == 202, answer.text
        api = self.client.get(answer.json()["url"]).json()
        assert api["status"] == "done", api
        waited_s = time.monotonic() - sent
        page = self.client.get(f"/history/{api['id']}")
        assert page.status_code == 200
        source = self.tmp / "attack.py"
        source.write_text(code, encoding="utf-8")
        started = time.monotonic()
        graded = CliRunner().invoke(
            cli, ["grade", EXERCISE, str(source)], env={"NUMJUDGE_EXERCISES_DIR": str(self.catalog)}
        )
        cli_waited_s = time.monotonic() - started
        assert graded.exit_code in (0, 1), graded.output
        return Surfaces(api, page.text, graded.output, waited_s, cli_waited_s)


class Attacked:
    """What every attack shows, each submitted once for the module by whichever test needs
    it first: a test needs no other to have run before it."""

    def __init__(self, learner: Learner) -> None:
        self.learner = learner
        self.surfaces: dict[str, Surfaces] = {}

    def __call__(self, attack: Attack) -> Surfaces:
        if attack.name not in self.surfaces:
            self.surfaces[attack.name] = self.learner.submit(attack.code)
        return self.surfaces[attack.name]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_vault(tmp_path_factory.mktemp("catalog"))


@pytest.fixture(scope="module")
def vault(catalog: Path) -> PreparedExercise:
    return prepared_vault(catalog)


@pytest.fixture(scope="module")
def learner(catalog: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Learner]:
    tmp = tmp_path_factory.mktemp("service")
    database_url = f"sqlite:///{tmp / 'numjudge.db'}"
    upgrade_database(database_url)
    server = LiveServer(tmp, database_url, extra_env={"NUMJUDGE_EXERCISES_DIR": str(catalog)})
    server.start()
    try:
        learner = Learner(server, catalog, tmp)
        try:
            yield learner
        finally:
            learner.close()  # its connection to the server, else left to the collector
    finally:
        server.kill(signal.SIGTERM)


@pytest.fixture(scope="module")
def attacked(learner: Learner) -> Attacked:
    return Attacked(learner)


def hidden_tests(surfaces: Surfaces) -> list[dict[str, Any]]:
    tests = [t for t in surfaces.api["tests"] if t["visibility"] == "hidden"]
    assert [t["name"] for t in tests] == ["hidden single", "hidden batch", "hidden long"]
    return tests


def outcome(test: dict[str, Any]) -> Failure | None:
    """What a hidden test shows beyond its name, after checking that nothing else is in it."""
    assert set(test) == TEST_KEYS
    # The title is the name in the reader's language: the author's words, nothing computed.
    assert test["title"] == test["name"]
    assert test["error_map"] is None  # only a public test's values are drawn
    if test["failure"] is None:
        assert (test["status"], test["points"], test["message"]) == (
            "passed",
            test["max_points"],
            "",
        )
        return None
    failure = Failure(test["failure"])
    assert (test["status"], test["points"], test["message"]) == (
        hidden_status(failure).value,
        0.0,
        hidden_message(failure),
    )
    return failure


def candidate_hints(vault: PreparedExercise) -> list[str]:
    hints = [candidate.hint for candidate in vault.candidates.values()]
    assert HINT in hints
    return hints


def test_the_detector_finds_a_hidden_input_however_it_is_printed(vault: PreparedExercise) -> None:
    hidden = needles(vault, public=False)
    value = float(vault.cases[1].inputs["x"][0])
    for text in (
        repr(value),
        f"{value:.6e}",
        f"[{value:.5f}]",
        str(int(value * 1e4)),
        json.dumps({"v": value}),
    ):
        assert leaked(text, hidden), text
    assert not leaked("2026-11-30T22:59:58.987654+00:00 id 5e9f8a7b6c5d4e3f", hidden)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_no_hidden_input_leaves_the_sandbox(
    attack: Attack, attacked: Attacked, vault: PreparedExercise
) -> None:
    hidden, public = needles(vault, public=False), needles(vault, public=True)
    assert not leaked(attack.code, hidden)
    surfaces = attacked(attack)
    for surface, text in surfaces.texts().items():
        assert not leaked(text, hidden), (surface, sorted(leaked(text, hidden)), text[:3000])
    outcomes = [outcome(test) for test in hidden_tests(surfaces)]
    assert set(outcomes) <= hidden_outcomes()
    diagnosis = surfaces.api["diagnosis"]
    assert (diagnosis or {}).get("hint") in diagnosis_outcomes(candidate_hints(vault))
    api = surfaces.texts()["API JSON"]
    assert not re.search(r"exit code|signal \d|SIG[A-Z]", api), api
    # Of hidden cases the report keeps no time: only loading and the public case are counted,
    # so the hidden calls' sleep is in what the learner waited and not in the duration. (A
    # busy host lengthens both; the sleep stays outside the duration whatever the load.)
    # The service releases a result on a ladder (which may hide a counted sleep); the command
    # line shows its report at once.
    assert surfaces.api["duration_ms"] / 1000 + attack.hidden_sleep_s <= surfaces.waited_s
    cli_duration = DURATION.search(surfaces.cli)
    assert cli_duration, surfaces.cli
    assert int(cli_duration.group(1)) / 1000 + attack.hidden_sleep_s <= surfaces.cli_waited_s
    if attack.control:
        assert leaked(api, public), "the attack should show the public inputs"


def test_what_hidden_tests_showed_stays_within_the_bound(attacked: Attacked) -> None:
    """The outcomes the attacks produced: each one the bound counts, several of them used."""
    seen = {outcome(test) for attack in ATTACKS for test in hidden_tests(attacked(attack))}
    assert seen <= hidden_outcomes()
    assert {
        Failure.WRONG_TYPE,
        Failure.WRONG_SHAPE,
        Failure.EXCEPTION,
        Failure.CRASHED,
        None,
    } <= seen


# Returns its input: each hidden test's full message quotes the hidden values it got.
ECHO = """
def gate(x, w):
    return x * 1.0
"""


def test_full_messages_are_stored_with_the_hidden_inputs_and_reach_no_surface(
    learner: Learner, vault: PreparedExercise
) -> None:
    """What each hidden test would have said as a public one is kept for instructors (and a
    reveal): it holds hidden digits, which no surface a learner reads before a reveal shows."""
    hidden = needles(vault, public=False)
    surfaces = learner.submit(ECHO)
    assert {outcome(test) for test in hidden_tests(surfaces)} == {Failure.VALUES}
    for surface, text in surfaces.texts().items():
        assert not leaked(text, hidden), (surface, sorted(leaked(text, hidden)), text[:3000])
    with closing(sqlite3.connect(learner.tmp / "numjudge.db")) as database:
        (stored,) = database.execute(
            "SELECT hidden_messages FROM submissions WHERE id = ?", (surfaces.api["id"],)
        ).fetchone()
    full = json.loads(stored)
    # The control: the stored full messages do carry the hidden inputs.
    assert sorted(full) == ["hidden batch", "hidden long", "hidden single"]
    assert all(leaked(message, hidden) for message in full.values()), full


# The first significant digit of a hidden case's x (5-9), sent as a category of its own.
ENCODER = """
import numpy as np

def gate(x, w):
    digit = int(f"{abs(np.ravel(x)[0]):.10f}"[2])
    if abs(np.ravel(x)[0]) < 0.5:        # the public case: answer it
        return np.tanh(x * w)
    if digit == 5:
        return np.tanh(x * w).tolist()
    if digit == 6:
        return np.zeros(7)
    if digit == 7:
        return np.tanh(x * w).astype(np.float32)
    if digit == 8:
        return np.zeros_like(x)
    raise ValueError("nine")
"""
DECODER = {
    Failure.WRONG_TYPE: 5,
    Failure.WRONG_SHAPE: 6,
    Failure.WRONG_DTYPE: 7,
    Failure.VALUES: 8,
    Failure.EXCEPTION: 9,
}


def test_a_category_channel_carries_no_more_than_the_bound(
    learner: Learner, vault: PreparedExercise
) -> None:
    """The leak measured: choosing the category by a digit works, and is all that works."""
    surfaces = learner.submit(ENCODER)
    decoded = [
        DECODER[failure] for failure in map(outcome, hidden_tests(surfaces)) if failure is not None
    ]
    actual = [
        int(f"{abs(float(case.inputs['x'].flat[0])):.10f}"[2])
        for case in vault.cases
        if not case.spec.public
    ]
    # log2(5) = 2.3 bits of each hidden case recovered, within the bound.
    assert decoded == actual
    assert len(DECODER) < 2 ** leak_bound_bits(candidate_hints(vault))


# The learner's own inputs: of the public example's kind, digits 1-4 like public inputs.
OWN_INPUTS = {"x": "np.array([0.1212, -0.3434, 0.2121])", "w": "np.array([0.4141, 0.2, -0.3])"}
TRY_KEYS = {"status", "message", "yours", "reference", "output", "error_map"}


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_custom_inputs_reach_no_hidden_input(
    attack: Attack, learner: Learner, vault: PreparedExercise
) -> None:
    """Every attack's code tried on the learner's own inputs: the sandboxes of both calls hold
    no case at all, so whatever the code dumps (frames, objects, modules) holds no hidden
    input, and the reference's answer is to the learner's inputs only."""
    hidden = needles(vault, public=False)
    answer = learner.try_inputs(attack.code, OWN_INPUTS)
    assert answer.status_code == 200, answer.text
    assert set(answer.json()) == TRY_KEYS
    assert not leaked(answer.text, hidden), (
        sorted(leaked(answer.text, hidden)),
        answer.text[:3000],
    )
    assert "hidden" not in answer.text


# Inputs that try to make the reference reveal something (exceptions on odd values, objects
# whose printing runs code) or the parser run something; each refused, or answered with
# nothing hidden in it.
TRICKS = (
    ({"x": "__import__('os').system('id')", "w": "1"}, "input x, line 1, column 1: only np.array"),
    ({"x": "np.load('/proc/self/environ')", "w": "1"}, "only np.array"),
    ({"x": "().__class__.__base__.__subclasses__()", "w": "1"}, "may be called"),
    ({"x": "().__class__", "w": "1"}, "an attribute is not allowed"),
    ({"x": "[c for c in ()]", "w": "1"}, "a comprehension is not allowed"),
    ({"x": "np.zeros((100000, 100000))", "w": "1"}, "too large"),
    ({"x": "np.ones(10**10)", "w": "1"}, "an operator"),
    ({"x": "[" * 200 + "]" * 200, "w": "1"}, "nested"),
    ({"x": "1", "w": "1", "cases": "[]"}, "unknown input(s) cases"),
)
ODD_INPUTS = (
    {"x": "{'__class__': 1}", "w": "'hidden_single'"},
    {"x": "np.zeros((2, 3))", "w": "np.ones((4, 5))"},
    {"x": "'hidden_long'", "w": "np.eye(2)"},
)


@pytest.mark.parametrize(("inputs", "detail"), TRICKS, ids=[d for _, d in TRICKS])
def test_parser_tricks_get_a_clear_4xx(
    learner: Learner, inputs: dict[str, str], detail: str
) -> None:
    answer = learner.try_inputs(ATTACKS[0].code, inputs)
    assert answer.status_code == 422, answer.text
    assert detail in answer.json()["detail"]


@pytest.mark.parametrize("inputs", ODD_INPUTS, ids=["a dict", "mismatched shapes", "a string"])
def test_odd_inputs_make_the_reference_reveal_nothing_hidden(
    learner: Learner, vault: PreparedExercise, inputs: dict[str, str]
) -> None:
    hidden = needles(vault, public=False)
    answer = learner.try_inputs(ATTACKS[0].code, inputs)
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "reference_error"
    assert not leaked(answer.text, hidden)
