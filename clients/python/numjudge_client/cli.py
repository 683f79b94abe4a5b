"""``numjudge``, the learner's command line (installed with this package alone).

    numjudge login [SERVER] [--token-stdin]   check the server, ask for the token (or read it
                                              from stdin), check it, save it (mode 0600)
    numjudge logout                           forget the saved token
    numjudge language [en|ja]                 the language of results, messages and hints
    numjudge exercises                        the course, in order
    numjudge submit EXERCISE FILE.py          send the file as written, print the result
    numjudge submit NOTEBOOK.ipynb --exercise EXERCISE
                                              run the notebook top to bottom in a fresh
                                              kernel, send the entry as that run defines it

Exit codes: 0 passed (or done), 1 graded and not passed, 2 not graded (usage, the server, the
time-out, a notebook's guard), 3 the file refused before anything was sent (not UTF-8, a
syntax error). The token is never an argument (it would show in ``ps`` and the shell's
history): it comes from ``numjudge login`` or ``NUMJUDGE_TOKEN``.

Where the server's package is installed too, its commands (``numjudge serve``, ``numjudge
validate``…) are reached through the same ``numjudge``: a command this one does not know goes
to the entry point of the group ``numjudge.cli`` (the server's ``app.cli.main:main``).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable, Sequence
from enum import IntEnum
from importlib.metadata import entry_points
from pathlib import Path

from numjudge_client._client import Client
from numjudge_client._config import forget_token, load_credentials
from numjudge_client._errors import NumjudgeError
from numjudge_client._language import Language, choose_language, learner_language, say
from numjudge_client._login import TokenSource, sign_in, token_prompt
from numjudge_client._results import Kind, Result, Verdict

LEARNER_COMMANDS = ("login", "logout", "language", "exercises", "submit")
SERVER_COMMANDS = "numjudge.cli"
"""The entry-point group through which the server's package adds its commands."""


class Exit(IntEnum):
    PASSED = 0
    NOT_PASSED = 1
    NOT_GRADED = 2
    FILE_REFUSED = 3


class Refused(Exception):
    """One line for the learner and the exit code it ends with."""

    def __init__(self, line: str, code: Exit) -> None:
        super().__init__(line)
        self.code = code


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="numjudge",
        description="Submit numjudge exercises from the command line.",
        epilog="Exit codes: 0 passed, 1 graded and not passed, 2 not graded, 3 the file "
        "refused before anything was sent.",
    )
    # Each command takes it, so that it goes after the command as in the server's numjudge.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--language",
        choices=[language.value for language in Language],
        help="results, messages and hints in this language (default: the saved one, else "
        "the locale's)",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        return commands.add_parser(name, parents=[common], help=help, description=description)

    login = command("login", help="sign in and save the token (mode 0600)")
    login.add_argument("server", nargs="?", help="e.g. http://127.0.0.1:8000 (default: saved)")
    login.add_argument(
        "--token-stdin",
        action="store_true",
        help="read the token from stdin (echo $TOKEN | numjudge login --token-stdin) instead "
        "of asking for it",
    )
    command("logout", help="forget the saved token")
    language = command("language", help="show or save the language")
    language.add_argument("chosen", nargs="?", choices=[item.value for item in Language])
    command("exercises", help="list the course's exercises")
    submit = command(
        "submit",
        help="grade a file (a notebook: as it runs top to bottom)",
        description="numjudge submit EXERCISE FILE, or numjudge submit FILE --exercise ID",
    )
    submit.add_argument(
        "paths", nargs="+", metavar="ARGUMENT", help="EXERCISE FILE, or FILE with --exercise"
    )
    submit.add_argument("--exercise", help="exercise id, e.g. gru-update-gate")
    submit.add_argument("--server", help="the server (default: NUMJUDGE_SERVER, else saved)")
    submit.add_argument("--run", action="store_true", help="public cases only, not scored")
    submit.add_argument(
        "--timeout", type=float, default=120.0, help="give up after this many seconds"
    )
    return top


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    server_main = _server_commands()
    if server_main is not None and _for_the_server(arguments):
        server_main()  # reads sys.argv, as the console script it is
        return 0
    options = parser().parse_args(arguments)
    language = learner_language(options.language)
    try:
        return _command(options, language)
    except Refused as refused:
        sys.stderr.write(f"{refused}\n")
        return refused.code
    except NumjudgeError as exc:
        sys.stderr.write(say("error: {message}", language, message=exc) + "\n")
        return Exit.NOT_GRADED
    except KeyboardInterrupt:
        return Exit.NOT_GRADED


def _for_the_server(arguments: list[str]) -> bool:
    """A command of the server's, or the help with nothing else (the server's lists both)."""
    commands = [word for word in arguments if not word.startswith("-")]
    if not commands:
        return not arguments or arguments[0] in ("-h", "--help")
    return commands[0] not in LEARNER_COMMANDS and arguments[0] == commands[0]


def _server_commands() -> Callable[[], object] | None:
    found = entry_points(group=SERVER_COMMANDS)
    return next((point.load() for point in found), None)


def _command(options: argparse.Namespace, language: Language) -> int:
    if options.command == "login":
        server = (options.server or load_credentials().server).rstrip("/")
        ask = _token_from_stdin if options.token_stdin else _token_asked(server)
        _show(sign_in(server, lambda: ask(language), language))
    elif options.command == "logout":
        server, path = forget_token()
        _show(
            say(
                "Signed out of {server}: {path} no longer holds a token.",
                language,
                server=server,
                path=path,
            )
        )
    elif options.command == "language":
        _show(choose_language(options.chosen))
    elif options.command == "exercises":
        with Client.from_config(language=language) as client:
            sys.stdout.write("".join(f"{exercise}\n" for exercise in client.exercises()))
    else:
        return _submit(options, language)
    return Exit.PASSED


def _token_asked(server: str) -> Callable[[Language], tuple[str, TokenSource]]:
    """``NUMJUDGE_TOKEN``'s token (which stays there: only the server is saved), else the one
    the learner types at a prompt that does not echo it."""

    def ask(language: Language) -> tuple[str, TokenSource]:
        if token := os.environ.get("NUMJUDGE_TOKEN", "").strip():
            return token, TokenSource.ENVIRONMENT
        token = getpass.getpass(token_prompt(server, language)).strip()
        if not token:
            raise Refused(say("No token entered; nothing was saved.", language), Exit.NOT_GRADED)
        return token, TokenSource.PROMPT

    return ask


def _token_from_stdin(language: Language) -> tuple[str, TokenSource]:
    token = sys.stdin.readline().strip()
    if not token:
        raise Refused(
            say("The token on stdin is empty; nothing was saved.", language), Exit.NOT_GRADED
        )
    return token, TokenSource.STDIN


def _show(text: object) -> None:
    sys.stdout.write(f"{text}\n")


def _submit(options: argparse.Namespace, language: Language) -> int:
    paths: list[str] = options.paths
    if options.exercise is not None and len(paths) == 1:
        exercise, file = options.exercise, Path(paths[0])
    elif options.exercise is None and len(paths) == 2:
        exercise, file = paths[0], Path(paths[1])
    else:
        raise Refused(
            "error: use numjudge submit EXERCISE FILE or FILE --exercise ID", Exit.NOT_GRADED
        )
    if not file.is_file():
        raise Refused(say("error: no file {file}", language, file=file), Exit.NOT_GRADED)
    kind = Kind.RUN if options.run else Kind.SUBMIT
    credentials = load_credentials()
    server = options.server or credentials.server
    # A server that does not answer at all is given up on within the time-out too.
    http_timeout = min(options.timeout, 30.0)
    with Client(server, credentials.token, timeout=http_timeout, language=language) as client:
        client.require_token()  # before a notebook is run: nothing to grade it with
        if file.suffix == ".ipynb":
            result = client.submit_notebook(exercise, file, wait=options.timeout, kind=kind)
        else:
            code = python_source(file, language)
            grade = client.run if options.run else client.submit
            result = grade(exercise, code, wait=options.timeout)
    _show(result)
    return _exit(result)


def _exit(result: Result) -> Exit:
    if result.verdict is Verdict.PASSED:
        return Exit.PASSED
    return Exit.NOT_GRADED if result.verdict is None else Exit.NOT_PASSED


def python_source(file: Path, language: Language) -> str:
    """The file's text; ``Refused`` (exit 3, nothing sent) when it is not UTF-8 or not Python."""
    data = file.read_bytes()
    try:
        code = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(
            say(
                "error: {file} is not UTF-8 text (byte {byte:#04x} at offset {offset}); save it "
                "as UTF-8. Nothing was sent.",
                language,
                file=file,
                byte=data[exc.start],
                offset=exc.start,
            ),
            Exit.FILE_REFUSED,
        ) from None
    try:
        compile(code, str(file), "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise Refused(
            say(
                "error: {file}, line {line}: SyntaxError: {message}. Nothing was sent.",
                language,
                file=file,
                line=exc.lineno,
                message=exc.msg,
            ),
            Exit.FILE_REFUSED,
        ) from None
    return code


def console() -> None:
    """The console script: ``main``'s return is the process's exit code."""
    sys.exit(main())
