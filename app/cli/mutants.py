"""``numjudge mutants``: the reference's mutants, which cases catch them, and promotion of one
to a ``mistakes/`` file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from app.cli.exercises import error_line, exercises_dir
from graders.api import (
    MUTANT_PREFIX,
    ExerciseCatalog,
    GraderError,
    MutantStatus,
    mutant_statuses,
    mutation_score,
)


def describe(number: int, status: MutantStatus) -> list[str]:
    mutant = status.mutant
    if status.equivalent:
        caught = "no case or probe tells it apart: equivalent to the reference"
    elif not status.killers:
        caught = "NOT CAUGHT: no case tells it apart (a probe does): add a hidden case"
    elif not status.hidden_killers:
        caught = "caught by public cases only: add a hidden case"
    else:
        caught = f"caught by {len(status.killers)} case(s): {', '.join(status.killers)}"
    return [
        f"{number:>3}  {mutant.operator.value:<16} line {mutant.line}, column "
        f"{mutant.column}  [{mutant.key}]",
        f"     {mutant.meaning.removeprefix(MUTANT_PREFIX).rstrip('.')}",
        f"     {caught}",
    ]


def promote(folder: Path, entry_source: str, status: MutantStatus) -> Path:
    mutant = status.mutant
    target = folder / "mistakes" / f"{mutant.operator.value}_{mutant.line}_{mutant.column}.py"
    if target.exists():
        raise FileExistsError(f"{target} exists")
    hint = "TODO: say what the learner should reconsider, without giving the answer away."
    target.parent.mkdir(exist_ok=True)
    target.write_text(
        f'"""{mutant.meaning.removeprefix(MUTANT_PREFIX).rstrip(".")} '
        f'(promoted from mutant {mutant.key})."""\n\n'
        f"HINT = {hint!r}\n\n\n{entry_source}",
        encoding="utf-8",
    )
    return target


def mutants_command(
    exercise: Annotated[str, typer.Argument(help="exercise id, e.g. gru-update-gate")],
    promote_number: Annotated[
        int | None,
        typer.Option("--promote", help="write mutant N as a mistakes/ file with a hint to fill in"),
    ] = None,
) -> None:
    """List the reference's mutants: operator, place, meaning and which cases catch them."""
    catalog = ExerciseCatalog(exercises_dir())
    try:
        prepared = catalog.prepared(exercise)
    except GraderError as exc:
        typer.echo(error_line(exc), err=True)
        raise typer.Exit(2) from None
    statuses = mutant_statuses(prepared)
    if promote_number is not None:
        if not 1 <= promote_number <= len(statuses):
            typer.echo(f"error: no mutant {promote_number}; there are {len(statuses)}", err=True)
            raise typer.Exit(2)
        try:
            path = promote(
                prepared.exercise.path,
                statuses[promote_number - 1].mutant.source,
                statuses[promote_number - 1],
            )
        except FileExistsError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(
            f"wrote {path}; write its HINT, then run: numjudge validate {prepared.exercise.path}"
        )
        return
    for number, status in enumerate(statuses, start=1):
        typer.echo("\n".join(describe(number, status)))
    missed = [
        n for n, s in enumerate(statuses, start=1) if not s.equivalent and not s.hidden_killers
    ]
    typer.echo(f"\n{len(statuses)} mutants; {mutation_score(prepared).describe()}")
    if missed:
        typer.echo(f"no hidden case catches: {', '.join(map(str, missed))}")


def register(app: typer.Typer) -> None:
    app.command("mutants")(mutants_command)
