"""A learner's variant in a statement's text: ``{{ variant.alpha }}`` becomes their number.

The numbers are drawn by the exercise's ``@variant`` (graders/cases.py); a page shows a
learner's, ``numjudge validate`` and a grading with no learner the default ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

PLACEHOLDER = re.compile(r"\{\{\s*variant\.(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
BRACES = re.compile(r"\{\{.*?\}\}", re.DOTALL)
"""Anything a reader would take for a placeholder: what is not one reaches learners as written."""


def shown_number(value: float) -> str:
    """How a statement prints a variant's number: an integer as one, a float as Python does
    (``0.75``, ``4.0``, ``1e-05``): every digit the cases use, no noise."""
    return str(value) if isinstance(value, int) else repr(float(value))


def fill_variant(text: str, variant: Mapping[str, float]) -> str:
    """``text`` with each ``{{ variant.<name> }}`` replaced by the variant's number; a name the
    variant lacks is left as written (validate names it: ``unknown_placeholders``)."""

    def number(match: re.Match[str]) -> str:
        name = match.group("name")
        return shown_number(variant[name]) if name in variant else match.group(0)

    return PLACEHOLDER.sub(number, text)


def unknown_placeholders(text: str, variant: Mapping[str, float]) -> list[str]:
    """Each ``{{ ... }}`` of ``text``, as written, that is not a placeholder of a number
    ``variant`` (the default) has: a malformed one (``{{ variant.p-max }}``) or an unknown
    name. A page would show it verbatim."""
    found = []
    for written in BRACES.findall(text):
        match = PLACEHOLDER.fullmatch(written)
        if match is None or match.group("name") not in variant:
            found.append(written)
    return sorted(set(found))
