"""lti_contexts: the LMS courses launches came from, and their members' enrolments

Revision ID: 0015_lti_contexts
Revises: 0014_lti_ags
Create Date: 2026-12-02 17:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_lti_contexts"
down_revision: str | None = "0014_lti_ags"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lti_contexts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("title", sa.String(255), nullable=False),
        sa.Column("label", sa.String(255), nullable=False),
        sa.Column("memberships_url", sa.String(1024), nullable=False),
        sa.Column("section", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "sync_state",
            sa.Enum("succeeded", "failed", name="sync_state", native_enum=False, length=16),
            nullable=True,
        ),
        sa.Column("sync_added", sa.Integer(), nullable=False),
        sa.Column("sync_updated", sa.Integer(), nullable=False),
        sa.Column("sync_unchanged", sa.Integer(), nullable=False),
        sa.Column("sync_dropped", sa.Integer(), nullable=False),
        sa.Column("sync_error", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["platform_id"],
            ["lti_platforms.id"],
            name=op.f("fk_lti_contexts_platform_id_lti_platforms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_contexts")),
        sa.UniqueConstraint("platform_id", "context_id", name=op.f("uq_lti_contexts_platform_id")),
    )
    op.create_table(
        "lti_enrolments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("context_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column(
            "state",
            sa.Enum("active", "dropped", name="enrolment_state", native_enum=False, length=16),
            nullable=False,
        ),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["context_id"],
            ["lti_contexts.id"],
            name=op.f("fk_lti_enrolments_context_id_lti_contexts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_lti_enrolments_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lti_enrolments")),
        sa.UniqueConstraint("context_id", "user_id", name=op.f("uq_lti_enrolments_context_id")),
    )
    op.create_index(op.f("ix_lti_enrolments_user_id"), "lti_enrolments", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_lti_enrolments_user_id"), table_name="lti_enrolments")
    op.drop_table("lti_enrolments")
    op.drop_table("lti_contexts")
