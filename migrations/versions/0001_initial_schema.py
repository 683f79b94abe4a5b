"""initial schema: users, api_tokens, submissions

Revision ID: 0001
Revises:
Create Date: 2026-11-29 20:00:07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, length=16)


def _timestamp(name: str, *, nullable: bool) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("role", _enum("role", "learner", "instructor"), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        _timestamp("created_at", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name", name=op.f("uq_users_name")),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        _timestamp("created_at", nullable=False),
        _timestamp("last_used_at", nullable=True),
        _timestamp("revoked_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_api_tokens_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_tokens_token_hash")),
    )
    op.create_index(op.f("ix_api_tokens_user_id"), "api_tokens", ["user_id"])
    op.create_table(
        "submissions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.String(length=100), nullable=False),
        sa.Column("exercise_version", sa.String(length=64), nullable=False),
        sa.Column("kind", _enum("submission_kind", "submit", "run"), nullable=False),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column(
            "status", _enum("submission_status", "queued", "running", "done"), nullable=False
        ),
        sa.Column(
            "verdict",
            _enum("verdict", "passed", "failed", "error", "timeout", "memory_limit"),
            nullable=True,
        ),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("max_score", sa.Float(), nullable=True),
        sa.Column("tests", sa.JSON(), nullable=True),
        sa.Column("output", sa.Text(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(length=128), nullable=True),
        sa.Column("lease_token", sa.String(length=32), nullable=True),
        _timestamp("lease_expires_at", nullable=True),
        _timestamp("created_at", nullable=False),
        _timestamp("started_at", nullable=True),
        _timestamp("finished_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_submissions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_submissions")),
    )
    op.create_index("ix_submissions_exercise_created", "submissions", ["exercise_id", "created_at"])
    op.create_index("ix_submissions_status_lease", "submissions", ["status", "lease_expires_at"])
    op.create_index(
        "ix_submissions_user_exercise_created",
        "submissions",
        ["user_id", "exercise_id", "created_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_submissions_user_exercise_created", table_name="submissions")
    op.drop_index("ix_submissions_status_lease", table_name="submissions")
    op.drop_index("ix_submissions_exercise_created", table_name="submissions")
    op.drop_table("submissions")
    op.drop_index(op.f("ix_api_tokens_user_id"), table_name="api_tokens")
    op.drop_table("api_tokens")
    op.drop_table("users")
