"""The words of an exercise's own checks in another language (``[checks]`` of
``translation.<lang>.toml``): validate asks for each check's name and each message its
functions return, refuses a translation with other fields, and a reader's result reads them
in their language with the numbers the check filled in."""

from __future__ import annotations

import shutil
from pathlib import Path

from graders.api import load_exercise
from graders.checks.hidden import hidden_message
from graders.checks.properties import CheckFailure, failures_message
from graders.exercises import check_texts, translation_problems, words_in
from graders.results import Failure
from tests.graders.helpers import edit

EXERCISES = Path(__file__).resolve().parents[3] / "exercises"
BASIS = EXERCISES / "orthonormal-basis"
CHECKS = ("orthonormal columns", "spans the columns", "as many columns as the rank")
CASES_SOURCE = """
def positive(inputs, got):
    if got.min() <= 0:
        return f"the smallest value is {got.min():.3g}, at index {int(got.argmin())!r}"
    if got.ndim != 1:
        return "expected a {vector}"
    problem = helper(got)
    return problem


def a_case(rng):
    return {"x": rng.normal(size=3)}
"""


def check_problems(folder: Path) -> list[str]:
    exercise = load_exercise(folder)
    texts = check_texts((folder / "cases.py").read_text(encoding="utf-8"), CHECKS)
    cases = exercise.translations["ja"].cases
    return [p for p in translation_problems(exercise, cases, texts) if "[checks]" in p]


def test_the_texts_are_the_names_and_each_returned_string_as_written() -> None:
    assert check_texts(CASES_SOURCE, ["positive"]) == [
        "positive",
        "the smallest value is {got.min():.3g}, at index {int(got.argmin())!r}",
        "expected a {{vector}}",
    ]


def test_the_exercise_with_property_checks_has_every_text_in_japanese() -> None:
    assert check_problems(BASIS) == []


def test_a_missing_stale_or_misfielded_check_text_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "orthonormal-basis"
    shutil.copytree(BASIS, folder)
    translation = folder / "translation.ja.toml"
    edit(translation, '"spans the columns" = ', '"spans the column" = ')
    edit(translation, "最大 {error:.3g} 違います", "最大 {error} 違います")
    assert check_problems(folder) == [
        "translation.ja.toml: [checks] has no text for check text(s) 'spans the columns'",
        "translation.ja.toml: [checks] names check text(s) that do not exist: "
        "'spans the column' (renamed or removed?)",
        "translation.ja.toml: [checks] 'q.T @ q differs from the identity by up to "
        "{error:.3g}': the translation has the fields ['{error}'], not the English's "
        "['{error:.3g}']",
    ]


def test_a_reader_of_japanese_reads_the_checks_words_with_their_numbers() -> None:
    words = words_in(load_exercise(BASIS), "ja")
    public = failures_message(
        [
            CheckFailure("orthonormal columns", "q.T @ q differs from the identity by up to 0.25"),
            CheckFailure(
                "as many columns as the rank", "3 columns, but the columns of a span 2 dimensions"
            ),
        ]
    )
    assert words.message(public) == (
        "チェック「列が正規直交」：q.T @ q が単位行列と最大 0.25 違います。"
        "チェック「列の数が階数」：列が 3 個ありますが、a の列が張る空間は 2 次元です"
    )
    hidden = hidden_message(Failure.PROPERTY, ["orthonormal columns", "spans the columns"])
    assert words.message(hidden) == (
        "性質：出力がチェック「列が正規直交」と「列を張る」を満たしません"
        "（非公開テストでは詳細を表示しません）"
    )
    # In English, and where a text has no translation, the words stay as the engine wrote them.
    assert words_in(load_exercise(BASIS), "en").message(public) == public
    unknown = failures_message([CheckFailure("spans the columns", "a message of tomorrow")])
    assert words.message(unknown) == "チェック「列を張る」：a message of tomorrow"
