"""The ``numjudge`` command: one Typer app, each command group in its own module."""

from __future__ import annotations

import logging

import typer

from app.cli import (
    courses,
    db,
    doctor,
    exercises,
    lti,
    mistakes,
    mutants,
    serve,
    similarity,
    submit,
    users,
)

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="numjudge: auto-graded numerical Python exercises.",
)
exercises.register(app)
doctor.register(app)
mutants.register(app)
serve.register(app)
submit.register(app)
courses.register(app)
similarity.register(app)
mistakes.register(app)
app.add_typer(users.app, name="users")
app.add_typer(db.app, name="db")
app.add_typer(lti.app, name="lti")


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app()
