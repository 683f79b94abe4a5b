"""Sentences the service says to a reader, in the reader's language: the pages' gettext catalog
(``app/locale/<lang>/LC_MESSAGES/messages.mo``, made by ``make messages``), read here so that
the API's refusals speak it as the pages do.

A sentence is a :class:`Wording`: an English template, which is the catalog's key, with
``{name}`` placeholders, and the values to fill them with. The English sentence is what logs
and ``str()`` show; :meth:`Wording.told_in` gives it in another language where the catalog has
it, and in English where it has not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from babel.messages.mofile import read_mo

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"


def N_(text: str) -> str:
    """Marks a text for extraction (``make messages``); it is translated where it is shown."""
    return text


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """The compiled catalog of ``lang`` (empty for English, whose texts are the keys)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang == "en" or not path.exists():
        return {}
    with path.open("rb") as file:
        return {
            message.id: message.string
            for message in read_mo(file)
            if isinstance(message.id, str)
            and isinstance(message.string, str)
            and message.id
            and message.string
        }


@dataclass(frozen=True)
class Wording:
    """An English template (marked with :func:`N_` where it is written) and its values."""

    template: str
    values: Mapping[str, object] = field(default_factory=dict)

    def told_in(self, lang: str) -> str:
        return catalog(lang).get(self.template, self.template).format(**self.values)

    def __str__(self) -> str:
        return self.told_in("en")
