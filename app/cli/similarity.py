"""``numjudge similarity``: a similarity report of an exercise or an assignment, computed here."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from app.cli.common import service_settings
from app.core.db import session_scope
from app.models import ReportState, WorkScope
from app.services import similarity_jobs
from app.services.assignments import AssignmentNotFound
from app.services.gradebook import write_csv
from app.services.similarity import MAX_ANSWER_CHARS
from graders.api import ExerciseCatalog, GraderError


def similarity_command(
    target: Annotated[str, typer.Argument(help="the exercise id (or with --assignment, its id)")],
    assignment: Annotated[
        bool, typer.Option("--assignment", help="TARGET is an assignment of course.toml")
    ] = False,
    csv: Annotated[Path | None, typer.Option(help="also write every pair to this CSV file")] = None,
    top: Annotated[int, typer.Option(min=0, help="pairs to list per exercise")] = 10,
) -> None:
    """Rank pairs of learners' answers by similarity (copydetect's tokens and the normalised
    syntax tree's statements; the starter and the reference ignored) and flag the outliers and
    the near-identical pairs; the report is stored for the pages too. No score changes."""
    settings = service_settings(log=False)
    catalog = ExerciseCatalog(settings.exercises_dir)
    scope = WorkScope.ASSIGNMENT if assignment else WorkScope.EXERCISE
    with session_scope(settings.database_url) as session:
        try:
            report = similarity_jobs.compute_now(
                session=session,
                catalog=catalog,
                scope=scope,
                target=target,
                requested_by="numjudge similarity",
                settings=settings,
            )
        except (GraderError, AssignmentNotFound) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        names = similarity_jobs.learner_names(session=session, report=report)
    if report.state is ReportState.FAILED:
        typer.echo(f"error: {report.error}", err=True)
        raise typer.Exit(1)
    for section in report.sections:
        spread, structural = section.distribution, section.structure_distribution
        typer.echo(
            f"{section.exercise_id}: {section.answers} answers, {spread.pairs} pairs; "
            f"tokens: quartiles {spread.q1:.0%} {spread.median:.0%} {spread.q3:.0%}, "
            f"fence {spread.fence:.0%}"
            + (f"; structure: fence {structural.fence:.0%}" if structural else "")
            + f"; {len(section.flagged)} flagged"
        )
        if section.cut:
            typer.echo(
                f"  compared on their first {MAX_ANSWER_CHARS} characters: "
                + ", ".join(section.cut)
            )
        if section.unparsed:
            typer.echo("  no structure (the code does not parse): " + ", ".join(section.unparsed))
        if section.pairs_left_out:
            typer.echo(
                f"  {section.pairs_left_out} pairs not compared: the report's "
                f"{settings.similarity_cpu_s:g} s of CPU were spent (NUMJUDGE_SIMILARITY_CPU_S)"
            )
        for rank, pair in enumerate(section.pairs[:top], start=1):
            why = "; ".join(f"{r.measure.value}: {r.kind.value}" for r in pair.reasons)
            flag = f"  FLAGGED ({why})" if pair.flagged else ""
            typer.echo(
                f"  {rank:>3}. tokens {pair.similarity:6.1%} structure {pair.structure:6.1%}  "
                f"{pair.learner_a} · {pair.learner_b}{flag}"
            )
    if csv is not None:
        csv.write_text(
            write_csv(similarity_jobs.csv_rows(report.sections, names)), encoding="utf-8"
        )
    typer.echo(f"report {report.id}: /instructor/similarity/{report.id}")


def register(app: typer.Typer) -> None:
    app.command("similarity")(similarity_command)
