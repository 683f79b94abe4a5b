"""One rule for user names and passwords, used by the web pages and the CLI alike.

A name is compared after NFKC normalisation (so ``ａｄｍｉｎ`` is ``admin``) and case folding
(``Alice`` is ``alice``): ``name_key`` is what the database keeps unique. New names must be
2–32 characters of ASCII letters, digits, ``.``, ``-`` and ``_`` starting with a letter or digit.
An e-mail address is compared in lower case (``email_key``), folded in Python rather than by
the database: SQLite's ``lower()`` folds ASCII letters only, so ``Éva@`` and ``éva@`` were two.
"""

from __future__ import annotations

import re
import unicodedata
from enum import Enum

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,31}")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024


class InvalidName(ValueError):
    """The name breaks the rule; the message says how."""


class PasswordProblem(Enum):
    TOO_SHORT = f"a password has at least {MIN_PASSWORD} characters"
    TOO_LONG = f"a password has at most {MAX_PASSWORD} characters"
    BLANK = "a password is not only spaces"


class InvalidPassword(ValueError):
    """The password breaks the rule: ``problem`` says how."""

    def __init__(self, problem: PasswordProblem) -> None:
        super().__init__(problem.value)
        self.problem = problem


def normalise_name(raw: str) -> str:
    """The name as it will be stored and shown (NFKC, outer whitespace removed)."""
    return unicodedata.normalize("NFKC", raw).strip()


def name_key(raw: str) -> str:
    """What two names must not share: NFKC, case-folded, NFKC again (Unicode's NFKC_Casefold)."""
    return unicodedata.normalize("NFKC", normalise_name(raw).casefold())


def email_key(raw: str) -> str:
    """What two writings of one e-mail address share: outer whitespace removed, lower case (an
    LMS and a roster may write it in other cases). No wider folding: an address that matches
    links an LMS user to a roster's account, so ``straße@`` is not ``strasse@`` and a
    full-width ``ｅｖａ@`` is not ``eva@`` (two mailboxes, perhaps two people). For the same
    reason an address with a character whose lower case is an ASCII letter, though it is not
    one (the Kelvin sign ``K``, ``İ``), is kept as written: ``Kate@`` is not ``kate@``."""
    address = raw.strip()
    if any(not char.isascii() and _has_ascii(char.lower()) for char in address):
        return address
    return address.lower()


def _has_ascii(text: str) -> bool:
    return any(char.isascii() for char in text)


def check_new_name(raw: str) -> str:
    """The normalised name if a new account may take it, else ``InvalidName``."""
    name = normalise_name(raw)
    if not NAME_PATTERN.fullmatch(name):
        raise InvalidName(
            "a name has 2–32 letters, digits, dots, dashes or underscores "
            "(ASCII), starting with a letter or digit"
        )
    return name


def check_password(password: str) -> str:
    """``password`` if it may be set, else ``InvalidPassword``."""
    if len(password) < MIN_PASSWORD:
        raise InvalidPassword(PasswordProblem.TOO_SHORT)
    if len(password) > MAX_PASSWORD:
        raise InvalidPassword(PasswordProblem.TOO_LONG)
    if not password.strip():
        raise InvalidPassword(PasswordProblem.BLANK)
    return password
