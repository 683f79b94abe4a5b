"""submissions.released_at: when a learner may see a result (a boundary of the release ladder)

A result without one was graded before and is shown as it was, at once.

Revision ID: 0010_submission_release
Revises: 0009_submission_cost
Create Date: 2026-12-01 23:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_submission_release"
down_revision: str | None = "0009_submission_cost"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("released_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("released_at")
