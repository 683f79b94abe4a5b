"""The Jinja2 environment of the pages: filters, the static-file helper and ``render``."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import Request, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context

from app.services import error_pictures
from app.services.standings.rules import format_points
from app.web import auth, i18n
from graders.api import Exercise, ExerciseWords, GraderError, RuleKind, words_in

APP_DIR = Path(__file__).resolve().parents[1]
TEMPLATES_DIR = APP_DIR / "templates"
STATIC_DIR = APP_DIR / "static"

templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
# Jinja2's i18n extension ({% trans %}, and pybabel's template extractor); ``render`` puts
# the reader's ``_``/``gettext`` (app.web.i18n.translator) in each page's context.
templates.env.add_extension("jinja2.ext.i18n")

# Scripts only from this site (no inline script); styles may be inline (CodeMirror, KaTeX).
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def content_security_policy(**directives: str) -> str:
    """The pages' policy, with ``directives`` (``form_action="'self' https://lms…"``) replaced."""
    policy = CONTENT_SECURITY_POLICY | {k.replace("_", "-"): v for k, v in directives.items()}
    return "; ".join(f"{name} {sources}" for name, sources in policy.items())


SECURITY_HEADERS = {
    "Content-Security-Policy": content_security_policy(),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


@lru_cache(maxsize=256)
def _fingerprint(path: str, mtime_ns: int) -> str:
    return hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:10]


def static_url(path: str) -> str:
    """``/static/<path>?v=<content hash>`` so browsers may cache assets for a long time."""
    file = STATIC_DIR / path
    try:
        version = _fingerprint(path, file.stat().st_mtime_ns)
    except OSError:
        return f"/static/{path}"
    return f"/static/{path}?v={version}"


def format_score(value: float | None) -> str:
    """Points as the gradebook CSV writes them too (``format_points``); "–" for none."""
    return "–" if value is None else format_points(value)


@pass_context
def format_time(context: Context, value: datetime | None) -> str:
    """A moment in the page's zone (the schedule's), to the second: ``2026-12-14 23:59:05 JST``."""
    if value is None:
        return "–"
    zone = context.get("zone") or UTC
    return value.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S %Z")


def in_zone(value: datetime, zone: tzinfo) -> str:
    """A time of the schedule as its readers see it: ``2026-12-14 23:59 CET``."""
    return value.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")


TIME_LEFT = (
    i18n.N_("{days} d {hours} h {minutes} min left"),
    i18n.N_("{hours} h {minutes} min left"),
    i18n.N_("{minutes} min left"),
    i18n.N_("less than a minute left"),
)


@pass_context
def time_left(context: Context, left: timedelta) -> str:
    """A time left before a deadline in days, hours and minutes, the larger units only where
    they are not zero (under an hour, minutes alone), rounded down, so that it never promises
    more time than there is."""
    translate = context.get("_") or i18n.translator("en")
    minutes = int(left.total_seconds() // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    in_days, in_hours, in_minutes, under_a_minute = TIME_LEFT
    if days:
        return str(translate(in_days, days=days, hours=hours, minutes=minutes))
    if hours:
        return str(translate(in_hours, hours=hours, minutes=minutes))
    if minutes:
        return str(translate(in_minutes, minutes=minutes))
    return str(translate(under_a_minute))


def enum_value(value: Any) -> str:
    """``Verdict.PASSED`` → ``"passed"`` (templates compare CSS classes, not enums)."""
    return str(getattr(value, "value", value or ""))


@pass_context
def exercise_title(context: Context, exercise: Exercise) -> str:
    """The exercise's title in the page's language (``translation.<lang>.toml``), else English."""
    return words_in(exercise, context.get("ui_lang") or "en").title


@pass_context
def exercise_words(context: Context, exercise: Exercise, lang: str | None = None) -> ExerciseWords:
    """The exercise's words (title, source, tags) in ``lang``, else the page's language."""
    return words_in(exercise, lang or context.get("ui_lang") or "en")


templates.env.globals["static_url"] = static_url
templates.env.globals["RuleKind"] = RuleKind
templates.env.globals["csrf_field_name"] = auth.CSRF_FIELD
templates.env.filters["score"] = format_score
templates.env.filters["when"] = format_time
templates.env.filters["ev"] = enum_value
templates.env.filters["in_zone"] = in_zone
templates.env.filters["exercise_title"] = exercise_title
templates.env.filters["exercise_words"] = exercise_words
templates.env.filters["time_left"] = time_left
templates.env.filters["error_value"] = error_pictures.value_text


def _schedule_zone(request: Request) -> tzinfo:
    """Every page shows times in the schedule's zone; UTC when course.toml does not load
    (the pages that need the schedule say why)."""
    runtime = getattr(request.app.state, "runtime", None)  # an app without one: UTC
    if runtime is None:
        return UTC
    try:
        zone: tzinfo = runtime.catalog.schedule().zone
    except GraderError:
        zone = UTC
    return zone


def render(
    request: Request, name: str, context: dict[str, Any] | None = None, *, status_code: int = 200
) -> Response:
    """Render a page in the reader's language with the signed-in user and CSRF token; write
    the session if it changed."""
    web = getattr(request.state, "web", None)
    context = {"user": None, "csrf": "", "signup_open": True, "zone": _schedule_zone(request)} | (
        context or {}
    )
    ui_lang = context.get("ui_lang") or i18n.preferred_language(request)
    translate = i18n.translator(ui_lang)
    context |= {
        "ui_lang": ui_lang,
        "_": translate,
        "gettext": translate,
        "ui_languages": i18n.UI_LANGUAGES,
        "language_names": i18n.LANGUAGE_NAMES,
    }
    if web is not None:
        context |= {
            "user": web.user,
            "csrf": web.session.csrf,
            "signup_open": web.signup_open,
        }
    response = templates.TemplateResponse(request, name, context, status_code=status_code)
    if web is not None and web.session.dirty:
        auth.write_session(response, request, web.settings, web.session)
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers.update(SECURITY_HEADERS)
    return response
