"""The client's own words in Japanese: each template says what its English says (the same
values filled in), the language is chosen, saved or the locale's, and a Japanese message's
lines are named by cell."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from numjudge_client import Origin, SentCode
from numjudge_client._language import (
    JAPANESE,
    Language,
    choose_language,
    learner_language,
    locale_language,
)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("english", sorted(JAPANESE))
def test_each_japanese_template_fills_in_what_its_english_does(english: str) -> None:
    assert fields(JAPANESE[english]) == fields(english)
    assert JAPANESE[english] != english or not any(c.isalpha() for c in english)


def test_the_language_is_the_chosen_else_the_saved_else_the_locales(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(tmp_path))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert locale_language() is Language.JA and learner_language() is Language.JA
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")  # gettext's order: LC_ALL before LANG
    assert learner_language() is Language.EN
    assert choose_language("ja").startswith("言語：ja（")
    assert learner_language() is Language.JA  # saved wins over the locale
    assert learner_language("en") is Language.EN  # chosen wins over saved
    with pytest.raises(ValueError, match="use en or ja"):
        choose_language("fr")


def test_a_japanese_message_names_the_cell_and_its_line() -> None:
    sent = SentCode("".join(f"x{i} = {i}\n" for i in range(10)), (Origin(3, 6, "In [5]", 1),))
    assert sent.locate("4 行目で ValueError が発生しました：not yet: 2") == (
        "In [5] の 2 行目で ValueError が発生しました：not yet: 2"
    )
    assert sent.locate("raised ValueError on line 4") == "raised ValueError on line 2 of In [5]"
    assert sent.locate("9 行目：Python のループ（for）") == "9 行目：Python のループ（for）"
