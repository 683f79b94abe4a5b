"""The ``numjudge`` command: one Typer app, each command group in its own module, imported only
when one of its commands runs.

An author runs ``numjudge grade`` in a loop: importing every command's module would load the
web framework, the database layer, the similarity detector and plotting for a command that
needs the engine alone (about a second on a 2-core host). ``LazyCommands`` is Click's own hook
for that (a group's ``get_command`` and ``list_commands``): a command's module is imported when
the command is looked up, and ``numjudge --help`` looks up, so lists, every one.
"""

from __future__ import annotations

import importlib
import logging

import typer

# Typer carries its own copy of Click; its group's hooks take and return that copy's types.
from typer._click import Command, Context
from typer.core import TyperGroup

COMMAND_MODULES: dict[str, str] = {
    "grade": "app.cli.exercises",
    "validate": "app.cli.exercises",
    "new": "app.cli.exercises",
    "doctor": "app.cli.doctor",
    "mutants": "app.cli.mutants",
    "serve": "app.cli.serve",
    "worker": "app.cli.serve",
    "worker-check": "app.cli.serve",
    "submit": "app.cli.submit",
    "extend": "app.cli.courses",
    "regrade": "app.cli.courses",
    "similarity": "app.cli.similarity",
    "mistakes": "app.cli.mistakes",
    "users": "app.cli.users",
    "db": "app.cli.db",
    "lti": "app.cli.lti",
}
"""Each command (or command group) and the module whose ``register`` adds it, in the order
``numjudge --help`` lists them."""


class LazyCommands(TyperGroup):
    """The root group: a command is built from its module the first time it is looked up."""

    def list_commands(self, ctx: Context) -> list[str]:
        return list(COMMAND_MODULES)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            holder = typer.Typer()
            importlib.import_module(COMMAND_MODULES[cmd_name]).register(holder)
            # A module registers all its commands at once: keep them all.
            self.commands.update(typer.main.get_group(holder).commands)
        return self.commands.get(cmd_name)


app = typer.Typer(
    cls=LazyCommands,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="numjudge: auto-graded numerical Python exercises.",
)


@app.callback()
def root() -> None:
    """The commands' shared start (none yet): it makes ``app`` a group of commands."""


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app()
