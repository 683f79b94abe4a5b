"""idempotency keys on submissions; the workers' heartbeats

Revision ID: 0003
Revises: 0002_extensions
Create Date: 2026-11-30 22:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002_extensions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("idempotency_key", sa.String(length=64), nullable=True))
    op.create_index(
        "ix_submissions_user_idempotency_key",
        "submissions",
        ["user_id", "idempotency_key"],
        unique=True,
    )
    op.create_table(
        "workers",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("threads", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("canary_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("canary_ok", sa.Boolean(), nullable=True),
        sa.Column("canary_message", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workers")),
    )


def downgrade() -> None:
    op.drop_table("workers")
    op.drop_index("ix_submissions_user_idempotency_key", table_name="submissions")
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("idempotency_key")
