"""The client's own words in Japanese: each template says what its English says (the same
values filled in), the language is chosen, saved or the locale's, and a Japanese message's
lines are named by cell."""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Any

import numjudge_client
import pytest
from numjudge_client import Client, Origin, SentCode, SourceNotFound
from numjudge_client._errors import NotebookFailed, Translatable
from numjudge_client._language import (
    JAPANESE,
    Language,
    choose_language,
    learner_language,
    locale_language,
)
from numjudge_client._notebook import run_notebook

CLIENT_FOLDER = Path(numjudge_client.__file__).parent
# What says a template: ``say``, the client's ``_say``, and the errors said where they are shown.
SAYERS = {"say", "_say", *(error.__name__ for error in Translatable.__subclasses__())}


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("english", sorted(JAPANESE))
def test_each_japanese_template_fills_in_what_its_english_does(english: str) -> None:
    assert fields(JAPANESE[english]) == fields(english)
    assert JAPANESE[english] != english or not any(c.isalpha() for c in english)


def said_templates() -> list[tuple[str, str]]:
    """Each template the client's modules say (a literal first argument), with its file."""
    found = []
    for path in sorted(CLIENT_FOLDER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else None
            name = function.id if isinstance(function, ast.Name) else name
            first = node.args[0]
            if name in SAYERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((path.name, first.value))
    return found


def test_every_template_the_client_says_has_its_japanese() -> None:
    templates = said_templates()
    assert {"_source.py", "_closure.py", "_notebook.py"} <= {file for file, _ in templates}
    assert [(file, english) for file, english in templates if english not in JAPANESE] == []


def test_the_source_finders_refusal_is_said_in_the_clients_language() -> None:
    notebook: dict[str, Any] = {"__name__": "__main__"}
    exec("def helper(x):\n    return x\n", notebook)
    helper = notebook.pop("helper")  # a notebook's function its namespace no longer holds
    client = Client("http://127.0.0.1:9", None, language="ja")
    with client, pytest.raises(SourceNotFound) as refused:
        client.submit("gru-update-gate", helper)  # refused before any request
    assert str(refused.value) == (
        "helper() のソースが見つかりません：ノートブックのセルまたはそのモジュールの最上位で "
        "`def` によって定義されていません。その関数だけのセルで定義して実行するか、コードを"
        "文字列で渡してください。"
    )
    english = refused.value.said_in(Language.EN)
    assert type(english) is SourceNotFound
    assert str(english).startswith("Cannot find the source of helper(): it is not defined")


def test_a_notebook_that_cannot_be_read_is_said_in_japanese(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(NotebookFailed, match=f"^ノートブック {broken} を読めません：") as failed:
        run_notebook(broken, ["update_gate"], (), Language.JA)
    assert str(failed.value.said_in(Language.EN)).startswith(f"Cannot read the notebook {broken}: ")


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
