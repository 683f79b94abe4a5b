"""The migrations build exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from app.core.db import alembic_config, upgrade_database
from app.models import Base
from tests.app.conftest import BACKENDS


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrations_produce_exactly_the_models_schema(
        backend: str, fresh_database_url: Callable[[str], str]) -> None:
    url = fresh_database_url(backend)
    upgrade_database(url)
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            diff = compare_metadata(context, Base.metadata)
            tables = set(inspect(connection).get_table_names())
    finally:
        engine.dispose()
    assert diff == []
    assert tables == set(Base.metadata.tables) | {"alembic_version"}


@pytest.mark.parametrize("backend", BACKENDS)
def test_downgrade_to_base_and_up_again(backend: str,
                                        fresh_database_url: Callable[[str], str]) -> None:
    from alembic import command

    url = fresh_database_url(backend)
    upgrade_database(url)
    command.downgrade(alembic_config(url), "base")
    engine = create_engine(url)
    try:
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()
    upgrade_database(url)
