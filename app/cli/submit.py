"""``numjudge submit``: the editor-plugin client (posts, waits, prints the grading table)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer

from graders.api import GradeReport, format_report

WAIT_S = 30


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
    exercise: Annotated[str, typer.Argument(help="exercise id, e.g. gru-update-gate")],
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="your solution")],
    server: Annotated[
        str, typer.Option(envvar="NUMJUDGE_SERVER", help="e.g. http://127.0.0.1:8000")
    ] = "http://127.0.0.1:8000",
    token: Annotated[str, typer.Option(envvar="NUMJUDGE_TOKEN", help="your API token")] = "",
    run: Annotated[bool, typer.Option("--run", help="public cases only, not scored")] = False,
    timeout: Annotated[float, typer.Option(help="give up after this many seconds")] = 120.0,
) -> None:
    """Submit a file to a numjudge server, wait for the result, print the table."""
    if not token:
        typer.echo("error: no token; pass --token or set NUMJUDGE_TOKEN", err=True)
        raise typer.Exit(2)
    headers = {"Authorization": f"Bearer {token}"}
    body = {"exercise": exercise, "code": file.read_text(encoding="utf-8")}
    deadline = time.monotonic() + timeout
    try:
        with httpx.Client(
            base_url=server.rstrip("/"), headers=headers, timeout=WAIT_S + 10
        ) as client:
            response = client.post("/run" if run else "/submit", params={"wait": WAIT_S}, json=body)
            while response.is_success and response.json()["status"] != "done":
                if time.monotonic() > deadline:
                    typer.echo(
                        f"error: no result after {timeout:g} s; see "
                        f"{server}{response.json()['url']}",
                        err=True,
                    )
                    raise typer.Exit(2)
                time.sleep(0.5)
                response = client.get(response.json()["url"])
    except httpx.HTTPError as exc:
        typer.echo(f"error: cannot reach {server}: {exc}", err=True)
        raise typer.Exit(2) from None
    if not response.is_success:
        typer.echo(f"error: {response.status_code} {_detail(response)}", err=True)
        raise typer.Exit(2)
    report = report_from_result(response.json())
    typer.echo(format_report(report))
    raise typer.Exit(0 if report.passed else 1)


def register(app: typer.Typer) -> None:
    app.command("submit")(submit_command)
