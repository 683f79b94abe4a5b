"""submissions.cpu_ms and memory_kb: what a graded submission's run used, for instructors

Revision ID: 0009_submission_cost
Revises: 0008_claim_indexes
Create Date: 2026-12-01 19:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_submission_cost"
down_revision: str | None = "0008_claim_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("cpu_ms", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("memory_kb", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("memory_kb")
        batch.drop_column("cpu_ms")
