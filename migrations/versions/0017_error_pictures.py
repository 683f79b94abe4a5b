"""error_pictures: each failed public test's picture, drawn once when graded

Revision ID: 0017_error_pictures
Revises: 0016_lti_match_email
Create Date: 2026-12-05 07:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_error_pictures"
down_revision: str | None = "0016_lti_match_email"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "error_pictures",
        sa.Column("submission_id", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("svg", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["submission_id"], ["submissions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("submission_id", "position"),
    )


def downgrade() -> None:
    op.drop_table("error_pictures")
