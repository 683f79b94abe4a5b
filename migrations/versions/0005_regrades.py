"""regrades: submissions queued again behind learners' own work; every earlier report kept

Revision ID: 0005_regrades
Revises: 0004_submission_diagnosis
Create Date: 2026-11-30 22:35:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_regrades"
down_revision: str | None = "0004_submission_diagnosis"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VERDICTS = ("passed", "failed", "error", "timeout", "memory_limit")


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(
            sa.Column("regrade", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("submissions") as batch:
        batch.alter_column("regrade", server_default=None)
    op.create_table(
        "earlier_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("submission_id", sa.String(length=32), nullable=False),
        sa.Column("exercise_version", sa.String(length=64), nullable=False),
        sa.Column(
            "verdict",
            sa.Enum(*VERDICTS, name="verdict", native_enum=False, length=16),
            nullable=True,
        ),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("max_score", sa.Float(), nullable=True),
        sa.Column("tests", sa.JSON(), nullable=True),
        sa.Column("diagnosis", sa.JSON(), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("graded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("replaced_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["submission_id"],
            ["submissions.id"],
            ondelete="CASCADE",
            name=op.f("fk_earlier_reports_submission_id_submissions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_earlier_reports")),
    )
    op.create_index(op.f("ix_earlier_reports_submission_id"), "earlier_reports", ["submission_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_earlier_reports_submission_id"), table_name="earlier_reports")
    op.drop_table("earlier_reports")
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("regrade")
