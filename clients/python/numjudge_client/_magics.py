"""``%load_ext numjudge_client``: the ``%numjudge`` / ``%%numjudge`` commands of a notebook.

%numjudge login [SERVER] [--token-file FILE]
                                  check the server, then the token (FILE's, NUMJUDGE_TOKEN's,
                                  or asked for, never echoed), and save it (0600)
%numjudge language [en|ja]        the language of results, messages and hints (saved;
                                  by default the kernel's locale)
%numjudge exercises               the course, in order
%numjudge starter EXERCISE        the starter code, shown and in a new cell
%%numjudge run EXERCISE           run the cell, then grade what it defined on the public cases
%%numjudge submit EXERCISE        run the cell, then grade what it defined on every case
%numjudge submit-notebook EXERCISE [NOTEBOOK]
                                  run the saved notebook top to bottom in a fresh kernel, then
                                  grade the entry as that run defines it (NOTEBOOK: this one)
"""

from __future__ import annotations

import argparse
import getpass
import html
import os
import shlex
import sys
from pathlib import Path
from typing import NoReturn

from IPython.core.error import StdinNotImplementedError, UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.display import display

from numjudge_client._client import Client, ExerciseDetail
from numjudge_client._closure import Cell, bindings
from numjudge_client._config import load_credentials
from numjudge_client._errors import NumjudgeError
from numjudge_client._language import Language, choose_language, learner_language, say
from numjudge_client._login import TokenSource, sign_in, token_prompt
from numjudge_client._results import Result
from numjudge_client._source import from_cells, notebook_cells

USAGE = __doc__.split("\n\n", 1)[1] if __doc__ else ""


class LoginArguments(argparse.ArgumentParser):
    """``login``'s arguments; a mistake is a one-line ``UsageError``, not argparse's exit."""

    def __init__(self) -> None:
        super().__init__(prog="%numjudge login", add_help=False)
        self.add_argument("server", nargs="?")
        self.add_argument("--token-file", type=Path)

    def error(self, message: str) -> NoReturn:
        raise UsageError(
            say(
                "{message}. Use: %numjudge login [SERVER] [--token-file FILE]",
                learner_language(),
                message=message,
            )
        )


@magics_class
class NumjudgeMagics(Magics):
    @line_cell_magic
    def numjudge(self, line: str, cell: str | None = None) -> Result | None:
        try:
            words = shlex.split(line)
        except ValueError as exc:  # an unclosed quote
            raise UsageError(
                say(
                    "Cannot read `%numjudge {line}`: {reason}.",
                    self._language,
                    line=line,
                    reason=exc,
                )
            ) from None
        command, arguments = (words[0], words[1:]) if words else ("", [])
        try:
            if cell is not None:
                return self._grade(command, arguments, cell)
            self._line(command, arguments)
        except NumjudgeError as exc:
            raise UsageError(str(exc.said_in(self._language))) from None
        return None

    @property
    def _shell(self) -> InteractiveShell:
        assert self.shell is not None  # a registered Magics always has its shell
        return self.shell

    @property
    def _language(self) -> Language:
        return learner_language()

    def _line(self, command: str, arguments: list[str]) -> None:
        if command == "login":
            login = LoginArguments().parse_args(arguments)
            server = (login.server or load_credentials().server).rstrip("/")
            signed_in = sign_in(
                server, lambda: self._token(server, login.token_file), self._language
            )
            sys.stdout.write(signed_in + "\n")
        elif command == "language" and len(arguments) <= 1:
            try:
                sys.stdout.write(choose_language(arguments[0] if arguments else None) + "\n")
            except ValueError as exc:
                raise UsageError(
                    say("{reason}. Use: %numjudge language [en|ja]", self._language, reason=exc)
                ) from None
        elif command == "starter" and len(arguments) == 1:
            with Client.from_config() as client:
                self._starter(client.exercise(arguments[0]))
        elif command == "exercises" and not arguments:
            with Client.from_config() as client:
                sys.stdout.write("".join(f"{e}\n" for e in client.exercises()))
        elif command == "submit-notebook" and len(arguments) in (1, 2):
            with Client.from_config() as client:
                shown = client.submit_notebook(arguments[0], self._notebook_path(arguments[1:]))
            display(shown)
        elif command in ("run", "submit"):
            raise UsageError(
                say(
                    "%%numjudge {command} goes on the first line of a cell, above the code to "
                    "grade.",
                    self._language,
                    command=command,
                )
            )
        else:
            raise UsageError(
                say(
                    "Unknown command %numjudge {command}.",
                    self._language,
                    command=" ".join([command, *arguments]),
                )
                + f"\n{USAGE}"
            )

    def _notebook_path(self, given: list[str]) -> Path:
        """The notebook named, else this one: JupyterLab and Notebook 7 tell the kernel its
        file (``__session__``), VS Code too (``__vsc_ipynb_file__``)."""
        namespace = self._shell.user_ns
        path = (
            given[0]
            if given
            else (namespace.get("__vsc_ipynb_file__") or namespace.get("__session__"))
        )
        if not path or not str(path).endswith(".ipynb"):
            raise UsageError(
                say(
                    "This kernel does not know its notebook's file: name it, "
                    "%numjudge submit-notebook EXERCISE NOTEBOOK.ipynb.",
                    self._language,
                )
            )
        return Path(str(path))

    def _starter(self, exercise: ExerciseDetail) -> None:
        """A new cell where the notebook makes one (JupyterLab, Notebook, VS Code), and the code
        shown in any case: nbconvert, papermill and some frontends ignore the request."""
        code = f"# {exercise.id}: {exercise.title}\n{exercise.starter_code}"
        self._shell.set_next_input(code, replace=False)
        summary = say(
            "Starter code of {exercise} (also in a new cell below, where the notebook can add one)",
            self._language,
            exercise=exercise.id,
        )
        shown = (
            f'<details class="numjudge-starter"><summary>{html.escape(summary)}</summary>'
            f"<pre>{html.escape(code)}</pre></details>"
        )
        display({"text/plain": code, "text/html": shown}, raw=True)

    def _token(self, server: str, token_file: Path | None) -> tuple[str, TokenSource]:
        """The token and where it came from: the file, the environment, or the learner."""
        if token_file is not None:
            try:
                token = token_file.expanduser().read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise UsageError(
                    say(
                        "Cannot read the token file {file}: {reason}.",
                        self._language,
                        file=token_file,
                        reason=exc.strerror,
                    )
                ) from None
            if not token:
                raise UsageError(
                    say(
                        "The token file {file} is empty; nothing was saved.",
                        self._language,
                        file=token_file,
                    )
                )
            return token, TokenSource.FILE
        if token := os.environ.get("NUMJUDGE_TOKEN", "").strip():
            return token, TokenSource.ENVIRONMENT
        try:
            token = getpass.getpass(token_prompt(server, self._language))
        except StdinNotImplementedError:
            raise UsageError(
                say(
                    "This notebook cannot ask for input: use %numjudge login {server} "
                    "--token-file FILE, or start Jupyter with NUMJUDGE_TOKEN set.",
                    self._language,
                    server=server,
                )
            ) from None
        if not token.strip():
            raise UsageError(say("No token entered; nothing was saved.", self._language))
        return token.strip(), TokenSource.PROMPT

    def _grade(self, command: str, arguments: list[str], cell: str) -> Result:
        if command not in ("run", "submit") or len(arguments) != 1:
            raise UsageError(
                say("Use %%numjudge run EXERCISE or %%numjudge submit EXERCISE.", self._language)
                + f"\n{USAGE}"
            )
        if not cell.strip():
            raise UsageError(
                say(
                    "The cell is empty: write your solution below the %%numjudge line.",
                    self._language,
                )
            )
        (exercise_id,) = arguments
        # The cell as the kernel keeps it: its body, below the %%numjudge line
        cells = notebook_cells() or [Cell("this cell", self._shell.transform_cell(cell), 2)]
        with Client.from_config() as client:
            client.require_token()  # before the cell runs: nothing to grade it with
            entries = client.exercise(exercise_id).entry.split(", ")
            self._require_defined(cells[-1], entries, client.language)
            if not self._shell.run_cell(cell, store_history=False).success:
                raise UsageError(
                    say(
                        "The cell failed when it ran (above), so nothing was sent: fix it and "
                        "run {cell} again.",
                        client.language,
                        cell=cells[-1].label,
                    )
                )
            grade = client.run if command == "run" else client.submit
            if len(entries) == 1:  # the function as it ran, checked against the code sent
                return grade(exercise_id, self._shell.user_ns[entries[0]])
            return grade(exercise_id, from_cells(cells, self._shell.user_ns, entries))

    def _require_defined(self, cell: Cell, entries: list[str], language: Language) -> None:
        """The cell submitted defines what the exercise calls (checked before it runs): a cell
        that does not would grade whatever another cell left in the kernel under that name."""
        defined = bindings([cell], frozenset())
        missing = [entry for entry in entries if entry not in defined]
        if missing:
            names = say(" and ", language).join(f"{name}()" for name in missing)
            elsewhere = all(entry in self._shell.user_ns for entry in missing)
            raise UsageError(
                say(
                    "This cell does not define {names}, which the exercise calls, so nothing "
                    "was sent",
                    language,
                    names=names,
                )
                + (say(" (the notebook's comes from another cell)", language) if elsewhere else "")
                + say(": define {names} in the cell you submit.", language, names=names)
            )


def load_ipython_extension(shell: InteractiveShell) -> None:
    shell.register_magics(NumjudgeMagics)
