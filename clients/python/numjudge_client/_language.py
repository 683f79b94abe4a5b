"""The learner's language: which one (the chosen, the saved, the locale's), and the client's own
words in it.

The server translates what it writes (results, messages, hints) by the request's
``Accept-Language``; the client's own sentences (its results table, its errors, the notebook
commands' and the command line's answers) are written here in English and Japanese. Each
sentence is a ``str.format`` template keyed by its English text, so a template without its
Japanese fails the first time it is said in Japanese (``tests/clients/test_language.py`` says
each one).
"""

from __future__ import annotations

import json
import locale
import os
from enum import Enum
from pathlib import Path

from numjudge_client._config import config_dir


class Language(Enum):
    EN = "en"
    JA = "ja"

    @classmethod
    def parse(cls, text: str) -> Language:
        """``en``/``ja`` (a locale's ``ja_JP.UTF-8`` too); a ``ValueError`` naming both."""
        code = text.strip().lower()[:2]
        try:
            return cls(code)
        except ValueError:
            raise ValueError(f"unknown language {text!r}: use en or ja") from None


# gettext's order: the first of these that is set names the messages' language.
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def locale_language() -> Language:
    """The process's locale (as gettext reads it: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``; else the platform's, on Windows): Japanese for ``ja…``, else English."""
    for variable in LOCALE_VARIABLES:
        if value := os.environ.get(variable):
            return Language.JA if value.lower().startswith("ja") else Language.EN
    platform_locale = locale.getlocale()[0] or ""
    return Language.JA if platform_locale.lower().startswith(("ja", "japanese")) else Language.EN


def settings_path() -> Path:
    """The learner's settings beside the credentials (no secret in it: an ordinary file)."""
    return config_dir() / "settings.json"


def saved_language() -> Language | None:
    """What ``%numjudge language`` / ``numjudge language`` saved, if anything."""
    path = settings_path()
    if not path.is_file():
        return None
    saved = json.loads(path.read_text(encoding="utf-8")).get("language")
    return Language(saved) if saved in {language.value for language in Language} else None


def save_language(language: Language) -> Path:
    path = settings_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.write_text(json.dumps({"language": language.value}), encoding="utf-8")
    return path


def learner_language(chosen: Language | str | None = None) -> Language:
    """The language chosen here, else the saved one, else the locale's."""
    if isinstance(chosen, Language):
        return chosen
    if chosen:
        return Language.parse(chosen)
    return saved_language() or locale_language()


def choose_language(chosen: str | None) -> str:
    """``%numjudge language ja`` / ``numjudge language ja``: saves the choice; without one,
    says which language is used and why. Returns the sentence to show."""
    if chosen is not None:
        language = Language.parse(chosen)
        path = save_language(language)
        return say(
            "Language: {language}, saved in {path}.", language, language=language.value, path=path
        )
    language = learner_language()
    source = "saved" if saved_language() is not None else "this kernel's locale"
    return say(
        "Language: {language} ({source}).",
        language,
        language=language.value,
        source=say(source, language),
    )


JAPANESE: dict[str, str] = {
    # The results table (numjudge_client._results)
    "Passed": "合格",
    "Failed": "不合格",
    "Error": "エラー",
    "Time limit exceeded": "時間制限超過",
    "Memory limit exceeded": "メモリ制限超過",
    "Queued": "待機中",
    "Running": "採点中",
    "hidden": "非公開",
    "Hint": "ヒント",
    "hint ({cases}): {hint}": "ヒント（{cases}）：{hint}",
    "explains: {cases}": "対象：{cases}",
    "printed output:": "出力：",
    "Output (public cases)": "出力（公開テスト）",
    "{count} tests": "テスト {count} 件",
    " ({hidden} hidden)": "（うち非公開 {hidden} 件）",
    ", graded in {ms} ms": "、採点 {ms} ms",
    "Test": "テスト",
    "Status": "状態",
    "Points": "点数",
    "Message": "メッセージ",
    "Code sent: {count} lines": "送信したコード：{count} 行",
    " from {sources}": "（{sources} から）",
    "worst element {worst}, error {error:.3g}": "最大の誤差は要素 {worst}、誤差 {error:.3g}",
    "largest error per {axis}": "{axis} ごとの最大の誤差",
    # Errors (numjudge_client._client)
    "Not signed in: run %numjudge login (numjudge login on the command line), set "
    "NUMJUDGE_TOKEN, or pass token= to Client.": "サインインしていません：%numjudge login"
    "（コマンドラインでは numjudge login）を実行するか、NUMJUDGE_TOKEN を設定するか、Client に "
    "token= を渡してください。",
    "The numjudge server at {server} did not answer in time; try again in a moment.": (
        "{server} の numjudge サーバーが時間内に応答しませんでした。少し待ってからもう一度試して"
        "ください。"
    ),
    "Cannot reach the numjudge server at {server} ({error}). Is the address right and the "
    "server running?": "{server} の numjudge サーバーに接続できません（{error}）。アドレスは"
    "正しいですか？サーバーは動いていますか？",
    "{server} answers, but not as a numjudge server ({status} on /healthz). Is the address "
    "right?": "{server} は応答しましたが、numjudge サーバーではありません（/healthz で "
    "{status}）。アドレスは正しいですか？",
    "The server at {server} refused the token ({detail}). Create a new one on "
    "{server}/account and sign in again with %numjudge login.": "{server} のサーバーがトークン"
    "を受け付けませんでした（{detail}）。{server}/account で新しいトークンを作り、%numjudge "
    "login でもう一度サインインしてください。",
    "Too many submissions: {detail}. Try again {when}.": "提出が多すぎます：{detail}。"
    "{when}もう一度試してください。",
    "in {seconds:g} s": "{seconds:g} 秒後に",
    "in a moment": "少し待ってから",
    "The server refused ({status}): {detail}": "サーバーが受け付けませんでした（{status}）："
    "{detail}",
    "No result for {exercise} after {wait:g} s: the submission is {status}. Get it later with "
    "client.result({id!r}) or at {page}.": "{wait:g} 秒待っても {exercise} の結果が出ません"
    "でした（提出は {status}）。あとで client.result({id!r}) または {page} で確かめてください。",
    "Interrupted before anything was sent: the {kind} to {exercise} was not made.": (
        "何も送らないうちに中断しました：{exercise} への {kind} は行われていません。"
    ),
    "Interrupted: the server did not accept the {kind} to {exercise}; nothing was graded. "
    "Submit again.": "中断しました：サーバーは {exercise} への {kind} を受け付けておらず、何も"
    "採点されていません。もう一度提出してください。",
    "Interrupted: the submission was accepted (id {id}) and is graded on the server all the "
    "same. Its result: client.result({id!r}) or {page}.": "中断しました：提出は受け付けられて"
    "おり（id {id}）、サーバーでそのまま採点されます。結果：client.result({id!r}) または "
    "{page}。",
    # The notebook commands (numjudge_client._magics)
    "The cell failed when it ran (above), so nothing was sent: fix it and run {cell} again.": (
        "セルの実行が失敗したため（上）、何も送っていません。直してから {cell} をもう一度実行"
        "してください。"
    ),
    "This cell does not define {names}, which the exercise calls, so nothing was sent": (
        "このセルは演習が呼び出す {names} を定義していないため、何も送っていません"
    ),
    " (the notebook's comes from another cell)": "（ノートブックにあるものは別のセルのものです）",
    ": define {names} in the cell you submit.": "。提出するセルで {names} を定義してください。",
    "The cell is empty: write your solution below the %%numjudge line.": "セルが空です。"
    "%%numjudge の行の下に解答を書いてください。",
    "Signed in to {server}. The token is saved in {path} (readable only by {user}).": (
        "{server} にサインインしました。トークンは {path} に保存しました（{user} だけが読めます）。"
    ),
    "Signed in to {server} with NUMJUDGE_TOKEN; the server is saved in {path}, the token "
    "stays in the environment.": "NUMJUDGE_TOKEN で {server} にサインインしました。サーバーは "
    "{path} に保存し、トークンは環境変数のままにします。",
    "NUMJUDGE_TOKEN is set in this environment and wins over the saved token.": (
        "この環境では NUMJUDGE_TOKEN が設定されており、保存したトークンより優先されます。"
    ),
    "No token entered; nothing was saved.": "トークンが入力されなかったため、何も保存して"
    "いません。",
    "API token for {server} (create one on {server}/account): ": "{server} の API トークン"
    "（{server}/account で作れます）：",
    "Language: {language}, saved in {path}.": "言語：{language}（{path} に保存しました）。",
    "Language: {language} ({source}).": "言語：{language}（{source}）。",
    "saved": "保存した設定",
    "this kernel's locale": "ロケール",
    # The guard (numjudge_client._guard): what is graded is what ran
    "raised {error}": "{error} が発生",
    "an array of shape {shape} ({dtype}) {values}": "形状 {shape}（{dtype}）の配列 {values}",
    ", first at {index}: {held!r} in the kernel, {built!r} rebuilt": "。最初に違うのは {index} "
    "で、カーネルでは {held!r}、組み立て直したコードでは {built!r} です",
    "Nothing was sent: {entry} gives different results on two calls with the inputs of the "
    "public case {case!r} ({first}, then {second}), so what the grader computes cannot be "
    "checked. Make it depend on its arguments only (a random generator seeded inside it, or "
    "passed in).": "何も送っていません：{entry} は公開テスト {case!r} の入力で 2 回呼ぶと違う"
    "結果になる（{first}、次に {second}）ため、採点で計算されるものを確かめられません。引数だけで"
    "決まるようにしてください（乱数生成器は関数の中でシードを与えるか、引数で渡します）。",
    "Nothing was sent: the code to send fails when it runs on its own ({error}), although "
    "{entry} runs in this kernel: restart the kernel and run all cells, then submit again; or "
    "define what it needs in the cell you submit.": "何も送っていません：このカーネルでは "
    "{entry} が動きますが、送るコードは単独で実行すると失敗します（{error}）。カーネルを再起動"
    "してすべてのセルを実行してから提出し直すか、必要なものを提出するセルで定義してください。",
    "Nothing was sent: {name} is {held} in this kernel but {rebuilt} in the code rebuilt from "
    "the cells{where} (a cell changed it after it ran, or ran out of order): restart the kernel "
    "and run all cells, then submit again; or define {name} in the cell you submit.": "何も"
    "送っていません：{name} はこのカーネルでは {held} ですが、セルから組み立て直したコードでは "
    "{rebuilt} です{where}（実行後に別のセルが変更したか、セルが順番どおりに実行されていません）。"
    "カーネルを再起動してすべてのセルを実行してから提出し直すか、提出するセルで {name} を定義して"
    "ください。",
    "Nothing was sent: on the public case {case!r}, {entry} gives {ran} in this kernel but "
    "{graded} in the code rebuilt from the cells{where}: restart the kernel and run all cells, "
    "then submit again; or define what {entry} uses in the cell you submit.": "何も送って"
    "いません：公開テスト {case!r} で、{entry} はこのカーネルでは {ran} を返しますが、セルから"
    "組み立て直したコードでは {graded} です{where}。カーネルを再起動してすべてのセルを実行して"
    "から提出し直すか、{entry} が使うものを提出するセルで定義してください。",
    "Nothing was sent: the code to send could not be checked in a fresh Python process (it "
    "ended with {code}: {error}).": "何も送っていません：送るコードを新しい Python プロセスで"
    "確かめられませんでした（終了コード {code}：{error}）。",
    # The source finder and the code builder (numjudge_client._source, _closure): said where
    # the error is shown (``SourceNotFound.said_in``)
    "Cannot send {function!r}: pass the code as a string or a function defined with `def`.": (
        "{function!r} は送れません。コードを文字列で渡すか、`def` で定義した関数を渡してください。"
    ),
    "Cannot find the source of {name}(): it is not defined with `def` at the top level of a "
    "notebook cell or of its module. Define it in a cell of its own (run that cell), or pass "
    "the code as a string.": "{name}() のソースが見つかりません：ノートブックのセルまたはその"
    "モジュールの最上位で `def` によって定義されていません。その関数だけのセルで定義して実行する"
    "か、コードを文字列で渡してください。",
    "Cannot find the source of a function typed at the interactive prompt: save it in a file "
    "or pass the code as a string.": "対話プロンプトで入力した関数のソースは見つけられません："
    "ファイルに保存するか、コードを文字列で渡してください。",
    "Cannot read the source of {name}() from {module}: {error}. Pass the code as a string.": (
        "{module} から {name}() のソースを読めません：{error}。コードを文字列で渡してください。"
    ),
    "Nothing was sent: {file} changed on disk since the kernel imported {name}() from it, so "
    "the file is not the code that runs: restart the kernel and run all cells (or "
    "importlib.reload({module})), then submit again.": "何も送っていません：カーネルが "
    "{name}() をインポートしたあとで {file} が変更されたため、ファイルは実行中のコードと一致"
    "しません。カーネルを再起動してすべてのセルを実行してから（または importlib.reload({module}) "
    "を実行してから）、もう一度提出してください。",
    "Cannot send {name}: no cell binds it at the top level (it was made inside a loop, an "
    "`if`, `exec`, `%run` or `from … import *`). Define or import it by name at the top level "
    "of a cell and run that cell, or pass the code as a string.": "{name} は送れません：どの"
    "セルも最上位で {name} を定義していません（ループ、`if`、`exec`、`%run`、`from … import *` "
    "の中で作られています）。セルの最上位で名前を書いて定義またはインポートし、そのセルを実行"
    "するか、コードを文字列で渡してください。",
    "Cannot send {name}: line {line} of {cell} binds it in a `for`, `with` or `+=`, and its "
    "value is not data the client can write out. Define {name} by name at the top level of a "
    "cell and run that cell.": "{name} は送れません：{cell} の {line} 行目が `for`、`with` "
    "または `+=` で {name} に値を入れており、その値はクライアントが書き出せるデータでは"
    "ありません。セルの最上位で {name} を名前で定義し、そのセルを実行してください。",
    # Whole-notebook mode (numjudge_client._notebook)
    "Cannot read the notebook {path}: {error}": "ノートブック {path} を読めません：{error}",
    "The notebook ran, but its kernel ({kernel}) cannot check what to send: {error}: {detail}. "
    "Install numjudge_client in that kernel's environment.": "ノートブックは実行できましたが、"
    "そのカーネル（{kernel}）では送るコードを確かめられません：{error}：{detail}。そのカーネルの"
    "環境に numjudge_client をインストールしてください。",
    "Nothing was sent: cell {place} of {notebook} raised {error}: {detail} when the notebook "
    "ran top to bottom in a fresh kernel (as Restart & Run All does): fix it, save the "
    "notebook and submit again.": "何も送っていません：新しいカーネルでノートブックを上から順に"
    "実行すると（Restart & Run All と同じ）、{notebook} のセル {place} で {error}：{detail} が"
    "発生しました。直してノートブックを保存し、もう一度提出してください。",
    "Nothing was sent: the notebook, run top to bottom, does not define {names}, which the "
    "exercise calls.": "何も送っていません：上から順に実行したノートブックは、演習が呼び出す "
    "{names} を定義していません。",
    # The command line (numjudge_client._cli)
    "error: {file} is not UTF-8 text (byte {byte:#04x} at offset {offset}); save it as "
    "UTF-8. Nothing was sent.": "エラー：{file} は UTF-8 のテキストではありません（オフセット "
    "{offset} のバイト {byte:#04x}）。UTF-8 で保存してください。何も送っていません。",
    "error: {file}, line {line}: SyntaxError: {message}. Nothing was sent.": "エラー：{file} "
    "の {line} 行目：SyntaxError：{message}。何も送っていません。",
    "error: no file {file}": "エラー：ファイル {file} がありません",
    "error: {message}": "エラー：{message}",
    "Signed out of {server}: {path} no longer holds a token.": "{server} からサインアウト"
    "しました。{path} にトークンはもうありません。",
    "The token on stdin is empty; nothing was saved.": "標準入力のトークンが空のため、何も"
    "保存していません。",  # The notebook magics' own refusals (numjudge_client._magics)
    "{message}. Use: %numjudge login [SERVER] [--token-file FILE]": "{message}。使い方："
    "%numjudge login [SERVER] [--token-file FILE]",
    "Cannot read `%numjudge {line}`: {reason}.": "`%numjudge {line}` を読めません：{reason}。",
    "{reason}. Use: %numjudge language [en|ja]": "{reason}。使い方：%numjudge language [en|ja]",
    "%%numjudge {command} goes on the first line of a cell, above the code to grade.": "%%numjudge "
    "{command} は、採点するコードの上、セルの 1 行目に書きます。",
    "Unknown command %numjudge {command}.": "%numjudge {command} というコマンドはありません。",
    "This kernel does not know its notebook's file: name it, %numjudge submit-notebook EXERCISE "
    "NOTEBOOK.ipynb.": "このカーネルはノートブックのファイルを知りません。"
    "%numjudge submit-notebook EXERCISE NOTEBOOK.ipynb のようにファイル名を指定してください。",
    "Starter code of {exercise} (also in a new cell below, where the notebook can add one)": (
        "{exercise} のスターターコード（ノートブックが追加できる場合は、"
        "下の新しいセルにもあります）"
    ),
    "Cannot read the token file {file}: {reason}.": "トークンファイル {file} を読めません："
    "{reason}。",
    "The token file {file} is empty; nothing was saved.": "トークンファイル {file} が空のため、"
    "何も保存していません。",
    "This notebook cannot ask for input: use %numjudge login {server} --token-file FILE, or start "
    "Jupyter with NUMJUDGE_TOKEN set.": "このノートブックは入力を求められません。%numjudge login "
    "{server} --token-file FILE を使うか、NUMJUDGE_TOKEN を設定して Jupyter を起動してください。",
    "Use %%numjudge run EXERCISE or %%numjudge submit EXERCISE.": "%%numjudge run EXERCISE か "
    "%%numjudge submit EXERCISE を使ってください。",
    " and ": "、",
}


def say(template: str, language: Language, /, **values: object) -> str:
    """``template`` (its English text) in ``language``, filled with ``values``."""
    return (JAPANESE[template] if language is Language.JA else template).format(**values)
