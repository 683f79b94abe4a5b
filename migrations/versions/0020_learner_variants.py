"""learner_variants and submissions.variant: each learner's seed of an exercise's variant, and
the numbers each submission was graded with (kept for its regrades)

Revision ID: 0020_learner_variants
Revises: 0019_users_enrolment
Create Date: 2026-12-05 16:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_learner_variants"
down_revision: str | None = "0019_users_enrolment"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "learner_variants",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("exercise_id", sa.String(length=100), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_learner_variants_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "exercise_id", name=op.f("pk_learner_variants")),
    )
    # Submissions made before it were graded with no variant: None, the default one.
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("variant", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("variant")
    op.drop_table("learner_variants")
