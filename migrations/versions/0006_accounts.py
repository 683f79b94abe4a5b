"""accounts: one name per NFKC/case-folded key, disabled users, expiring tokens, server-side
web sessions, the generated cookie-signing key, throttle counters shared by every process

Existing names that collide once normalised keep the oldest account's name; the others get a
``-2``, ``-3``… suffix (logged, so the operator can tell the people concerned).

Revision ID: 0006_accounts
Revises: 0005_regrades
Create Date: 2026-11-30 22:05:00
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_accounts"
down_revision: str | None = "0005_regrades"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

logger = logging.getLogger("alembic.runtime.migration")


def _timestamp(name: str, *, nullable: bool) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _key(name: str) -> str:
    # Frozen copy of app.core.names.name_key: a migration must not change with the app.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).strip().casefold())


def _fill_name_keys() -> None:
    connection = op.get_bind()
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
    )
    rows = connection.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)).all()
    taken = {_key(name) for _, name in rows}
    seen: set[str] = set()
    for user_id, name in rows:
        new_name, suffix = name, 1
        # a renamed account must not take the name of a later one either
        while _key(new_name) in seen or (new_name != name and _key(new_name) in taken):
            suffix += 1
            new_name = f"{name[:60]}-{suffix}"
        seen.add(_key(new_name))
        if new_name != name:
            logger.warning(
                "user %r (id %d) renamed %r: another account has the same name once normalised",
                name,
                user_id,
                new_name,
            )
        connection.execute(
            users.update()
            .where(users.c.id == user_id)
            .values(name=new_name, name_key=_key(new_name))
        )


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_key", sa.String(length=64), nullable=True))
        batch.add_column(_timestamp("disabled_at", nullable=True))
    _fill_name_keys()
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(length=64), nullable=False)
        batch.create_unique_constraint(op.f("uq_users_name_key"), ["name_key"])
    with op.batch_alter_table("api_tokens") as batch:
        batch.add_column(_timestamp("expires_at", nullable=True))
    op.create_table(
        "web_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        _timestamp("created_at", nullable=False),
        _timestamp("last_seen_at", nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_web_sessions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_web_sessions")),
    )
    op.create_index(op.f("ix_web_sessions_user_id"), "web_sessions", ["user_id"])
    op.create_index(op.f("ix_web_sessions_last_seen_at"), "web_sessions", ["last_seen_at"])
    op.create_table(
        "service_secrets",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        _timestamp("created_at", nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_service_secrets")),
    )
    op.create_table(
        "throttle_counters",
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("window_start", sa.Integer(), nullable=False),
        sa.Column("window_end", sa.Integer(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key_hash", "window_start", name=op.f("pk_throttle_counters")),
    )
    op.create_index(op.f("ix_throttle_counters_window_end"), "throttle_counters", ["window_end"])


def downgrade() -> None:
    op.drop_index(op.f("ix_throttle_counters_window_end"), table_name="throttle_counters")
    op.drop_table("throttle_counters")
    op.drop_table("service_secrets")
    op.drop_index(op.f("ix_web_sessions_last_seen_at"), table_name="web_sessions")
    op.drop_index(op.f("ix_web_sessions_user_id"), table_name="web_sessions")
    op.drop_table("web_sessions")
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("expires_at")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint(op.f("uq_users_name_key"), type_="unique")
        batch.drop_column("disabled_at")
        batch.drop_column("name_key")
