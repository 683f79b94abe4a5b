"""The pages' own words in English and Japanese (statements have their own translations).

The Japanese texts are a gettext catalog, ``app/locale/ja/LC_MESSAGES/messages.po`` (compiled
to ``messages.mo``, both committed); ``make messages`` extracts the texts with ``pybabel``
(``babel.cfg``: the pages' Python, the templates, exercise.js), updates the catalog and
compiles it.

Templates write ``{{ _("English text {name}", name=value) }}``: the English text is the key,
and ``{name}`` placeholders are filled with escaped values, so the catalog's texts may carry
markup of their own but never let a value's markup through. The language is the reader's
choice (the ``numjudge_lang`` cookie, set by the language switches), else the browser's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request
from markupsafe import Markup, escape

from app.services.translations import LANG_COOKIE as LANG_COOKIE
from app.services.translations import READER_LANGUAGES, reader_language
from app.services.translations import browser_languages as accepted_languages
from app.services.wording import N_ as N_
from app.services.wording import catalog

UI_LANGUAGES = READER_LANGUAGES
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}

Translate = Callable[..., Markup]

JAPANESE: dict[str, str] = dict(catalog("ja"))

# Words that come from data rather than from the pages: difficulties, verdicts, test statuses,
# submission statuses and kinds, shown as they are stored in English.
DATA_WORDS = (
    N_("easy"),
    N_("medium"),
    N_("hard"),
    N_("passed"),
    N_("failed"),
    N_("error"),
    N_("timeout"),
    N_("memory_limit"),
    N_("queued"),
    N_("running"),
    N_("done"),
    N_("run"),
    N_("submit"),
    N_("upcoming"),
    N_("open"),
    N_("late"),
    N_("closed"),
    N_("public"),
    N_("hidden"),
)
JAPANESE_DATA_WORDS: dict[str, str] = {
    word: JAPANESE[word] for word in DATA_WORDS if word in JAPANESE
}

CATALOGS: dict[str, dict[str, str]] = {"en": {}, "ja": JAPANESE}

# The texts exercise.js writes, handed to it (with the data words) in the page's configuration.
SCRIPT_MESSAGES = (
    "Passed",
    "Failed",
    "Error",
    "Time limit exceeded",
    "Memory limit exceeded",
    "Draft saved in this browser",
    "Draft could not be saved in this browser",
    "Editing…",
    "Restored your saved draft",
    "Starter code loaded",
    "Replace your code with the starter code?",
    "Run: {verdict}",
    "Submission: {verdict}",
    "{title}, score {score} of {max}",
    "Hidden test",
    "{count} tests",
    ", graded in {ms} ms",
    "Test",
    "Status",
    "Points",
    "Message",
    "Hint",
    "explains: {cases}",
    "Output (public cases)",
    "Open this submission in your history",
    "Your code is empty: write your solution before you run.",
    "Your code is empty: write your solution before you submit.",
    "Your code is too long ({size} bytes); the limit is {limit} bytes.",
    "Running the public tests…",
    "Grading your submission…",
    "{seconds} s",
    "Previous result: it is replaced when the new one is ready.",
    "The grader is busy: your code is queued. Look for the result in your history.",
    "Open history",
    "Your session has expired or you were signed out. Your code is kept in this browser.",
    "Sign in again",
    "The server could not grade this (HTTP {status}).",
    "Could not reach the server. Check your connection and try again; your code is kept.",
    "Your solution (Python)",
    "in {count} minutes",
    "in {count} seconds",
    "Not graded yet: your next graded submission is possible at {time} ({wait}). Run public tests works meanwhile.",  # noqa: E501
)


def translator(lang: str) -> Translate:
    """``_(text, **values)`` for ``lang``: the translation, with ``values`` escaped.

    Only the catalog's own texts may carry markup; any other text (a difficulty, a status, a
    message from elsewhere) is escaped like a value.
    """
    catalog = CATALOGS.get(lang, {})

    def translate(text: str, **values: Any) -> Markup:
        # The catalog's keys are every text the pages write themselves.
        known = text in JAPANESE
        template = Markup(catalog.get(text, text)) if known else escape(text)
        return template.format(**values) if values else template

    return translate


def script_messages(lang: str) -> dict[str, str]:
    """The translations exercise.js needs (it falls back to the English key)."""
    catalog = CATALOGS.get(lang, {})
    return {
        text: catalog[text] for text in (*SCRIPT_MESSAGES, *JAPANESE_DATA_WORDS) if text in catalog
    }


def browser_languages(request: Request) -> list[str]:
    """The two-letter codes of the browser's ``Accept-Language``, in its order."""
    return accepted_languages(request.headers.get("accept-language", ""))


def preferred_language(request: Request) -> str:
    """The reader's chosen language (cookie), else the first the browser asks for, else English
    (the API's rule too: app/services/translations.py)."""
    return reader_language(
        request.cookies.get(LANG_COOKIE), request.headers.get("accept-language", "")
    )
