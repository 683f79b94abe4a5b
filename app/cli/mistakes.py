"""``numjudge mistakes mine``: the undiagnosed wrong submissions of an exercise grouped by what
they got wrong, and a group's representative written as a mistake with its hint."""

from __future__ import annotations

from typing import Annotated

import typer

from app.cli.common import service_settings
from app.core.db import get_sessionmaker, session_scope
from app.runtime.engine import background_priority
from app.services import mining
from app.services.errors import NotFound
from graders.api import (
    CpuPriority,
    ExerciseCatalog,
    GradeReport,
    GraderError,
    PreparedExercise,
    Sandbox,
)
from graders.api import grade as grade_in

app = typer.Typer(no_args_is_help=True, help="Mistakes mined from learners' submissions.")


def describe(number: int, group: mining.MistakeGroup) -> list[str]:
    failing = ", ".join(
        f"{test.name} ({test.failure.value if test.failure else test.status.value})"
        for test in group.failing
    )
    lines = [
        f"{number:>3}. [{group.key}] {group.size} submission(s) by {group.learners} learner(s);"
        f" representative {group.representative}",
        f"     fails: {failing}",
    ]
    if group.difference is not None:
        lines.append(f"     on {group.difference.name}: {group.difference.relation}")
    return lines


def parse_translations(pairs: list[str]) -> dict[str, str]:
    translated = {}
    for pair in pairs:
        lang, sep, text = pair.partition("=")
        if not sep or not lang:
            raise typer.BadParameter(f"{pair!r}: write LANG=HINT, e.g. ja=...")
        translated[lang.strip()] = text
    return translated


@app.command("mine")
def mine_command(
    exercise: Annotated[str, typer.Argument(help="exercise id, e.g. softmax")],
    top: Annotated[int, typer.Option(min=1, help="groups to list")] = 10,
    show: Annotated[bool, typer.Option(help="print each listed representative's code")] = False,
    write: Annotated[
        str | None, typer.Option(help="write the group with this key as a mistake (with --name)")
    ] = None,
    name: Annotated[str, typer.Option(help="the mistake's file name, without .py")] = "",
    hint: Annotated[str, typer.Option(help="the hint, in English")] = "",
    translated_hint: Annotated[
        list[str] | None,
        typer.Option("--translated-hint", help="LANG=HINT, once per language of the statement"),
    ] = None,
    reviewed: Annotated[
        str,
        typer.Option(
            help="with --write: the representative's submission id, once you read its code "
            "(--show): the hint is written for that code"
        ),
    ] = "",
) -> None:
    """List the largest groups of wrong submissions no hint explained (current version); with
    --write, make a group's representative a validated mistake and diagnose its submissions
    again (scores never change)."""
    settings = service_settings(log=False)
    catalog = ExerciseCatalog(settings.exercises_dir)
    try:
        with session_scope(settings.database_url) as session:
            if write is None:
                mined = mining.mine(session=session, catalog=catalog, exercise_id=exercise)
            else:
                outcome, mined = mining.write_hint(
                    session=session,
                    catalog=catalog,
                    limits=settings.sandbox_limits,
                    exercise_id=exercise,
                    group_key=write,
                    name=name,
                    hint=hint,
                    translated=parse_translations(translated_hint or []),
                    reviewed=reviewed,
                )
    except (GraderError, NotFound) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if write is None:
        typer.echo(
            f"{mined.exercise_id} (version {mined.version}): {mined.undiagnosed} wrong "
            f"submission(s) without a hint, in {len(mined.groups)} group(s)"
        )
        for number, group in enumerate(mined.groups[:top], start=1):
            typer.echo("\n".join(describe(number, group)))
            if show:
                typer.echo("\n".join(f"     | {line}" for line in group.code.splitlines()))
        return
    if not outcome.written:
        typer.echo("refused: " + "\n  ".join(outcome.problems), err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {outcome.path}")
    with Sandbox(workers=1, limits=settings.sandbox_limits) as sandbox:

        def grade(
            prepared: PreparedExercise, code: str, public_only: bool, priority: CpuPriority
        ) -> GradeReport:
            return grade_in(prepared, code, sandbox, public_only=public_only, priority=priority)

        done = mining.rediagnose(
            sessions=get_sessionmaker(settings.database_url),
            catalog=catalog,
            grade=grade,
            exercise_id=mined.exercise_id,
            mined_version=mined.version,
            batches=mining.rediagnosis_batches(mined, write),
            priority=background_priority(settings),
        )
    typer.echo(f"{len(done.diagnosed)} of {done.looked_at} submission(s) now have a hint")


def register(parent: typer.Typer) -> None:
    parent.add_typer(app, name="mistakes")
