"""users.email_key: each address folded as an LMS user's is matched against it, in Python
(SQLite's lower() folds ASCII letters only, so "Éva@" and "éva@" did not match there)

Revision ID: 0021_users_email_key
Revises: 0020_learner_variants
Create Date: 2026-12-06 03:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_users_email_key"
down_revision: str | None = "0020_learner_variants"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def folded(email: str) -> str:
    """app/core/names.py's ``email_key`` as of this revision: a migration keeps doing what it
    did when it was written, whatever the rule becomes."""
    return email.strip().lower()


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email_key", sa.Text(), nullable=True))
    op.create_index(op.f("ix_users_email_key"), "users", ["email_key"])
    users = sa.table("users", sa.column("id", sa.Integer()), sa.column("email", sa.String()))
    keyed = sa.table("users", sa.column("id", sa.Integer()), sa.column("email_key", sa.Text()))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.email).where(users.c.email.is_not(None))
    )
    for user_id, email in rows.all():
        connection.execute(
            sa.update(keyed).where(keyed.c.id == user_id).values(email_key=folded(email))
        )


def downgrade() -> None:
    op.drop_index(op.f("ix_users_email_key"), table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email_key")
