"""Commands that move standings after the fact: ``numjudge extend`` (a learner's own due time)
and ``numjudge regrade``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Annotated

import typer

from app.cli.common import service_settings
from app.core.config import Settings
from app.core.db import session_scope
from app.models import utcnow
from app.services import assignments, extensions, regrades
from app.services.lti import passback
from graders.api import ExerciseCatalog, GraderError


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _moment(text: str, zone: tzinfo) -> datetime:
    """A time as written, in the schedule's zone unless it gives its own offset."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter("write a date and time such as 2026-12-20T23:59") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def extend_command(
    learner: Annotated[str, typer.Argument(help="the learner's user name")],
    assignment: Annotated[str, typer.Argument(help="the assignment id in course.toml")],
    until: Annotated[
        str | None,
        typer.Option(
            help="the new due time, in the schedule's zone unless an offset is given: "
            "2026-12-20T23:59 or 2026-12-20T23:59+01:00"
        ),
    ] = None,
    days: Annotated[
        float | None, typer.Option(help="or: this many days after the assignment's own due time")
    ] = None,
    remove: Annotated[
        bool,
        typer.Option("--remove", help="take the extension back: the assignment's due time applies"),
    ] = False,
) -> None:
    """Give a learner their own due time for an assignment (or take it back)."""
    if sum(option is not None and option is not False for option in (until, days, remove)) != 1:
        raise _fail("give exactly one of --until, --days or --remove")
    settings = service_settings(log=False)
    catalog = ExerciseCatalog(settings.exercises_dir)
    try:
        schedule = catalog.schedule()
        plan = assignments.get_assignment(schedule, assignment)
    except (GraderError, assignments.AssignmentNotFound) as exc:
        raise _fail(str(exc)) from None
    with session_scope(settings.database_url) as session:
        try:
            user = assignments.find_user(session=session, name=learner)
        except assignments.LearnerNotFound as exc:
            raise _fail(str(exc)) from None
        user_id = user.id
        if remove:
            removed = extensions.remove_extension(session=session, learner=user, assignment=plan)
            typer.echo(
                f"{learner!r} follows the due time of {assignment!r} again"
                if removed
                else f"{learner!r} had no extension for {assignment!r}"
            )
        else:
            due = (
                _moment(until, schedule.zone)
                if until is not None
                else plan.due + timedelta(days=days or 0)
            )
            try:
                extensions.extend(
                    session=session,
                    learner=user,
                    assignment=plan,
                    due=due,
                    granted_by="numjudge extend",
                )
            except extensions.ExtensionRefused as exc:
                raise _fail(str(exc)) from None
            typer.echo(
                f"{learner!r} is due for {assignment!r} at "
                f"{due.astimezone(schedule.zone).isoformat()} "
                f"(the assignment: {plan.due.astimezone(schedule.zone).isoformat()})"
            )
        links = passback.has_links(session=session, user_id=user_id)
    if links:
        _pass_back(settings, user_id, plan.exercise_ids)


def _pass_back(settings: Settings, user_id: int, exercise_ids: Sequence[str]) -> None:
    """The LMS's gradebook follows the learner's new due time, through the service's queue."""
    from app.runtime.context import build_runtime

    queued = passback.request(
        build_runtime(settings), user_id=user_id, exercise_ids=exercise_ids, at=utcnow()
    )
    typer.echo(f"queued {queued} score passback(s) to the LMS")


def regrade_command(
    exercise: Annotated[
        str | None,
        typer.Argument(
            help="the exercise to regrade; without it, list what an earlier version graded"
        ),
    ] = None,
) -> None:
    """Grade again the submissions an earlier version of an exercise graded (behind learners'
    own work); without an exercise, list how many each exercise has."""
    from app.runtime.context import build_runtime

    runtime = build_runtime(service_settings(log=False))
    if exercise is None:
        with runtime.sessions() as session:
            stale = regrades.stale_exercises(session=session, catalog=runtime.catalog)
        for row in stale:
            typer.echo(f"{row.exercise_id:<24} {row.stale:>6} graded by an earlier version")
        return
    try:
        queued = regrades.regrade(runtime=runtime, exercise_id=exercise)
    except GraderError as exc:
        raise _fail(str(exc)) from None
    typer.echo(
        f"queued {queued} submission(s) of {exercise!r} for regrading"
        if queued
        else f"every submission of {exercise!r} was graded by its current version"
    )


def register(app: typer.Typer) -> None:
    app.command("extend")(extend_command)
    app.command("regrade")(regrade_command)
