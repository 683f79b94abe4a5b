"""similarity_reports: the similarity reports instructors asked for, with their results

Revision ID: 0011_similarity_reports
Revises: 0010_submission_release
Create Date: 2026-12-02 07:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_similarity_reports"
down_revision: str | None = "0010_submission_release"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "similarity_reports",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column(
            "scope",
            sa.Enum(
                "exercise", "assignment", name="similarity_scope", native_enum=False, length=16
            ),
            nullable=False,
        ),
        sa.Column("target", sa.String(100), nullable=False),
        sa.Column(
            "state",
            sa.Enum("queued", "done", "failed", name="report_state", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_similarity_reports")),
    )
    op.create_index(op.f("ix_similarity_reports_created_at"), "similarity_reports", ["created_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_similarity_reports_created_at"), table_name="similarity_reports")
    op.drop_table("similarity_reports")
