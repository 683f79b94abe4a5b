"""The learner's commands (``numjudge login``, ``logout``, ``language``, ``exercises``,
``submit``): the client package's command line (``numjudge_client.cli``), reached through the
server's ``numjudge`` as well, with their arguments and help as the client writes them."""

from __future__ import annotations

from collections.abc import Callable

import typer

LEARNER_COMMANDS = {
    "login": "sign in and save the token (mode 0600)",
    "logout": "forget the saved token",
    "language": "show or save the language of results, messages and hints",
    "exercises": "list the course's exercises",
    "submit": "grade a file (a notebook: as it runs top to bottom) on a numjudge server",
}
PASS_THROUGH = {"allow_extra_args": True, "ignore_unknown_options": True}


def _learner_command(name: str) -> Callable[[typer.Context], None]:
    def command(context: typer.Context) -> None:
        try:
            from numjudge_client.cli import main
        except ImportError:
            typer.echo(
                f"error: numjudge {name} is the client's command: pip install the "
                "numjudge-client package (clients/python)",
                err=True,
            )
            raise typer.Exit(2) from None
        raise typer.Exit(main([name, *context.args]))

    command.__doc__ = LEARNER_COMMANDS[name]
    return command


def register(app: typer.Typer) -> None:
    for name in LEARNER_COMMANDS:
        app.command(name, context_settings=PASS_THROUGH, add_help_option=False)(
            _learner_command(name)
        )
