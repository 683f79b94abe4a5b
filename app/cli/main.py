"""The ``numjudge`` command: one Typer app, each command group in its own module."""

from __future__ import annotations

import logging

import typer

from app.cli import exercises

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="numjudge: auto-graded numerical Python exercises.")
exercises.register(app)


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app()
