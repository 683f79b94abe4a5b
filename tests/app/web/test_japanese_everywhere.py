"""A reader of Japanese meets no English word (issue 39, item 6): every page of both courses,
the results of reference, starter and mistake submissions graded through the real path (the
API's JSON, the result's page and its error pictures), and every sentence the service or the
engine may say (the pages' catalog, refusals included, and the engine's messages) read in
Japanese hold no English word outside code, identifiers, names and Python's own error text
(tests/app/web/japanese_reader.py says what counts as a word a reader meets)."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.runtime.context import GradingRuntime
from app.services import wording
from app.services.translations import LANG_COOKIE
from app.web import auth
from graders.api import Exercise, ExerciseCatalog
from graders.messages import LOCALE_DIR
from tests.app.conftest import EXERCISES
from tests.app.web.helpers import csrf_of, sign_up
from tests.app.web.japanese_reader import (
    PLACEHOLDER,
    english_words,
    identifiers,
)

LEARNER = "hanako"
MISTAKES_PER_EXERCISE = 2
"""Mistakes graded per exercise (with the reference and the starter): every exercise's
results, their hints, messages and pictures, in a few minutes."""
CODE_IN_SENTENCES = frozenset(
    {"username", "email", "section", "submissions", "mistakes", "axis", "fork", "Sign"}
)
"""Code a catalog's sentence names without markup: the roster CSV's columns, a field of
course.toml, the mistakes folder, numpy's keyword, the system call, the words of the editor
extension's command (numjudge: Sign in)."""
NOT_YET_JAPANESE: dict[str, str] = {}
"""Exercises a reader of Japanese still meets English in, and why: strict, so that the test
says when one is done."""
COURSE_PAGES = ("/", "/course", "/history", "/account", "/lesson", "/lesson/numpy-foundations")


def submissions_of(exercise: Exercise) -> list[tuple[str, str]]:
    """The code a learner might send: the reference, the starter and the first mistakes."""
    mistakes = sorted((exercise.path / "mistakes").glob("*.py"))[:MISTAKES_PER_EXERCISE]
    return [
        ("solution.py", (exercise.path / "solution.py").read_text(encoding="utf-8")),
        ("starter.ja.py", exercise.starter_in("ja")),
        *((f"mistakes/{m.name}", m.read_text(encoding="utf-8")) for m in mistakes),
    ]


def reader_texts(result: dict[str, Any]) -> Iterable[str]:
    """What the API's result gives a reader to read in their language: the whole submission's
    message, each test's title and message, the hint. The rest are names the API keeps in
    every language (a test's ``name``, states, the exercise's id), and printed output."""
    yield result["message"]
    for test in result["tests"]:
        yield test["title"]
        yield test["message"]
    if result["diagnosis"] is not None:
        yield result["diagnosis"]["hint"]


class Findings:
    """The English words found, by where they were found."""

    def __init__(self) -> None:
        self.words: dict[str, set[str]] = defaultdict(set)

    def check(self, where: str, page: str, code_names: Iterable[str] = ()) -> None:
        for word in english_words(page, {*code_names, LEARNER}):
            self.words[where].add(word)

    def page(
        self, client: TestClient, path: str, code_names: Iterable[str] = (), *, whole: bool = True
    ) -> str:
        response = client.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        assert not whole or '<html lang="ja"' in response.text, path
        page: str = response.text
        self.check(path, page, code_names)
        return page


def reading_in_japanese(client: TestClient) -> Findings:
    sign_up(client, LEARNER)
    client.cookies.set(LANG_COOKIE, "ja")
    return Findings()


def assert_no_english(findings: Findings) -> None:
    assert not findings.words, "\n".join(
        f"{where}: {' '.join(sorted(words))}" for where, words in sorted(findings.words.items())
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "exercise_id",
    [
        pytest.param(
            exercise_id,
            marks=pytest.mark.xfail(reason=NOT_YET_JAPANESE[exercise_id], strict=True),
        )
        if exercise_id in NOT_YET_JAPANESE
        else exercise_id
        for exercise_id in sorted(e.id for e in ExerciseCatalog(EXERCISES).all())
    ],
)
def test_a_reader_of_japanese_meets_no_english_word_in_an_exercise(
    client: TestClient, runtime: GradingRuntime, exercise_id: str
) -> None:
    """The exercise's page, then the results of the reference, the starter and the first
    mistakes: the API's JSON, the result's page and its error pictures, and the pages that
    list results (the history, the course)."""
    findings = reading_in_japanese(client)
    exercise = runtime.catalog.load(exercise_id)
    code_names = identifiers(exercise.path) | {exercise.id} | {o.name for o in exercise.outputs}
    findings.page(client, f"/learn/{exercise.id}", code_names)
    token = csrf_of(client.get("/account").text)
    for name, code in submissions_of(exercise):
        response = client.post(
            "/submit?wait=60",
            headers={auth.CSRF_HEADER: token},
            json={"exercise": exercise.id, "code": code},
        )
        result = response.json()
        assert result["status"] == "done", (name, response.text[:300])
        findings.check(f"{name} (API)", "\n".join(reader_texts(result)), code_names)
        findings.page(client, f"/history/{result['id']}", code_names)
        findings.page(client, f"/history/{result['id']}/pictures", code_names, whole=False)
    for path in (f"/learn/{exercise.id}", *COURSE_PAGES):
        findings.page(client, path, code_names)
    assert_no_english(findings)


def test_a_reader_of_japanese_meets_no_english_word_on_the_course_pages(
    client: TestClient,
) -> None:
    findings = reading_in_japanese(client)
    for path in COURSE_PAGES:
        findings.page(client, path)
    assert_no_english(findings)


def test_every_sentence_of_the_pages_catalog_is_japanese() -> None:
    """Each Japanese sentence of the pages (refusals of budget, pace and cooldown among
    them), its placeholders left out: what the pages above may not have shown."""
    found = {
        english: words
        for english, japanese in wording.catalog("ja").items()
        if (words := english_words(PLACEHOLDER.sub(" ", japanese), CODE_IN_SENTENCES))
    }
    assert found == {}


def test_every_message_of_the_engine_is_japanese() -> None:
    """Each Japanese template of the engine's messages (graders/locale/messages.ja.toml)."""
    catalog = tomllib.loads((LOCALE_DIR / "messages.ja.toml").read_text(encoding="utf-8"))
    found = {
        message["en"]: words
        for message in catalog["message"]
        if (words := english_words(PLACEHOLDER.sub(" ", message["ja"]), CODE_IN_SENTENCES))
    }
    assert found == {}


def test_the_reader_finds_an_english_sentence() -> None:
    """The check itself: an English sentence is found, code, names and math are not."""
    page = (
        "<p>提出は <code>update_gate</code> を呼びます。$\\sigma(x)$ と GRU、"
        "漏れ積分器（leaky integrator）、『Long Short-Term Memory』、https://arxiv.org/abs/1</p>"
        "<p>ValueError: operands could not be broadcast</p>"
        '<p title="Submit closed">The next graded submission is possible at 10:00.</p>'
    )
    assert english_words(page, {"hanako"}) == [
        "The",
        "graded",
        "submission",
        "possible",
        "at",
        "Submit",
        "closed",
    ]  # "next" and "is" are Python's names, which code in a sentence may use
    assert english_words("<p>hanako でサインイン中、num<span>judge</span></p>", {"hanako"}) == []
