"""Alembic environment: numjudge's models are the target; the URL comes from the caller."""

from __future__ import annotations

import logging.config

from alembic import context
from sqlalchemy import Connection, create_engine, pool, text

from app.models import Base

config = context.config
target_metadata = Base.metadata
PG_MIGRATION_LOCK = 7_031_955  # an arbitrary advisory-lock key: one migrator at a time


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        from app.core.config import get_settings

        url = get_settings().database_url
    return url


def _configure(connection: Connection | None = None) -> None:
    kwargs = {"target_metadata": target_metadata, "compare_type": True, "render_as_batch": True}
    if connection is None:
        context.configure(url=_url(), literal_binds=True, **kwargs)
    else:
        context.configure(connection=connection, **kwargs)


def run_offline() -> None:
    _configure()
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    engine = create_engine(_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": PG_MIGRATION_LOCK})
            connection.commit()
        try:
            _configure(connection)
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": PG_MIGRATION_LOCK})
                connection.commit()
    engine.dispose()


if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    logging.config.fileConfig(config.config_file_name, disable_existing_loggers=False)

if context.is_offline_mode():
    run_offline()
else:
    run_online()
