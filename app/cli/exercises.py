"""Commands for exercise authors: ``grade``, ``validate`` and ``new``."""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Annotated

import typer

from app.core.config import get_settings
from graders import api


def exercises_dir() -> Path:
    return Path(os.environ.get("NUMJUDGE_EXERCISES_DIR", "exercises"))


def error_line(exc: api.GraderError) -> str:
    """What a command that takes an exercise's id prints for an error. The id is looked up in
    one folder, which depends on where the command runs: an author who wrote the exercise
    elsewhere is told which folder that was and how to name another."""
    if isinstance(exc, api.ExerciseNotFound):
        return (
            f"error: {exc} in {exercises_dir().resolve()}: the exercise is looked up by id in"
            " $NUMJUDGE_EXERCISES_DIR (default: ./exercises); run from the folder that holds"
            " exercises/, or set NUMJUDGE_EXERCISES_DIR to the folder that holds the"
            " exercise's folder"
        )
    return f"error: {exc}"


@contextlib.contextmanager
def own_warnings_captured() -> Iterator[None]:
    """Warnings the exercise's own files raise when run on the trusted side (a known
    mistake's deliberate slip, a deprecated call) captured, not printed between the report's
    lines; a reference's warnings are a problem ``validate`` reports
    (graders/authoring/reference.py).
    Swapping the warning filters touches the command's thread and the sandbox's starting
    thread (``sandbox_starting``), whose engine code reports through logging, not warnings."""
    with warnings.catch_warnings(record=True):
        yield


@contextlib.contextmanager
def sandbox_starting(limits: api.SandboxLimits) -> Iterator[Future[api.Sandbox]]:
    """A sandbox of one zygote, started in a thread of its own while the block runs, and
    closed after it, used or not.

    Starting it is mostly waiting: for the root image's builder and then the zygote's numpy
    (``graders.sandbox``), about a second; preparing an exercise (its cases, the reference's
    outputs and mutants) is as long, and the two overlap on a host's second core."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-start") as pool:
        starting = pool.submit(api.Sandbox, workers=1, limits=limits)
        try:
            yield starting
        finally:
            if starting.exception() is None:
                starting.result().close()


def grade_command(
    exercise: Annotated[str, typer.Argument(help="exercise id, e.g. gru-update-gate")],
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="your solution")],
    public_only: Annotated[bool, typer.Option("--public-only", help="only public cases")] = False,
) -> None:
    """Grade a file locally and print the per-test table; exit 0 only if all pass."""
    catalog = api.ExerciseCatalog(exercises_dir())
    try:
        catalog.load(exercise)  # an unknown id is told at once, before a sandbox starts for it
        with sandbox_starting(get_settings().sandbox_limits) as starting:
            with own_warnings_captured():
                prepared = catalog.prepared(exercise)
            report = api.grade(
                prepared,
                file.read_text(encoding="utf-8"),
                starting.result(),
                public_only=public_only,
            )
    except api.GraderError as exc:
        typer.echo(error_line(exc), err=True)
        raise typer.Exit(2) from None
    typer.echo(api.format_report(report, prepared.exercise.limits))
    raise typer.Exit(0 if report.passed else 1)


def validate_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="exercise folders or catalogs, or a catalog's course.toml alone"),
    ] = None,
) -> None:
    """Check exercise folders: files, metadata, reference, starter, mistakes, determinism."""
    named = paths or [exercises_dir()]
    # A course.toml named alone is checked without its exercises: seconds, not minutes.
    course_files = [path for path in named if path.name == api.COURSE_FILE and path.is_file()]
    catalogs = [path for path in named if path not in course_files]
    folders = api.exercise_folders(catalogs)
    if not folders and not course_files:
        typer.echo("no exercise folders found", err=True)
        raise typer.Exit(2)
    failures = 0
    if folders:
        with api.Sandbox(workers=1, limits=get_settings().sandbox_limits) as sandbox:
            for folder in folders:
                with own_warnings_captured():
                    result = api.validate_folder(folder, sandbox)
                typer.echo(api.format_validation(folder.name, result))
                failures += not result.ok
        typer.echo(f"{len(folders) - failures} of {len(folders)} exercise(s) valid")
    roots = [*catalogs, *(path.parent for path in course_files)]
    courses = [r for r in map(api.validate_course, roots) if r is not None]
    for course in courses:
        typer.echo(api.format_validation(str(course.path), course))
    raise typer.Exit(1 if failures or not all(c.ok for c in courses) else 0)


def new_command(
    exercise_id: Annotated[str, typer.Argument(help="the new exercise's id (folder name)")],
    kind: Annotated[
        api.ScaffoldKind,
        typer.Option(
            help="function: one entry function to fill in; scenario (two functions and the "
            "learner's own cache), class (a class keeping state) or property (any right "
            "answer passes its checks): a running example whose code validates"
        ),
    ] = api.ScaffoldKind.FUNCTION,
) -> None:
    """Create a new exercise folder to fill in; `numjudge validate` says what is left."""
    try:
        folder = api.create_exercise(exercises_dir(), exercise_id, kind)
    except (api.GraderError, FileExistsError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"created {folder}; fill in the files, then run: numjudge validate {folder}")


def register(app: typer.Typer) -> None:
    app.command("grade")(grade_command)
    app.command("validate")(validate_command)
    app.command("new")(new_command)
