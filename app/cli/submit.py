"""``numjudge submit``: the editor-plugin client (posts, waits, prints the grading table).

``numjudge submit EXERCISE FILE`` sends a ``.py`` file as written; ``numjudge submit
NOTEBOOK.ipynb --exercise ID`` runs the notebook top to bottom in a fresh kernel and sends the
exercise's entry as that run defines it (numjudge_client's whole-notebook mode, with its guard).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer

from graders.api import GradeReport, format_report

WAIT_S = 30
NOT_PASSED, NOT_GRADED, FILE_REFUSED = 1, 2, 3
"""Exit codes besides 0 (passed): graded and not passed; not graded (usage, server, time);
the file refused before anything was sent (not UTF-8, a syntax error)."""


def report_from_result(result: dict[str, Any]) -> GradeReport:
    """The engine's report from the API's result body (same test schema)."""
    return GradeReport.from_dict(
        {
            "exercise": result["exercise"],
            "version": result.get("exercise_version", ""),
            "verdict": result["verdict"],
            "tests": result.get("tests", []),
            "output": result.get("output", ""),
            "message": result.get("message", ""),
            "duration_ms": result.get("duration_ms") or 0,
            "diagnosis": result.get("diagnosis"),
        }
    )


def _detail(response: httpx.Response) -> str:
    try:
        return str(response.json().get("detail", response.text))
    except ValueError:
        return response.text[:500]


def submit_command(
    paths: Annotated[
        list[str],
        typer.Argument(help="EXERCISE FILE, or FILE (a .py or .ipynb) with --exercise"),
    ],
    exercise_option: Annotated[
        str | None, typer.Option("--exercise", help="exercise id, e.g. gru-update-gate")
    ] = None,
    server: Annotated[
        str, typer.Option(envvar="NUMJUDGE_SERVER", help="e.g. http://127.0.0.1:8000")
    ] = "http://127.0.0.1:8000",
    token: Annotated[str, typer.Option(envvar="NUMJUDGE_TOKEN", help="your API token")] = "",
    run: Annotated[bool, typer.Option("--run", help="public cases only, not scored")] = False,
    timeout: Annotated[float, typer.Option(help="give up after this many seconds")] = 120.0,
) -> None:
    """Submit a file (a notebook: as it runs top to bottom) to a numjudge server, wait for
    the result, print the table."""
    if exercise_option is not None and len(paths) == 1:
        exercise, file = exercise_option, Path(paths[0])
    elif exercise_option is None and len(paths) == 2:
        exercise, file = paths[0], Path(paths[1])
    else:
        typer.echo("error: use numjudge submit EXERCISE FILE or FILE --exercise ID", err=True)
        raise typer.Exit(NOT_GRADED)
    if not file.is_file():
        typer.echo(f"error: no file {file}", err=True)
        raise typer.Exit(NOT_GRADED)
    if not token:
        typer.echo("error: no token; pass --token or set NUMJUDGE_TOKEN", err=True)
        raise typer.Exit(NOT_GRADED)
    if file.suffix == ".ipynb":
        _submit_notebook(exercise, file, server, token, run=run, timeout=timeout)
    headers = {"Authorization": f"Bearer {token}"}
    body = {"exercise": exercise, "code": _python_source(file)}
    deadline = time.monotonic() + timeout
    held = min(WAIT_S, timeout)  # the server holds the request this long, at most
    try:
        with httpx.Client(base_url=server.rstrip("/"), headers=headers, timeout=held + 5) as client:
            response = client.post("/run" if run else "/submit", params={"wait": held}, json=body)
            while response.is_success and response.json()["status"] != "done":
                if time.monotonic() > deadline:
                    typer.echo(
                        f"error: no result after {timeout:g} s; see "
                        f"{server}{response.json()['url']}",
                        err=True,
                    )
                    raise typer.Exit(NOT_GRADED)
                time.sleep(0.5)
                response = client.get(response.json()["url"])
    except httpx.HTTPError as exc:
        typer.echo(f"error: cannot reach {server}: {exc}", err=True)
        raise typer.Exit(NOT_GRADED) from None
    if not response.is_success:
        typer.echo(f"error: {response.status_code} {_detail(response)}", err=True)
        raise typer.Exit(NOT_GRADED)
    report = report_from_result(response.json())
    typer.echo(format_report(report))
    raise typer.Exit(0 if report.passed else NOT_PASSED)


def _python_source(file: Path) -> str:
    """The file's text, refused in one line (exit 3, nothing sent) when it is not UTF-8 or
    not Python."""
    data = file.read_bytes()
    try:
        code = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        typer.echo(
            f"error: {file} is not UTF-8 text (byte {data[exc.start]:#04x} at offset "
            f"{exc.start}); save it as UTF-8. Nothing was sent.",
            err=True,
        )
        raise typer.Exit(FILE_REFUSED) from None
    try:
        compile(code, str(file), "exec", dont_inherit=True)
    except SyntaxError as exc:
        typer.echo(
            f"error: {file}, line {exc.lineno}: SyntaxError: {exc.msg}. Nothing was sent.",
            err=True,
        )
        raise typer.Exit(FILE_REFUSED) from None
    return code


def _submit_notebook(
    exercise: str, notebook: Path, server: str, token: str, *, run: bool, timeout: float
) -> None:
    from numjudge_client import Client, Kind, NumjudgeError, Verdict

    try:
        with Client(server, token) as client:
            kind = Kind.RUN if run else Kind.SUBMIT
            result = client.submit_notebook(exercise, notebook, wait=timeout, kind=kind)
    except NumjudgeError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(NOT_GRADED) from None
    typer.echo(str(result))
    raise typer.Exit(0 if result.verdict is Verdict.PASSED else NOT_PASSED)


def register(app: typer.Typer) -> None:
    app.command("submit")(submit_command)
