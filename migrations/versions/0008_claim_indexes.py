"""indexes for the fair claim: a learner's gradings in flight and when they were last served

Revision ID: 0008_claim_indexes
Revises: 0007_roster
Create Date: 2026-11-30 23:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008_claim_indexes"
down_revision: str | None = "0007_roster"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_submissions_user_status_lease", "submissions", ["user_id", "status", "lease_expires_at"]
    )
    op.create_index("ix_submissions_user_started", "submissions", ["user_id", "started_at"])


def downgrade() -> None:
    op.drop_index("ix_submissions_user_started", table_name="submissions")
    op.drop_index("ix_submissions_user_status_lease", table_name="submissions")
