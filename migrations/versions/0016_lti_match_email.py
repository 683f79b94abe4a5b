"""lti_platforms.match_email: whether a platform may link its users to unused accounts by e-mail

Revision ID: 0016_lti_match_email
Revises: 0015_lti_contexts
Create Date: 2026-12-05 06:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_lti_match_email"
down_revision: str | None = "0015_lti_contexts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Registrations made before it are not trusted: an administrator says so for each one.
    with op.batch_alter_table("lti_platforms") as batch:
        batch.add_column(
            sa.Column("match_email", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("lti_platforms") as batch:
        batch.alter_column("match_email", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("lti_platforms") as batch:
        batch.drop_column("match_email")
