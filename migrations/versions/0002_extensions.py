"""extensions: a learner's own due time for an assignment

Revision ID: 0002_extensions
Revises: 0001
Create Date: 2026-11-30 22:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_extensions"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "extensions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("assignment_id", sa.String(length=64), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("granted_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], ondelete="CASCADE", name=op.f("fk_extensions_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_extensions")),
        sa.UniqueConstraint("user_id", "assignment_id", name=op.f("uq_extensions_user_id")),
    )


def downgrade() -> None:
    op.drop_table("extensions")
