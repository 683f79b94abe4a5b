"""Deep linking: an instructor picks numjudge's exercises and assignments from their LMS, and
they come back to the LMS context as links, each with its gradebook column.

A deep-linking launch (``LtiDeepLinkingRequest``) from an instructor shows the picker (``Picker``)
at once, in the launch's answer: LMSs show it in a frame of their own page, where a browser may
drop a session cookie, so the picker's form carries the launch's id instead (an unguessable
key of the launch cache, valid for the launch data's lifetime and used once). ``reply`` restores
that launch, makes one ``ltiResourceLink`` per picked item (its URL the work's page on this
site, its line item the work's points, so the LMS makes the column scores are sent to) and signs
the deep-linking response with the tool's key; the page posts it to the LMS's return URL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException
from pylti1p3.lineitem import LineItem
from sqlalchemy.orm import Session

from app.models import WorkScope
from app.services.exercises import course_or_default, readable_courses
from app.services.lti.adapter import LaunchCache, ToolRequest, cached_launch
from app.services.standings.load import max_points
from graders.api import ExerciseCatalog, GraderError, words_in

SETTINGS_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
RESOURCE_LINK = "ltiResourceLink"
LINE_ITEM_TAG = "numjudge"
# An origin as a Content-Security-Policy source: nothing that could end the directive.
_ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-]+(:[0-9]+)?")


class DeepLinkRefused(Exception):
    """A deep-linking request or reply that cannot be answered; the message says why.
    ``origin``: the LMS's, when the launch was found (its frame may show the error)."""

    def __init__(self, message: str, origin: str = "") -> None:
        super().__init__(message)
        self.origin = origin


@dataclass(frozen=True)
class Offer:
    """Work the instructor may link: an assignment, or an exercise."""

    scope: WorkScope
    target: str  # the assignment's or the exercise's id
    title: str
    points: float  # the gradebook column's maximum: what passback sends as scoreMaximum

    @property
    def key(self) -> str:
        """The picker's value for it."""
        return f"{self.scope.value}:{self.target}"

    @property
    def path(self) -> str:
        """The page a learner lands on, which passback reads back as the link's target."""
        if self.scope is WorkScope.ASSIGNMENT:
            return f"/course?assignment={quote(self.target)}"
        return f"/learn/{quote(self.target)}"


@dataclass(frozen=True)
class CourseOffers:
    """The exercises of one of numjudge's courses."""

    title: str  # in the reader's language ("" for an untitled course)
    offers: tuple[Offer, ...]


@dataclass(frozen=True)
class Offers:
    assignments: tuple[Offer, ...]
    courses: tuple[CourseOffers, ...]

    def by_key(self) -> dict[str, Offer]:
        every = [*self.assignments, *(offer for c in self.courses for offer in c.offers)]
        return {offer.key: offer for offer in every}


@dataclass(frozen=True)
class Picker:
    launch_id: str
    multiple: bool  # the LMS accepts several links at once
    title: str  # the LMS's name for what is being added, if it gave one
    return_origin: str  # the LMS's origin: it may frame the picker, and the reply posts there
    offers: Offers


@dataclass(frozen=True)
class Reply:
    return_url: str
    return_origin: str
    jwt: str  # the signed LtiDeepLinkingResponse
    count: int  # links made


def offers(catalog: ExerciseCatalog, lang: str) -> Offers:
    """The schedule's assignments, then the exercises of each of numjudge's courses in course
    order, drafts left out; titles in ``lang`` where they have one (the LMS shows the
    instructor's choice of words). An exercise of an assignment is worth its weight there (the
    schedule counts it so); one kept for practice, its cases' points."""
    try:
        assignments = catalog.schedule().assignments
    except GraderError:  # a broken schedule (course.toml): its assignments cannot be offered
        assignments = ()
    weights = {item.id: item.weight for a in assignments for item in a.exercises}
    folders, _ = readable_courses(catalog)
    by_course: dict[str, list[Offer]] = {folder.id: [] for folder in folders}
    for exercise in catalog.all():
        points = weights.get(exercise.id) or max_points(catalog, exercise)
        if exercise.draft or not points:
            continue
        offer = Offer(WorkScope.EXERCISE, exercise.id, words_in(exercise, lang).title, points)
        by_course[course_or_default(folders, exercise).id].append(offer)
    return Offers(
        tuple(
            Offer(WorkScope.ASSIGNMENT, a.id, a.title_in(lang), a.total_weight) for a in assignments
        ),
        tuple(
            CourseOffers(folder.title(lang), tuple(by_course[folder.id]))
            for folder in folders
            if by_course[folder.id]
        ),
    )


def _settings(claims: dict[str, Any]) -> dict[str, Any]:
    settings = claims.get(SETTINGS_CLAIM)
    if not isinstance(settings, dict):
        raise DeepLinkRefused("the deep-linking request has no deep-linking settings")
    if RESOURCE_LINK not in (settings.get("accept_types") or ()):
        raise DeepLinkRefused("the LMS accepts no LTI resource links here")
    return settings


def return_origin(return_url: object) -> str:
    """The origin of the LMS's return URL (``DeepLinkRefused`` unless an http(s) URL)."""
    parts = urlsplit(str(return_url or ""))
    origin = f"{parts.scheme}://{parts.netloc}"
    if not _ORIGIN.fullmatch(origin):
        raise DeepLinkRefused(f"the deep-linking return URL is not an http(s) URL: {return_url}")
    return origin


def frame_origin(claims: dict[str, Any]) -> str:
    """The origin of a deep-linking request's return URL; "" if it names no valid one."""
    settings = claims.get(SETTINGS_CLAIM)
    try:
        return return_origin(
            settings.get("deep_link_return_url") if isinstance(settings, dict) else ""
        )
    except DeepLinkRefused:
        return ""


def _accepts_many(settings: dict[str, Any]) -> bool:
    return settings.get("accept_multiple") in (True, "true")


def picker(
    *, catalog: ExerciseCatalog, launch_id: str, claims: dict[str, Any], lang: str
) -> Picker:
    """The picker of a checked deep-linking launch, in ``lang`` (``DeepLinkRefused``)."""
    settings = _settings(claims)
    return Picker(
        launch_id=launch_id,
        multiple=_accepts_many(settings),
        title=str(settings.get("title") or ""),
        return_origin=return_origin(settings.get("deep_link_return_url")),
        offers=offers(catalog, lang),
    )


def _resource(offer: Offer, base_url: str) -> DeepLinkResource:
    column = (
        LineItem()
        .set_score_maximum(offer.points)
        .set_label(offer.title)
        .set_resource_id(offer.key)
        .set_tag(LINE_ITEM_TAG)
    )
    return (
        DeepLinkResource()
        .set_type(RESOURCE_LINK)
        .set_title(offer.title)
        .set_url(base_url + offer.path)
        .set_lineitem(column)
    )


def reply(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    request: ToolRequest,
    launch_id: str,
    picked: Sequence[str],
    base_url: str,
    lang: str,
) -> Reply:
    """The signed answer to the deep-linking launch ``launch_id`` with the ``picked`` offers'
    keys (``DeepLinkRefused``: an unknown, expired or used launch, nothing picked, several
    where the LMS takes one, or work that is gone)."""
    cache = LaunchCache(session)
    try:
        launch = cached_launch(session=session, cache=cache, request=request, launch_id=launch_id)
        claims: dict[str, Any] = dict(launch.get_launch_data())
        deep_link = launch.get_deep_link() if launch.is_deep_link_launch() else None
    except LtiException as exc:
        raise DeepLinkRefused(
            "this deep-linking launch is unknown, expired or already answered: "
            "start adding the activity in your LMS again"
        ) from exc
    if deep_link is None:
        raise DeepLinkRefused("this launch is not a deep-linking request")
    settings = _settings(claims)
    origin = return_origin(settings.get("deep_link_return_url"))
    by_key = offers(catalog, lang).by_key()
    chosen = [by_key[key] for key in dict.fromkeys(picked) if key in by_key]
    if len(chosen) < len(set(picked)):
        raise DeepLinkRefused("a picked item is no longer in the course: reload the page", origin)
    if not chosen:
        raise DeepLinkRefused("pick at least one exercise or assignment", origin)
    if len(chosen) > 1 and not _accepts_many(settings):
        raise DeepLinkRefused("the LMS takes one item here: pick one", origin)
    if not cache.take_value(launch_id):  # a second reply to the same launch
        raise DeepLinkRefused("this deep-linking launch was already answered", origin)
    resources = [_resource(offer, base_url) for offer in chosen]
    return Reply(
        return_url=str(settings["deep_link_return_url"]),
        return_origin=origin,
        jwt=deep_link.get_response_jwt(resources),
        count=len(resources),
    )
