"""submissions.hidden_messages: each hidden test's full message, for instructors and reveals

Revision ID: 0012_hidden_case_messages
Revises: 0011_similarity_reports
Create Date: 2026-12-02 14:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_hidden_case_messages"
down_revision: str | None = "0011_similarity_reports"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("hidden_messages", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("hidden_messages")
