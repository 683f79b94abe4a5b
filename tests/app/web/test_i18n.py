"""The pages in English and Japanese: the catalog is complete, and readers get their language."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from app.models import SubmissionKind, SubmissionStatus
from app.services.standings.rules import AssignmentState
from app.web import i18n
from graders.exercises import ExerciseCatalog
from graders.results import Status, Verdict, Visibility
from tests.app.conftest import read_exercise_file
from tests.app.web.helpers import csrf_of, sign_up
from tests.app.web.test_pages import submit

APP = Path(__file__).resolve().parents[3] / "app"
TEMPLATE_TEXT = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")


def template_texts() -> set[str]:
    texts = set()
    for template in (APP / "templates").rglob("*.html"):
        for double, single in TEMPLATE_TEXT.findall(template.read_text()):
            texts.add((double or single).replace('\\"', '"').replace("\\'", "'"))
    return texts


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_text_the_templates_write_has_a_japanese_translation() -> None:
    texts = template_texts()
    assert len(texts) > 100
    assert sorted(texts - i18n.JAPANESE.keys()) == []


def test_every_translation_is_used_and_keeps_its_placeholders() -> None:
    # Python's strings as the parser joins them (a long text is written over several lines).
    python_texts = {
        node.value
        for folder in ("web", "services")
        for path in (APP / folder).rglob("*.py")
        if path.name != "i18n.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    sources = "\n".join(
        [
            *(
                path.read_text()
                for folder in ("templates", "static/js")
                for path in (APP / folder).rglob("*")
                if path.suffix in {".html", ".js"}
            ),
            *python_texts,
        ]
    )
    unused = [
        text
        for text in i18n.JAPANESE.keys() - i18n.JAPANESE_DATA_WORDS.keys()
        if text not in sources and json.dumps(text, ensure_ascii=False)[1:-1] not in sources
    ]
    assert unused == []
    assert [
        text for text, ja in i18n.JAPANESE.items() if placeholders(text) != placeholders(ja)
    ] == []


def test_every_word_stored_in_data_has_a_translation() -> None:
    catalog = ExerciseCatalog(Path(__file__).resolve().parents[3] / "exercises")
    words = {exercise.difficulty for exercise in catalog.all()}
    for values in (Verdict, Status, SubmissionStatus, SubmissionKind, AssignmentState, Visibility):
        words |= {member.value for member in values}
    assert words == i18n.JAPANESE_DATA_WORDS.keys()


def test_the_script_gets_the_translations_of_its_own_texts() -> None:
    script = (APP / "static" / "js" / "exercise.js").read_text()
    missing = [
        text for text in i18n.SCRIPT_MESSAGES if json.dumps(text, ensure_ascii=False) not in script
    ]
    assert missing == []
    assert set(i18n.script_messages("ja")) == {*i18n.SCRIPT_MESSAGES, *i18n.JAPANESE_DATA_WORDS}
    assert i18n.script_messages("en") == {}


def test_values_are_escaped_but_the_catalogs_markup_is_kept() -> None:
    say = i18n.translator("ja")
    assert say("Signed in as <strong>{name}</strong>", name="<b>x</b>") == (
        "<strong>&lt;b&gt;x&lt;/b&gt;</strong> でサインイン中"
    )
    assert i18n.translator("en")("<i>not ours</i>") == "&lt;i&gt;not ours&lt;/i&gt;"


@pytest.mark.parametrize(
    ("headers", "lang", "word"),
    [
        ({}, "en", "Exercises"),
        ({"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"}, "ja", "演習"),
        ({"Accept-Language": "fr-FR,ja;q=0.5"}, "ja", "演習"),
        ({"Accept-Language": "fr-FR"}, "en", "Exercises"),
    ],
)
def test_the_browsers_language_is_the_default(
    client: TestClient, headers: dict[str, str], lang: str, word: str
) -> None:
    page = client.get("/", headers=headers).text
    assert f'<html lang="{lang}">' in page
    assert f">{word}</h1>" in page


def test_the_language_switch_remembers_the_choice(client: TestClient) -> None:
    switched = client.get("/language/ja?next=/login", follow_redirects=False)
    assert switched.status_code == 303
    assert switched.headers["location"] == "/login"
    assert client.cookies[i18n.LANG_COOKIE] == "ja"
    login = client.get("/login").text
    assert ">サインイン</h1>" in login
    failed = client.post(
        "/login",
        data={"csrf_token": csrf_of(login), "username": "nobody", "password": "not it at all"},
    )
    assert "ユーザー名またはパスワードが違います。" in failed.text
    back = client.get("/language/en?next=//evil.example/x", follow_redirects=False)
    assert back.headers["location"] == "/"
    assert ">Sign in</h1>" in client.get("/login").text
    assert client.get("/language/xx", follow_redirects=False).status_code == 303
    assert client.cookies[i18n.LANG_COOKIE] == "en"


def test_the_exercise_page_speaks_the_statements_language(client: TestClient) -> None:
    sign_up(client, "hanako")
    page = client.get("/learn/gru-update-gate?lang=ja").text
    assert '<html lang="ja">' in page
    assert ">提出</button>" in page and ">公開テストを実行</button>" in page
    config_tag = re.search(r'id="exercise-config">(.*?)</script>', page, re.S)
    assert config_tag, "no exercise-config on the page"
    config = json.loads(config_tag.group(1))
    assert config["messages"]["Grading your submission…"] == "提出を採点しています…"
    english = client.get("/learn/gru-update-gate?lang=en").text
    assert ">Submit</button>" in english and '<html lang="en">' in english


def test_the_exercise_page_lists_its_rules_in_the_readers_language(client: TestClient) -> None:
    sign_up(client, "jiro")
    rules = "<code>numpy.vectorize</code>{comma}<code>numpy.apply_along_axis</code>"
    japanese = client.get("/learn/gru-candidate-state?lang=ja").text
    assert (
        "コードで使えないもの（使うとすべてのテストが不合格になります）：\n      Python のループ"
        "（for、while、内包表記、map、filter、reduce、np.vectorize、np.frompyfunc、再帰）、"
        + rules.format(comma="、")
    ) in japanese
    english = client.get("/learn/gru-candidate-state?lang=en").text
    assert (
        "Not allowed in your code (every test fails if it uses them):\n      Python loops "
        "(for, while, comprehensions, map, filter, reduce, np.vectorize, np.frompyfunc, "
        "recursion), " + rules.format(comma=", ")
    ) in english
    assert 'id="rules"' not in client.get("/learn/gru-update-gate").text


def test_a_japanese_reader_reads_the_hint_test_names_and_titles_in_japanese(
    client: TestClient,
) -> None:
    sign_up(client, "sakura")
    client.get("/language/ja", follow_redirects=False)
    mistake = read_exercise_file("gru-update-gate", "mistakes/one_minus_z.py")
    result = submit(client, mistake)
    hint = "あなたのゲートと期待されるゲートは、どの要素でも足すと 1 になります。"
    diagnosis = result["diagnosis"]
    assert isinstance(diagnosis, dict) and diagnosis["hint"].startswith(hint)
    tests = result["tests"]
    assert isinstance(tests, list)
    example = next(t for t in tests if t["name"] == "numerical example")
    assert example["title"] == "数値例"
    # The engine's message in Japanese, its numbers as they were.
    assert example["message"].startswith("値：3 個中 3 個の要素（100.0%）が許容誤差")
    page = client.get(f"/history/{result['id']}").text
    assert hint in page and "<td>数値例</td>" in page and "(該当するテスト: 数値例" in page
    assert example["message"] in page and "outside tolerance" not in page
    assert "GRU の更新ゲート" in page
    shown = re.search(r'<div class="hint diagnosis">(.*?)</div></div>', page, re.S)
    assert shown and hint in shown[1] and "add up to 1" not in shown[1]
    assert "<td>numerical example</td>" not in page
    catalog = client.get("/").text
    assert ">GRU の更新ゲート</a></h3>" in catalog and ">GRU update gate</a>" not in catalog
    assert ">GRU の更新ゲート</option>" in client.get("/history").text
    client.get("/language/en", follow_redirects=False)
    english = client.get(f"/history/{result['id']}").text
    shown = re.search(r'<div class="hint diagnosis">(.*?)</div></div>', english, re.S)
    assert shown and "add up to 1" in shown[1] and "<td>numerical example</td>" in english
    assert "values: 3 of 3 elements (100.0%) outside tolerance" in english
    assert ">GRU update gate</a></h3>" in client.get("/").text


def test_an_error_page_escapes_what_the_reader_sent(client: TestClient) -> None:
    sign_up(client, "taro")
    client.get("/language/ja", follow_redirects=False)
    page = client.get("/history/%3Cscript%3Ealert(1)")
    assert page.status_code == 404
    assert "提出が見つかりません" in page.text
    escaped = "&#39;&lt;script&gt;alert(1)&#39;"
    assert f"あなたの提出 {escaped} はありません。" in page.text


CATALOG_PO = APP / "locale" / "ja" / "LC_MESSAGES" / "messages.po"
CATALOG_MO = CATALOG_PO.with_suffix(".mo")
KEYWORDS = {"_": None, "gettext": None, "say": None, "t": None, "N_": None}


def test_the_compiled_catalog_is_the_po_file() -> None:
    with CATALOG_PO.open("rb") as po, CATALOG_MO.open("rb") as mo:
        source = {m.id: m.string for m in read_po(po) if m.id}
        compiled = {m.id: m.string for m in read_mo(mo) if m.id}
    assert compiled == source, "run `make messages` after editing the .po file"
    assert source == i18n.JAPANESE


def test_pybabel_extracts_exactly_the_catalogs_texts() -> None:
    """What `make messages` extracts (babel.cfg) is what the catalog translates: no text the
    pages write is missing from it, and it holds nothing the code no longer writes."""
    root = APP.parent
    with (root / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    extracted = {
        message
        for _, _, message, *_ in extract_from_dir(root, method_map, options_map, keywords=KEYWORDS)
    }
    assert extracted == i18n.JAPANESE.keys()
