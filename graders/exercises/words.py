"""An exercise's words in a reader's language, and what its translation files miss.

``numjudge validate`` refuses an exercise whose statement has a language its translation file
does not cover (a missing title, source, hint, test name, tag, check's name or check's message
(:func:`check_texts`), or starter), whose starter in
a language is other code than ``starter.py``, or whose file names a mistake, test or tag that
does not exist (graders/authoring/texts.py: ``check_translations``). A reader's page turns a
report's English words into their language through ``words_in`` (a word with no translation
stays English).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from graders import syntax
from graders.exercises.model import Exercise
from graders.exercises.translations import translation_file
from graders.messages import Template, author_templates, field_problem, translate_message


def check_texts(cases_source: str, check_names: Iterable[str]) -> list[str]:
    """The author's words of an exercise's checks a learner may read: each check's name, and
    each message a function of ``cases.py`` returns, a string or an f-string written in its
    ``return`` (as written: ``{error:.3g}`` stays a field, filled in when the check runs)."""
    texts = dict.fromkeys(check_names)
    for node in ast.walk(syntax.parse(cases_source, filename="cases.py")):
        if isinstance(node, ast.Return) and node.value is not None:
            written = _written_string(cases_source, node.value)
            if written:
                texts[written] = None
    return list(texts)


def _written_string(source: str, node: ast.expr) -> str | None:
    """A string or an f-string as its author wrote it between the quotes; None for another
    expression."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if not isinstance(node, ast.JoinedStr):
        return None
    pieces = []
    for value in node.values:
        if isinstance(value, ast.FormattedValue):
            expression = ast.get_source_segment(source, value.value) or ast.unparse(value.value)
            conversion = f"!{chr(value.conversion)}" if value.conversion != -1 else ""
            spec = value.format_spec and _written_string(source, value.format_spec)
            pieces.append("{" + expression + conversion + (f":{spec}" if spec else "") + "}")
        else:
            pieces.append(_written_string(source, value) or "")
    return "".join(pieces)


def translation_problems(
    exercise: Exercise, case_names: Iterable[str], checks: Iterable[str] = ()
) -> list[str]:
    """What keeps the exercise from speaking each language of its statement: a missing
    translation file, title, hint, test name or text of a check (``checks``:
    :func:`check_texts`), a check's translation with other fields than its English, or a stale
    key (a mistake or test that is gone, a file for a language the statement does not
    have)."""
    cases = list(case_names)
    check_words = list(checks)
    mistakes = [mistake.name for mistake in exercise.mistakes]
    problems = []
    for lang in exercise.languages:
        if lang != "en" and lang not in exercise.translations:
            problems.append(
                f"{translation_file(lang)}: missing; statement.{lang}.md gives the exercise "
                f"this language, so its title, hints and test names need it too"
            )
    for lang, translation in sorted(exercise.translations.items()):
        name = translation_file(lang)
        if lang not in exercise.statements:
            problems.append(f"{name}: there is no statement.{lang}.md; remove it or add one")
            continue
        if not translation.title:
            problems.append(f"{name}: 'title' is missing; write the exercise's title")
        if exercise.source and not translation.source:
            problems.append(f"{name}: 'source' is missing; exercise.toml names one")
        problems += _key_problems(name, "hints", "mistake", mistakes, translation.hints)
        problems += _key_problems(name, "cases", "test", cases, translation.cases)
        problems += _key_problems(name, "tags", "tag", list(exercise.tags), translation.tags)
        problems += _key_problems(name, "checks", "check text", check_words, translation.checks)
        problems += [
            f"{name}: [checks] {english!r}: {problem}"
            for english, text in translation.checks.items()
            if (problem := field_problem(english, text))
        ]
    return problems + _starter_problems(exercise)


def _starter_problems(exercise: Exercise) -> list[str]:
    """A starter in each language of the statement, each the English starter's code with
    only its comments and docstrings in that language."""
    problems = [
        f"starter.{lang}.py: missing; statement.{lang}.md gives the exercise this language, "
        "so the starter's comments and docstrings need it too"
        for lang in exercise.languages
        if lang != "en" and lang not in exercise.starters
    ]
    english = _code_alone(exercise.starter, "starter.py")
    for lang, starter in sorted(exercise.starters.items()):
        name = f"starter.{lang}.py"
        if lang not in exercise.statements:
            problems.append(f"{name}: there is no statement.{lang}.md; remove it or add one")
        elif english is not None and _code_alone(starter, name) != english:
            problems.append(
                f"{name}: not the code of starter.py; only comments and docstrings may differ"
            )
    return problems


def _code_alone(source: str, name: str) -> str | None:
    """The code of ``source`` without its comments and docstrings (the syntax tree's dump);
    None when it does not parse (the starter check reports that)."""
    try:
        tree = syntax.parse(source, filename=name)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _key_problems(
    name: str, section: str, what: str, wanted: list[str], texts: Mapping[str, str]
) -> list[str]:
    missing = [key for key in wanted if not texts.get(key)]
    stale = sorted(set(texts) - set(wanted))
    problems = []
    if missing:
        problems.append(
            f"{name}: [{section}] has no text for {what}(s) {', '.join(map(repr, missing))}"
        )
    if stale:
        problems.append(
            f"{name}: [{section}] names {what}(s) that do not exist: "
            f"{', '.join(map(repr, stale))} (renamed or removed?)"
        )
    return problems


@dataclass(frozen=True)
class ExerciseWords:
    """The English words a report of the exercise carries, in one reader's language."""

    title: str
    cases: Mapping[str, str] = field(default_factory=dict)
    hints: Mapping[str, str] = field(default_factory=dict)
    """A hint's English text -> its translation."""
    source: str | None = None
    tags: tuple[str, ...] = ()
    lang: str = "en"
    checks: tuple[Template, ...] = ()
    """The exercise's own words its checks say (``[checks]``), as the engine's messages read
    them."""

    def case(self, name: str) -> str:
        return self.cases.get(name, name)

    def message(self, text: str) -> str:
        """A message the engine wrote in this language, the checks' words in it too."""
        return translate_message(text, self.lang, self.checks)

    def hint(self, text: str) -> str:
        return self.hints.get(text, text)


def words_in(exercise: Exercise, lang: str) -> ExerciseWords:
    """The exercise's title, test names and hints in ``lang``; English (as reports carry
    them) where it has no translation, so a hint rewritten since a report stays readable."""
    translation = exercise.translations.get(lang)
    if translation is None:
        return ExerciseWords(exercise.title, source=exercise.source, tags=exercise.tags, lang=lang)
    return ExerciseWords(
        lang=lang,
        checks=author_templates(translation.checks),
        title=translation.title or exercise.title,
        source=translation.source or exercise.source,
        tags=tuple(translation.tags.get(tag, tag) for tag in exercise.tags),
        cases=dict(translation.cases),
        hints={
            mistake.hint: translation.hints[mistake.name]
            for mistake in exercise.mistakes
            if translation.hints.get(mistake.name)
        },
    )
