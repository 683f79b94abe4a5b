"""signup_links: the state of the e-mail that carried each link (queued, sent, failed and why);
roster_handoffs: an import's links, sealed, for the page the import redirects to

Revision ID: 0018_ja_invite_invitations
Revises: 0017_error_pictures
Create Date: 2026-12-05 09:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_ja_invite_invitations"
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
    op.create_table(
        "roster_handoffs",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sealed", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    op.create_index("ix_roster_handoffs_user_id", "roster_handoffs", ["user_id"])
    op.create_index("ix_roster_handoffs_expires_at", "roster_handoffs", ["expires_at"])


def downgrade() -> None:
    op.drop_table("roster_handoffs")
    with op.batch_alter_table("signup_links") as batch:
        batch.drop_column("mail_error")
        batch.drop_column("mailed_at")
        batch.drop_column("mail_state")
