"""The migrations build exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, create_engine, inspect, text
from sqlalchemy.orm import Session

from app.core.db import alembic_config, upgrade_database
from app.models import Base
from app.store import lti as lti_store
from tests.app.conftest import BACKENDS


@pytest.mark.parametrize("backend", BACKENDS)
def test_migrations_produce_exactly_the_models_schema(
    backend: str, fresh_database_url: Callable[[str], str]
) -> None:
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
def test_downgrade_to_base_and_up_again(
    backend: str, fresh_database_url: Callable[[str], str]
) -> None:
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


@contextmanager
def upgraded_from(
    url: str, revision: str, insert: str, rows: Sequence[Mapping[str, object]]
) -> Iterator[Engine]:
    """The database at ``url`` migrated to ``revision``, ``rows`` inserted there with the SQL
    ``insert``, then migrated to the newest revision; its engine, disposed after the block."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for row in rows:
                connection.execute(text(insert), row)
        upgrade_database(url)
        yield engine
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_names_that_collide_once_normalised_are_renamed_oldest_first(
    backend: str, fresh_database_url: Callable[[str], str]
) -> None:
    names = ("alice", "bob", "ALICE", "alice-2", "ａｌｉｃｅ")
    with (
        upgraded_from(
            fresh_database_url(backend),
            "0001",
            "INSERT INTO users (name, role, created_at) "
            "VALUES (:name, 'learner', CURRENT_TIMESTAMP)",
            [{"name": name} for name in names],
        ) as engine,
        engine.connect() as connection,
    ):
        rows = connection.execute(text("SELECT name, name_key FROM users ORDER BY id")).all()
    assert [tuple(row) for row in rows] == [
        ("alice", "alice"),
        ("bob", "bob"),
        ("ALICE-3", "alice-3"),
        ("alice-2", "alice-2"),
        ("ａｌｉｃｅ-4", "alice-4"),
    ]


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_addresses_stored_before_their_keys_are_matched_whatever_their_case(
    backend: str, fresh_database_url: Callable[[str], str]
) -> None:
    with (
        upgraded_from(
            fresh_database_url(backend),
            "0020_learner_variants",
            "INSERT INTO users (name, name_key, role, email, enrolment, created_at) "
            "VALUES (:name, :name, 'learner', :email, 'enrolled', CURRENT_TIMESTAMP)",
            [{"name": "eva", "email": " Éva@Example.org"}, {"name": "bob", "email": None}],
        ) as engine,
        Session(engine) as session,
    ):
        found = lti_store.users_with_email(session=session, email="éva@example.ORG")
        keys = session.execute(text("SELECT name, email_key FROM users ORDER BY id")).all()
    assert [user.name for user in found] == ["eva"]
    assert [tuple(row) for row in keys] == [("eva", "éva@example.org"), ("bob", None)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_address_keyed_in_lower_case_with_a_kelvin_sign_is_keyed_as_written(
    backend: str, fresh_database_url: Callable[[str], str]
) -> None:
    """0022: the keys 0021 folded into an ASCII address's are made again, the others kept."""
    with (
        upgraded_from(
            fresh_database_url(backend),
            "0021_users_email_key",
            "INSERT INTO users (name, name_key, role, email, email_key, enrolment, created_at) "
            "VALUES (:name, :name, 'learner', :email, :key, 'enrolled', CURRENT_TIMESTAMP)",
            [
                {"name": "kate", "email": "kate@example.org", "key": "kate@example.org"},
                {"name": "kelvin", "email": " \u212aate@Example.org", "key": "kate@example.org"},
                {"name": "eva", "email": "Éva@Example.org", "key": "éva@example.org"},
            ],
        ) as engine,
        Session(engine) as session,
    ):
        found = lti_store.users_with_email(session=session, email="KATE@example.org")
        keys = session.execute(text("SELECT name, email_key FROM users ORDER BY id")).all()
    assert [user.name for user in found] == ["kate"]
    assert [tuple(row) for row in keys] == [
        ("kate", "kate@example.org"),
        ("kelvin", "\u212aate@Example.org"),
        ("eva", "éva@example.org"),
    ]


def test_0022s_characters_are_every_one_that_lower_cases_into_ascii() -> None:
    """0022 names them as this Python's Unicode has them; a Unicode that adds one needs a
    migration that keys its addresses again."""
    import importlib.util

    from app.core.names import email_key

    path = Path(__file__).parents[2] / "migrations/versions/0022_email_key_kept_as_written.py"
    spec = importlib.util.spec_from_file_location("migration_0022", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    found = {
        char
        for char in map(chr, range(0x80, 0x110000))
        if not 0xD800 <= ord(char) < 0xE000 and any(part.isascii() for part in char.lower())
    }
    assert found == migration.FOLDS_INTO_ASCII
    assert all(email_key(f"{char}x@y") == f"{char}x@y" for char in found)
