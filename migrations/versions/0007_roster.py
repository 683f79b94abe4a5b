"""roster: learners' display name, email and section; one-time sign-up links

Revision ID: 0007_roster
Revises: 0006_accounts
Create Date: 2026-11-30 22:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_roster"
down_revision: str | None = "0006_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("display_name", sa.String(length=128), nullable=True))
        batch.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch.add_column(sa.Column("section", sa.String(length=32), nullable=True))
        batch.create_index(op.f("ix_users_section"), ["section"])
    op.create_table(
        "signup_links",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_signup_links_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_signup_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_signup_links_token_hash")),
    )


def downgrade() -> None:
    op.drop_table("signup_links")
    with op.batch_alter_table("users") as batch:
        batch.drop_index(op.f("ix_users_section"))
        batch.drop_column("section")
        batch.drop_column("email")
        batch.drop_column("display_name")
