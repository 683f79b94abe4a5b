"""lti_ags: what grade passback needs of each launch, and every passback attempt

Revision ID: 0014_lti_ags
Revises: 0013_lti
Create Date: 2026-12-02 14:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_lti_ags"
down_revision: str | None = "0013_lti"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lti_grade_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("resource_link_id", sa.String(255), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column(
            "scope",
            sa.Enum("exercise", "assignment", name="lti_target", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("target", sa.String(100), nullable=False),
        sa.Column("lineitem", sa.String(1024), nullable=False),
        sa.Column("lineitems", sa.String(1024), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column(
            "state",
            sa.Enum(
                "pending", "sent", "failed", name="passback_state", native_enum=False, length=16
            ),
            nullable=False,
        ),
        sa.Column("score_given", sa.Float(), nullable=True),
        sa.Column("score_maximum", sa.Float(), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_lti_grade_links_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_lti_grade_links_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_grade_links")),
        sa.UniqueConstraint(
            "platform_id",
            "resource_link_id",
            "user_id",
            name=op.f("uq_lti_grade_links_platform_id"),
        ),
    )
    op.create_index(op.f("ix_lti_grade_links_user_id"), "lti_grade_links", ["user_id"])
    op.create_table(
        "lti_passback_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("link_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent", sa.Boolean(), nullable=False),
        sa.Column("score_given", sa.Float(), nullable=False),
        sa.Column("score_maximum", sa.Float(), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["link_id"],
            ["lti_grade_links.id"],
            name=op.f("fk_lti_passback_attempts_link_id_lti_grade_links"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_passback_attempts")),
    )
    op.create_index(op.f("ix_lti_passback_attempts_link_id"), "lti_passback_attempts", ["link_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_lti_passback_attempts_link_id"), table_name="lti_passback_attempts")
    op.drop_table("lti_passback_attempts")
    op.drop_index(op.f("ix_lti_grade_links_user_id"), table_name="lti_grade_links")
    op.drop_table("lti_grade_links")
