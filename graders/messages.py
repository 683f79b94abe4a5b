"""The engine's messages in other languages: ``translate_message(text, lang)``.

The engine writes its messages in English: a report, a stored result and an old client read
them as they always did. A reader of another language reads them through this catalog,
``graders/locale/messages.<lang>.toml``, which pairs each English template with its
translation::

    [[message]]
    en = "shape: expected {expected}, got {got}{part_why}"
    ja = "形状：{expected} のはずが {got} でした{part_why}"

A ``{name}`` stands for a value the engine fills in (a shape, a number, a name from the code),
copied into the translation as it is. A placeholder whose name starts with ``part`` stands for
a piece that is itself a message of the catalog (the reason after a shape, the note of the
warnings after a message), translated in turn; a piece the catalog does not know stays
English. Matching a message against its template reads it back: so results stored before a
translation existed are read in it too. The templates are tried most specific (the most fixed
text) first.

A message the catalog does not know stays English (``translate_message`` never fails);
``tests/graders/test_messages.py`` makes the engine write each kind of message and checks
that the catalog knows it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MAX_CHARS = 2000
PART = "part"
CLAUSE = "part_clause"
"""A part that is one clause of a list (``4 is the length of axis 0 of w``): like a value, it
holds no ``; ``."""
FREE_VALUES = frozenset({"message", "warnings", "reason", "names"})
"""Values that are text from elsewhere (numpy's, Python's), which may say anything."""
TYPED_VALUES = {
    "axis": re.compile(r"-?\d+"),
    "array": re.compile(r"[\w.]+(\[[^\[\]]*\])*"),
    "shape": re.compile(r"\([\d, ]*\)"),
}
"""Values of one form: an axis is a number, an array an input's name (``xs``, ``params['W']``),
a shape a tuple. A list of them (``axis 1 of x_t, axis 0 of h_prev``) so reads as its clauses,
each translated, never as one clause whose value swallows the rest in English."""
# A piece no template reads that is the same in every language: a number, a shape, a name from
# the code (with a digit, an underscore or a dot), a Python or numpy type, NaN and Inf.
CODE = re.compile(
    r"[\w.]*[\d_.][\w.]*|\(?[\d, ]*\)?|None|list|tuple|dict|set|int|float|str|bool|complex"
    r"|NaN|Inf"
)


@dataclass(frozen=True)
class Template:
    english: str
    translation: str
    literals: tuple[str, ...]
    """The English template's fixed text around its placeholders (one more than them)."""
    names: tuple[str, ...]

    @property
    def fixed(self) -> int:
        """How much fixed text the template has: the more, the more specific."""
        return sum(map(len, self.literals))

    @classmethod
    def of(cls, english: str, translation: str) -> Template:
        return cls(
            english,
            translation,
            tuple(PLACEHOLDER.split(english)[::2]),
            tuple(PLACEHOLDER.findall(english)),
        )

    def readings(self, text: str) -> Iterator[dict[str, str]]:
        """Every way ``text`` reads as this template: its placeholders' values."""
        if not (text.startswith(self.literals[0]) and text.endswith(self.literals[-1])):
            return
        if self.names and len(text) < len(self.literals[0]) + len(self.literals[-1]):
            return
        yield from self._read(text, len(self.literals[0]), 0, {})

    def _read(
        self, text: str, position: int, index: int, values: dict[str, str]
    ) -> Iterator[dict[str, str]]:
        if index == len(self.names):
            if position == len(text):
                yield values
            return
        name, after = self.names[index], self.literals[index + 1]
        last = index == len(self.names) - 1
        # A part may be empty (no reason given); a value never is.
        start = position if name.startswith(PART) else position + 1
        ends: Iterable[int]
        if last:
            ends = [len(text) - len(after)] if len(text) - len(after) >= start else []
        elif after:
            ends = _occurrences(text, after, start)
        else:
            ends = range(start, len(text) + 1)
        for end in ends:
            value = text[position:end]
            if (name.startswith(PART) and not name.startswith(CLAUSE)) or _plain_value(name, value):
                yield from self._read(text, end + len(after), index + 1, {**values, name: value})


def _plain_value(name: str, value: str) -> bool:
    """Whether ``value`` can be what the engine fills in for ``name``: of its form where the
    name has one (``TYPED_VALUES``), else one clause (no ``; `` or ``: ``, but in the texts
    that come from elsewhere: an exception's message, warnings) that closes every bracket it
    opens. So a value never swallows the text around it."""
    if name in TYPED_VALUES:
        return TYPED_VALUES[name].fullmatch(value) is not None
    if name not in FREE_VALUES and ("; " in value or ": " in value):
        return False
    return _balanced(value)


def _balanced(value: str) -> bool:
    depth = 0
    for char in value:
        depth += (char in "([") - (char in ")]")
        if depth < 0:
            return False
    return depth == 0


def _occurrences(text: str, literal: str, start: int) -> Iterator[int]:
    found = text.find(literal, start)
    while found != -1:
        yield found
        found = text.find(literal, found + 1)


@cache
def catalog(lang: str) -> tuple[Template, ...]:
    """The templates of ``lang``, most specific first; none for a language without a file."""
    file = LOCALE_DIR / f"messages.{lang}.toml"
    if not file.is_file():
        return ()
    entries = tomllib.loads(file.read_text(encoding="utf-8"))["message"]
    templates = [Template.of(entry["en"], entry[lang]) for entry in entries]
    return tuple(sorted(templates, key=lambda template: -template.fixed))


def translate_message(text: str, lang: str) -> str:
    """``text``, a message the engine wrote, in ``lang``; as it is where the catalog of
    ``lang`` does not know it, or where it is longer than any message the engine writes of its
    own (an exception's long text in it: reading it back would cost more than it gives)."""
    if len(text) > MAX_CHARS:
        return text
    return _translate(text, lang)[0]


def is_known(text: str, lang: str) -> bool:
    """Whether the catalog of ``lang`` translates every piece of ``text``."""
    return len(text) <= MAX_CHARS and _translate(text, lang)[1]


@lru_cache(maxsize=65536)  # a piece is read once, however many readings contain it
def _translate(text: str, lang: str) -> tuple[str, bool]:
    if not text:
        return text, True
    partial: str | None = None
    for template in catalog(lang):
        for reading in template.readings(text):
            values: dict[str, str] = {}
            complete = True
            for name, value in reading.items():
                if name.startswith(PART):
                    values[name], known = _translate(value, lang)
                    complete = complete and known
                else:
                    values[name] = value
            translated = _fill(template.translation, values)
            if complete:
                return translated, True
            # Another reading, or another template, may know every piece.
            partial = partial if partial is not None else translated
    if partial is not None:
        return partial, False
    # A piece no template reads, but a name, a number or a dtype: the same in every language.
    return text, CODE.fullmatch(text) is not None


def _fill(translation: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda placeholder: values[placeholder.group(1)], translation)
