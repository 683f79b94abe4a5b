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
English. A placeholder whose name starts with ``author`` stands for an exercise author's words
(a check's name, what a check says: ``check '{author_check}': {author_message}``): translated in
turn by that exercise's own texts (its ``translation.<lang>.toml``'s ``[checks]``, given as
``own``; :func:`author_templates`) and the catalog; a check's name no text translates counts
as known all the same (``numjudge validate`` answers for each exercise's own words). Matching a
message against its template reads it back: so results stored before a translation existed are
read in it too. The templates are tried most specific (the most fixed text) first.

A message the catalog does not know stays English (``translate_message`` never fails);
``tests/graders/test_messages.py`` makes the engine write each kind of message and checks
that the catalog knows it.
"""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MAX_CHARS = 2000
PART = "part"
AUTHOR = "author"
AUTHOR_NAMES = frozenset({"author_check"})
CLAUSE = "part_clause"
"""A part that is one clause of a list (``4 is the length of axis 0 of w``): like a value, it
holds no ``; ``."""
FREE_VALUES = frozenset({"message", "warnings", "reason", "names", "author_message", "author_hint"})
"""Values that are text from elsewhere (numpy's, Python's, an author's), which may say anything."""
TYPED_VALUES = {
    "author_check": re.compile(r"\w[\w ]*"),
    "axis": re.compile(r"-?\d+"),
    "array": re.compile(r"[\w.]+(\[[^\[\]]*\])*"),
    "shape": re.compile(r"\([\d, ]*\)"),
}
"""Values of one form: an axis is a number, an array an input's name (``xs``, ``params['W']``),
a shape a tuple, a check's name its function's name (graders.cases.check_name). A list of them
(``axis 1 of x_t, axis 0 of h_prev``) so reads as its clauses, each translated, never as one
clause whose value swallows the rest in English."""
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


def replacement_fields(text: str) -> list[str]:
    """The replacement fields of ``text`` written as an f-string's are (``{error:.3g}``,
    ``{got.shape[1]}``), each as written; raises ValueError on unbalanced braces."""
    return [
        _written(field, spec, conversion)
        for _, field, spec, conversion in string.Formatter().parse(text)
        if field is not None
    ]


def _written(field: str, spec: str | None, conversion: str | None) -> str:
    return (
        "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
    )


def author_templates(texts: Mapping[str, str]) -> tuple[Template, ...]:
    """An exercise author's texts in another language (English as the f-string in cases.py
    writes it -> its translation with the same replacement fields) as templates: each field a
    value copied into the translation as it is (a number keeps its digits). A text whose
    translation has other fields, or braces that do not pair, is left out (stays English):
    ``numjudge validate`` refuses it (:func:`field_problem`)."""
    templates = []
    for english, translation in texts.items():
        if field_problem(english, translation):
            continue
        names = {field: f"value{index}" for index, field in enumerate(replacement_fields(english))}
        templates.append(
            Template.of(_as_template(english, names), _as_template(translation, names))
        )
    return tuple(templates)


def field_problem(english: str, translation: str) -> str | None:
    """Why ``translation`` cannot stand for ``english``: braces that do not pair, or other
    replacement fields than the English's; None when it can."""
    try:
        wanted, given = replacement_fields(english), replacement_fields(translation)
    except ValueError as exc:
        return f"its braces do not pair ({exc}); write a brace as {{{{ or }}}}"
    if sorted(wanted) != sorted(given):
        return f"the translation has the fields {given}, not the English's {wanted}"
    return None


def _as_template(text: str, names: Mapping[str, str]) -> str:
    pieces = []
    for literal, field, spec, conversion in string.Formatter().parse(text):
        pieces.append(literal)
        if field is not None:
            pieces.append("{" + names[_written(field, spec, conversion)] + "}")
    return "".join(pieces)


@lru_cache(maxsize=64)
def _templates(lang: str, own: tuple[Template, ...]) -> tuple[Template, ...]:
    """The catalog of ``lang`` with an exercise's own texts, most specific first."""
    if not own:
        return catalog(lang)
    return tuple(sorted((*catalog(lang), *own), key=lambda template: -template.fixed))


def translate_message(text: str, lang: str, own: tuple[Template, ...] = ()) -> str:
    """``text``, a message the engine wrote, in ``lang``; as it is where the catalog of
    ``lang`` does not know it, or where it is longer than any message the engine writes of its
    own (an exception's long text in it: reading it back would cost more than it gives).
    ``own``: the exercise's own texts in ``lang`` (:func:`author_templates`), for the words of
    its author a message quotes."""
    if len(text) > MAX_CHARS:
        return text
    return _translate(text, lang, own)[0]


def is_known(text: str, lang: str, own: tuple[Template, ...] = ()) -> bool:
    """Whether the catalog of ``lang`` translates every piece of ``text`` (an author's words
    aside: the exercise's translation answers for them)."""
    return len(text) <= MAX_CHARS and _translate(text, lang, own)[1]


@lru_cache(maxsize=65536)  # a piece is read once, however many readings contain it
def _translate(text: str, lang: str, own: tuple[Template, ...]) -> tuple[str, bool]:
    if not text:
        return text, True
    partial: str | None = None
    for template in _templates(lang, own):
        for reading in template.readings(text):
            values: dict[str, str] = {}
            complete = True
            for name, value in reading.items():
                if name.startswith(AUTHOR):
                    values[name], known = _translate_author(value, own)
                elif name.startswith(PART):
                    values[name], known = _translate(value, lang, own)
                else:
                    values[name], known = value, True
                # A check's name is a name where its exercise gives no translation.
                complete = complete and (known or name in AUTHOR_NAMES)
            translated = _fill(template.translation, values)
            if complete:
                return translated, True
            # Another reading, or another template, may know every piece.
            partial = partial if partial is not None else translated
    if partial is not None:
        return partial, False
    # A piece no template reads, but a name, a number or a dtype: the same in every language.
    return text, CODE.fullmatch(text) is not None


def _translate_author(text: str, own: tuple[Template, ...]) -> tuple[str, bool]:
    """An author's words in the reader's language: by the exercise's own texts alone, whole;
    as written where none reads them (the catalog's pieces would mangle them: a shape in the
    author's prose, a "; " between the author's clauses)."""
    for template in sorted(own, key=lambda template: -template.fixed):
        for reading in template.readings(text):
            return _fill(template.translation, dict(reading)), True
    return text, False


def _fill(translation: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda placeholder: values[placeholder.group(1)], translation)
