"""users.enrolment: whether a learner was enrolled by an instructor or signed up on their own
(once the course has a roster, the gradebooks list only the enrolled)

Revision ID: 0019_users_enrolment
Revises: 0018_ja_invite_invitations
Create Date: 2026-12-05 13:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_users_enrolment"
down_revision: str | None = "0018_ja_invite_invitations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Accounts made before it stay in the gradebooks they were in: all count as enrolled.
    with op.batch_alter_table("users") as batch:
        batch.add_column(
            sa.Column(
                "enrolment",
                sa.Enum("enrolled", "signed-up", name="enrolment", native_enum=False, length=16),
                nullable=False,
                server_default="enrolled",
            )
        )
    with op.batch_alter_table("users") as batch:
        batch.alter_column("enrolment", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("enrolment")
