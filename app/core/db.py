"""The database engine, sessions and migrations (SQLite by default, PostgreSQL in production)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from app.core.redact import mask_url

logger = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

_engines: dict[str, Engine] = {}
_makers: dict[str, sessionmaker[Session]] = {}
_lock = threading.Lock()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str) -> Engine:
    """A new engine; SQLite gets WAL, foreign keys and a busy timeout on every connection."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 10},
            pool_size=20,
            max_overflow=20,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def get_engine(url: str) -> Engine:
    """The process's engine for ``url`` (one pool per database)."""
    with _lock:
        engine = _engines.get(url)
        if engine is None:
            engine = _engines[url] = make_engine(url)
        return engine


def get_sessionmaker(url: str) -> sessionmaker[Session]:
    with _lock:
        maker = _makers.get(url)
    if maker is None:
        maker = sessionmaker(bind=get_engine(url), expire_on_commit=False)
        with _lock:
            _makers.setdefault(url, maker)
    return maker


@contextmanager
def session_scope(url: str) -> Iterator[Session]:
    """A session that commits on success and rolls back on error."""
    with get_sessionmaker(url)() as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def dispose_engines() -> None:
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
        _makers.clear()


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logging"] = False
    return config


def upgrade_database(url: str, revision: str = "head") -> None:
    """Apply the migrations in ``migrations/`` up to ``revision``."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)
    logger.info("database.upgraded url=%s revision=%s", mask_url(url), revision)
