"""A grading result in the reader's language.

A stored result keeps the English the engine wrote (old rows and old clients read it as
before). What a reader sees is turned into their language on the way out: a test's name
becomes its ``title``, a mistake's hint its translation, from the exercise's
``translation.<lang>.toml`` (graders: ``words_in``); the engine's own messages (a test's
message, the submission's, a check's or a mutant's hint) through the engine's catalog, the
words of the exercise's own checks through its translation's ``[checks]``
(graders: ``ExerciseWords.message``). What neither translates, or a hint rewritten since the row
was graded, stays English.

The reader's language is their choice on the pages (the ``numjudge_lang`` cookie), else the
first language of ``Accept-Language`` the service speaks, else English: one rule for the
pages and the API.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.models import Submission
from app.schemas import DiagnosisOut, SubmissionOut
from app.services.reveal import Reveal
from graders.api import ExerciseCatalog, ExerciseWords, GraderError, words_in

READER_LANGUAGES = ("en", "ja")
LANG_COOKIE = "numjudge_lang"


def browser_languages(accept_language: str) -> list[str]:
    """The two-letter codes of an ``Accept-Language`` header, in its order."""
    return [part.split(";")[0].strip().lower()[:2] for part in accept_language.split(",")]


def reader_language(chosen: str | None, accept_language: str) -> str:
    """The reader's chosen language (the cookie), else the first the browser asks for that
    the service speaks, else English."""
    if chosen in READER_LANGUAGES:
        return chosen
    wanted = browser_languages(accept_language)
    return next((code for code in wanted if code in READER_LANGUAGES), "en")


def exercise_words(catalog: ExerciseCatalog, exercise_id: str, lang: str) -> ExerciseWords:
    """The exercise's title, test names and hints in ``lang``; the id and English words when
    the folder cannot be read (its results stay readable)."""
    try:
        return words_in(catalog.load(exercise_id), lang)
    except GraderError:
        return ExerciseWords(exercise_id, lang=lang)


def localised_tests(
    tests: Sequence[Mapping[str, Any]],
    words: ExerciseWords,
    full_messages: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Stored tests (``submissions.tests``) with each one's ``title`` and message in the
    reader's words; with ``full_messages`` (``submissions.hidden_messages``, an instructor's
    to read), a hidden test's ``full_message`` too."""
    full_messages = full_messages or {}
    return [
        {
            **test,
            "title": words.case(test["name"]),
            "message": words.message(test.get("message", "")),
            "full_message": words.message(full_messages[test["name"]])
            if test["name"] in full_messages
            else None,
        }
        for test in tests
    ]


def localised_hint(hint: str, words: ExerciseWords) -> str:
    """A mistake's hint from the exercise's translation; a check's or a mutant's from the
    engine's catalog."""
    translated = words.hint(hint)
    return translated if translated != hint else words.message(hint)


def localised_diagnosis(
    diagnosis: Mapping[str, Any] | None, words: ExerciseWords
) -> dict[str, Any] | None:
    """A stored diagnosis with its hint and the titles of the tests it explains in the
    reader's words (``cases`` keeps the tests' names)."""
    if diagnosis is None:
        return None
    return {
        **diagnosis,
        "hint": localised_hint(diagnosis["hint"], words),
        "titles": [words.case(name) for name in diagnosis["cases"]],
    }


def result_words(
    submission: Submission, words: ExerciseWords, *, instructor: bool = False
) -> dict[str, Any]:
    """What a page shows of a stored result (``_results.html``: ``tests``, ``diagnosis`` and
    ``message``) in the reader's words; for an ``instructor``, the hidden tests' full messages
    too (never for a learner: app.services.reveal shows them once revealed)."""
    full_messages = submission.hidden_messages if instructor else None
    return {
        "tests": localised_tests(submission.tests or [], words, full_messages),
        "diagnosis": localised_diagnosis(submission.diagnosis, words),
        "message": words.message(submission.message or ""),
    }


def localised_reveal(found: Reveal, words: ExerciseWords) -> Reveal:
    """Revealed hidden tests with their names in the reader's words (``title``) and their
    messages translated, as a public test's are."""
    return replace(
        found,
        cases=tuple(
            replace(
                case,
                title=words.case(case.name),
                message=words.message(case.message),
                full_message=None
                if case.full_message is None
                else words.message(case.full_message),
            )
            for case in found.cases
        ),
    )


def localised_result(result: SubmissionOut, catalog: ExerciseCatalog, lang: str) -> SubmissionOut:
    """A result as a reader of ``lang`` reads it: the tests' titles, the messages and the
    hint translated."""
    if lang == "en":  # the words as stored: each test's title is its name
        return result
    words = exercise_words(catalog, result.exercise, lang)
    diagnosis = result.diagnosis
    return result.model_copy(
        update={
            "message": words.message(result.message),
            "tests": [
                test.model_copy(
                    update={
                        "title": words.case(test.name),
                        "message": words.message(test.message),
                    }
                )
                for test in result.tests
            ],
            "diagnosis": (
                None
                if diagnosis is None
                else DiagnosisOut(
                    hint=localised_hint(diagnosis.hint, words),
                    cases=diagnosis.cases,
                    source=diagnosis.source,
                )
            ),
        }
    )
