"""``numjudge doctor``: which isolation layers a submission gets on this machine, and why not."""

from __future__ import annotations

import typer

from app.core.config import get_settings
from graders.api import LayerState, diagnose_sandbox


def doctor_command() -> None:
    """List every sandbox layer as active or missing (with why) and the cgroup version used.

    Exits 1 when a layer that a strict sandbox requires is missing.
    """
    settings = get_settings()
    layers = diagnose_sandbox(settings.sandbox_limits)
    width = max(len(layer.name) for layer in layers)
    for layer in layers:
        extra = "" if layer.required else " (optional)"
        detail = f"  {layer.detail}" if layer.detail else ""
        typer.echo(f"{layer.name:<{width}}  {layer.state.value:<11}{detail}{extra}")
    missing = [
        layer.name for layer in layers if layer.required and layer.state is LayerState.MISSING
    ]
    strict = "on" if settings.sandbox_strict else "OFF (reduced isolation is accepted)"
    typer.echo(f"NUMJUDGE_SANDBOX_STRICT: {strict}")
    if missing:
        typer.echo(f"missing: {', '.join(missing)}; see docs/sandbox.md, 'Where it runs'", err=True)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor_command)
