"""lti: LTI 1.3 platforms, the tool's key pairs, the launch cache and LMS users' links

Revision ID: 0013_lti
Revises: 0012_hidden_case_messages
Create Date: 2026-12-02 13:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_lti"
down_revision: str | None = "0012_hidden_case_messages"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("deployment_ids", sa.JSON(), nullable=False),
        sa.Column("jwks_url", sa.String(1024), nullable=False),
        sa.Column("auth_login_url", sa.String(1024), nullable=False),
        sa.Column("token_url", sa.String(1024), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_platforms")),
        sa.UniqueConstraint("issuer", "client_id", name=op.f("uq_lti_platforms_issuer")),
    )
    op.create_table(
        "lti_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("public_pem", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_keys")),
    )
    op.create_table(
        "lti_cache",
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_lti_cache")),
    )
    op.create_index(op.f("ix_lti_cache_expires_at"), "lti_cache", ["expires_at"])
    op.create_table(
        "lti_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_lti_accounts_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_lti_accounts_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_accounts")),
        sa.UniqueConstraint("platform_id", "subject", name=op.f("uq_lti_accounts_platform_id")),
    )
    op.create_index(op.f("ix_lti_accounts_user_id"), "lti_accounts", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_lti_accounts_user_id"), table_name="lti_accounts")
    op.drop_table("lti_accounts")
    op.drop_index(op.f("ix_lti_cache_expires_at"), table_name="lti_cache")
    op.drop_table("lti_cache")
    op.drop_table("lti_keys")
    op.drop_table("lti_platforms")
