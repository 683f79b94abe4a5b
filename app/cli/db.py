"""``numjudge db upgrade``: apply the migrations (start-up does it too)."""

from __future__ import annotations

from typing import Annotated

import typer

from app.cli.common import service_settings
from app.core.db import upgrade_database

app = typer.Typer(help="The database: migrations.", no_args_is_help=True)


@app.command("upgrade")
def upgrade(revision: Annotated[str, typer.Argument(help="target revision")] = "head") -> None:
    """Apply the migrations in migrations/ to NUMJUDGE_DATABASE_URL."""
    settings = service_settings(migrate=False, log=False)
    upgrade_database(settings.database_url, revision)
    typer.echo(f"database at revision {revision}")


def register(parent: typer.Typer) -> None:
    parent.add_typer(app, name="db")
