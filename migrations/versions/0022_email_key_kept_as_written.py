"""users.email_key: an address with a character that is not ASCII but lower-cases to an ASCII
letter (the Kelvin sign, dotted capital I) is kept as written, so it cannot match another
account's ASCII address

Revision ID: 0022_email_key_kept_as_written
Revises: 0021_users_email_key
Create Date: 2026-12-06 06:10:00
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_email_key_kept_as_written"
down_revision: str | None = "0021_users_email_key"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FOLDS_INTO_ASCII = frozenset("\u0130\u212a")
"""The characters outside ASCII whose lower case holds an ASCII letter (Unicode 15: all of
them), as app/core/names.py finds them at run time."""


def keyed(email: str) -> str:
    """app/core/names.py's ``email_key`` as of this revision (a migration keeps doing what it
    did when it was written)."""
    address = email.strip()
    return address if FOLDS_INTO_ASCII & set(address) else address.lower()


USERS = sa.table(
    "users",
    sa.column("id", sa.Integer()),
    sa.column("email", sa.String()),
    sa.column("email_key", sa.Text()),
)


def rekey(key_of: Callable[[str], str]) -> None:
    """Store ``key_of(email)`` as each address's key where it differs from the stored one."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(USERS.c.id, USERS.c.email, USERS.c.email_key).where(USERS.c.email.is_not(None))
    )
    for user_id, email, key in rows.all():
        if key_of(email) != key:
            connection.execute(
                sa.update(USERS).where(USERS.c.id == user_id).values(email_key=key_of(email))
            )


def upgrade() -> None:
    rekey(keyed)


def downgrade() -> None:
    """The keys of 0021 again: the address in lower case."""
    rekey(lambda email: email.strip().lower())
