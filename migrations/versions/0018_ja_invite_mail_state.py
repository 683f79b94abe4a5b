"""signup_links: the state of the e-mail that carried each link (queued, sent, failed and why)

Revision ID: 0018_ja_invite_mail_state
Revises: 0017_error_pictures
Create Date: 2026-12-05 09:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_ja_invite_mail_state"
down_revision: str | None = "0017_error_pictures"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("signup_links") as batch:
        batch.add_column(
            sa.Column(
                "mail_state",
                sa.Enum(
                    "queued", "sent", "failed", name="mail_state", native_enum=False, length=16
                ),
                nullable=True,
            )
        )
        batch.add_column(sa.Column("mailed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("mail_error", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("signup_links") as batch:
        batch.drop_column("mail_error")
        batch.drop_column("mailed_at")
        batch.drop_column("mail_state")
