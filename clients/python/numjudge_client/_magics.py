"""``%load_ext numjudge_client``: the ``%numjudge`` / ``%%numjudge`` commands of a notebook.

%numjudge login [SERVER]          ask for the token (never echoed), check it, save it (0600)
%numjudge exercises               the course, in order
%numjudge starter EXERCISE        a new cell with the starter code
%%numjudge run EXERCISE           grade the cell on the public cases
%%numjudge submit EXERCISE        grade the cell on every case
"""

from __future__ import annotations

import getpass
import os
import shlex
import sys

from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, line_cell_magic, magics_class

from numjudge_client._client import Client
from numjudge_client._config import load_credentials, save_credentials
from numjudge_client._errors import NumjudgeError
from numjudge_client._results import Result

USAGE = __doc__.split("\n\n", 1)[1] if __doc__ else ""


@magics_class
class NumjudgeMagics(Magics):
    @line_cell_magic
    def numjudge(self, line: str, cell: str | None = None) -> Result | None:
        words = shlex.split(line)
        command, arguments = (words[0], words[1:]) if words else ("", [])
        try:
            if cell is not None:
                return self._grade(command, arguments, cell)
            self._line(command, arguments)
        except NumjudgeError as exc:
            raise UsageError(str(exc)) from None
        return None

    def _line(self, command: str, arguments: list[str]) -> None:
        if command == "login" and len(arguments) <= 1:
            self._login(arguments[0] if arguments else load_credentials().server)
        elif command == "starter" and len(arguments) == 1:
            with Client.from_config() as client:
                exercise = client.exercise(arguments[0])
            assert self.shell is not None
            self.shell.set_next_input(
                f"# {exercise.id}: {exercise.title}\n{exercise.starter_code}", replace=False
            )
        elif command == "exercises" and not arguments:
            with Client.from_config() as client:
                sys.stdout.write("".join(f"{e}\n" for e in client.exercises()))
        elif command in ("run", "submit"):
            raise UsageError(
                f"%%numjudge {command} goes on the first line of a cell, above the code to grade."
            )
        else:
            raise UsageError(
                f"Unknown command %numjudge {' '.join([command, *arguments])}.\n{USAGE}"
            )

    def _login(self, server: str) -> None:
        token = getpass.getpass(f"API token for {server} (create one on {server}/account): ")
        token = token.strip()
        if not token:
            raise UsageError("No token entered; nothing was saved.")
        with Client(server, token) as client:
            client.check_token()
        path = save_credentials(server.rstrip("/"), token)
        sys.stdout.write(
            f"Signed in to {server}. The token is saved in {path} "
            f"(readable only by {getpass.getuser()}).\n"
        )
        if os.environ.get("NUMJUDGE_TOKEN"):
            sys.stdout.write(
                "NUMJUDGE_TOKEN is set in this kernel's environment and wins over "
                "the saved token.\n"
            )

    def _grade(self, command: str, arguments: list[str], cell: str) -> Result:
        if command not in ("run", "submit") or len(arguments) != 1:
            raise UsageError(f"Use %%numjudge run EXERCISE or %%numjudge submit EXERCISE.\n{USAGE}")
        if not cell.strip():
            raise UsageError("The cell is empty: write your solution below the %%numjudge line.")
        with Client.from_config() as client:
            grade = client.run if command == "run" else client.submit
            return grade(arguments[0], cell)


def load_ipython_extension(shell: InteractiveShell) -> None:
    shell.register_magics(NumjudgeMagics)
