"""The pages' own words in English and Japanese (statements have their own translations).

Templates write ``{{ _("English text {name}", name=value) }}``: the English text is the key,
and ``{name}`` placeholders are filled with escaped values, so the catalog's texts may carry
markup of their own but never let a value's markup through. The language is the reader's
choice (the ``numjudge_lang`` cookie, set by the language switches), else the browser's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request
from markupsafe import Markup, escape

UI_LANGUAGES = ("en", "ja")
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
LANG_COOKIE = "numjudge_lang"

Translate = Callable[..., Markup]

JAPANESE: dict[str, str] = {
    # the frame of every page
    "Skip to content": "本文へ移動",
    "Main": "メイン",
    "Exercises": "演習",
    "History": "履歴",
    "API token": "API トークン",
    "Gradebook": "成績表",
    "Validate": "検証",
    "Signed in as <strong>{name}</strong>": "<strong>{name}</strong> でサインイン中",
    "(instructor)": "（教員）",
    "Sign out": "サインアウト",
    "Sign in": "サインイン",
    "Sign up": "新規登録",
    "numjudge · auto-graded numerical Python": "numjudge · 数値計算 Python の自動採点",
    "Language of the pages": "表示言語",
    # the catalog
    "In course order.": "コースの順に並んでいます。",
    'Several exercises rebuild one experiment, described in <a href="/lesson">the lesson</a>.':
        'いくつかの演習はひとつの実験を組み立て直します（<a href="/lesson">レッスン</a>）。',
    # the lesson page
    "The lesson": "レッスン",
    "Language of the lesson": "レッスンの言語",
    "Lesson not found": "レッスンが見つかりません",
    "This course has no lesson page {page}.":
        "このコースにはレッスンのページ {page} がありません。",
    '<a href="/login">Sign in</a> to keep your drafts and scores.':
        '下書きと得点を残すには<a href="/login">サインイン</a>してください。',
    "Some exercise folders could not be read: {problems}":
        "読み込めない演習フォルダーがあります: {problems}",
    "Tags": "タグ",
    "Also in Japanese": "日本語版あり",
    "Best": "最高点",
    "Not submitted": "未提出",
    "No exercises yet.": "演習はまだありません。",
    # verdicts
    "Passed": "正解",
    "Failed": "不正解",
    "Error": "エラー",
    "Time limit exceeded": "時間切れ",
    "Memory limit exceeded": "メモリ超過",
    "Queued": "待機中",
    "Running": "採点中",
    # history and one submission
    "Your submissions": "あなたの提出",
    "Exercise": "演習",
    "All exercises": "すべての演習",
    "Show": "表示",
    " — best {score}": " — 最高点 {score}",
    "When": "日時",
    "Kind": "種類",
    "Verdict": "判定",
    "Score": "得点",
    "Open": "開く",
    'Open<span class="visually-hidden"> the {kind} of {when}</span>':
        '開く<span class="visually-hidden">（{when} の{kind}）</span>',
    'Nothing yet. Open an <a href="/">exercise</a>, write a solution and submit it.':
        'まだありません。<a href="/">演習</a>を開き、解答を書いて提出しましょう。',
    "Run": "実行",
    "Submission": "提出",
    "{kind} of {exercise}": "{exercise} の{kind}",
    "By {name} · {when} · exercise version <code>{version}</code>":
        "{name} · {when} · 演習のバージョン <code>{version}</code>",
    "Result": "結果",
    "Code": "コード",
    "This {kind} is {status}. Reload the page in a moment.":
        "この{kind}は{status}です。少し待ってからページを再読み込みしてください。",
    # the results table (pages and script)
    "{count} tests": "テスト {count} 件",
    "Hint": "ヒント",
    "explains: {cases}": "該当するテスト: {cases}",
    ", graded in {ms} ms": "、採点 {ms} ms",
    "Test": "テスト",
    "Status": "状態",
    "Points": "得点",
    "Message": "メッセージ",
    "Hidden test": "非公開のテスト",
    "Output (public cases)": "出力（公開ケース）",
    # the exercise page
    "Limits: {time} s, {memory} MB": "制限: {time} 秒, {memory} MB",
    "Your best:": "自己ベスト:",
    "none yet": "まだなし",
    "Language of the statement": "問題文の言語",
    "Statement": "問題文",
    "Theory": "解説",
    "Source:": "出典:",
    "Your solution": "あなたの解答",
    "— write <code>{entry}</code>": "— <code>{entry}</code> を実装します",
    "Your solution (Python)": "あなたの解答（Python）",
    "Run public tests": "公開テストを実行",
    "Submit": "提出",
    "Reset to starter": "初期コードに戻す",
    "<kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> submits, add <kbd>Shift</kbd> to run the "
    "public tests. In the editor, <kbd>Tab</kbd> indents: press <kbd>Esc</kbd> then "
    "<kbd>Tab</kbd> to move on.":
        "<kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd> で提出、<kbd>Shift</kbd> も押すと公開"
        "テストを実行します。エディターでは <kbd>Tab</kbd> がインデントです。次の項目へ移るには"
        " <kbd>Esc</kbd> のあと <kbd>Tab</kbd> を押します。",
    "Results": "結果",
    # the exercise page's script
    "Draft saved in this browser": "下書きをこのブラウザーに保存しました",
    "Draft could not be saved in this browser": "下書きをこのブラウザーに保存できませんでした",
    "Editing…": "編集中…",
    "Restored your saved draft": "保存した下書きを復元しました",
    "Starter code loaded": "初期コードを読み込みました",
    "Replace your code with the starter code?": "あなたのコードを初期コードに置き換えますか？",
    "Run: {verdict}": "実行: {verdict}",
    "Submission: {verdict}": "提出: {verdict}",
    "{title}, score {score} of {max}": "{title}、得点 {score} / {max}",
    "Open this submission in your history": "この提出を履歴で開く",
    "Your code is empty: write your solution before you run.":
        "コードが空です。実行する前に解答を書いてください。",
    "Your code is empty: write your solution before you submit.":
        "コードが空です。提出する前に解答を書いてください。",
    "Your code is too long ({size} bytes); the limit is {limit} bytes.":
        "コードが長すぎます（{size} バイト）。上限は {limit} バイトです。",
    "Running the public tests…": "公開テストを実行しています…",
    "Grading your submission…": "提出を採点しています…",
    "{seconds} s": "{seconds} 秒",
    "Previous result: it is replaced when the new one is ready.":
        "前回の結果です。新しい結果が出ると置き換わります。",
    "The grader is busy: your code is queued. Look for the result in your history.":
        "採点が混み合っています。コードは順番待ちです。結果は履歴で確認してください。",
    "Open history": "履歴を開く",
    "Your session has expired or you were signed out. Your code is kept in this browser.":
        "セッションの期限が切れたか、サインアウトしました。コードはこのブラウザーに残っています。",
    "Sign in again": "もう一度サインイン",
    "The server could not grade this (HTTP {status}).":
        "サーバーが採点できませんでした（HTTP {status}）。",
    "Could not reach the server. Check your connection and try again; your code is kept.":
        "サーバーに接続できません。接続を確かめて、もう一度お試しください。コードは残っています。",
    # the token page
    "The editor plugin and <code>numjudge submit</code> sign in with a token:":
        "エディターのプラグインと <code>numjudge submit</code> はトークンでサインインします:",
    "A new token was created. Copy it now: it is shown only once.":
        "新しいトークンを作成しました。表示はこの一度だけなので、今コピーしてください。",
    "Your new token": "新しいトークン",
    "Copy": "コピー",
    "Copied to the clipboard.": "クリップボードにコピーしました。",
    "Selected: press Ctrl+C (⌘C) to copy.": "選択しました。Ctrl+C（⌘C）でコピーしてください。",
    "Your tokens": "あなたのトークン",
    "Starts with": "先頭",
    "Created": "作成日時",
    "Last used": "最後の使用",
    "You have no token yet.": "トークンはまだありません。",
    "Create a new token": "新しいトークンを作成",
    "Tokens you created before keep working.": "以前に作成したトークンも引き続き使えます。",
    # signing in and up
    "Your session has expired. Please sign in again.":
        "セッションの期限が切れました。もう一度サインインしてください。",
    "Username": "ユーザー名",
    "Password": "パスワード",
    'New here? <a href="{url}">Create an account</a>.':
        'はじめての方は<a href="{url}">アカウントを作成</a>してください。',
    "Create an account": "アカウントの作成",
    "Sign-up is closed on this server. Ask your instructor for an account.":
        "このサーバーでは新規登録を受け付けていません。アカウントは教員に依頼してください。",
    "2–32 letters, digits, dots, dashes or underscores.":
        "英字・数字・ドット・ハイフン・アンダースコアで 2〜32 文字。",
    "At least {count} characters.": "{count} 文字以上。",
    "Repeat the password": "パスワード（確認）",
    'Already have an account? <a href="/login">Sign in</a>.':
        'アカウントをお持ちの方は<a href="/login">サインイン</a>してください。',
    "This form expired (or cookies are blocked). Please sign in again.":
        "このフォームの期限が切れました（または Cookie がブロックされています）。"
        "もう一度サインインしてください。",
    "This form expired (or cookies are blocked). Please try again.":
        "このフォームの期限が切れました（または Cookie がブロックされています）。"
        "もう一度お試しください。",
    "Enter your username and your password.": "ユーザー名とパスワードを入力してください。",
    "Too many failed attempts. Try again in {minutes} minute(s).":
        "失敗が続いたため、{minutes} 分後にもう一度お試しください。",
    "Wrong username or password.": "ユーザー名またはパスワードが違います。",
    "Choose a username of 2–32 letters, digits, dots, dashes or underscores.":
        "ユーザー名は英字・数字・ドット・ハイフン・アンダースコアで 2〜32 文字にしてください。",
    "Choose a password of at least {count} characters.":
        "パスワードは {count} 文字以上にしてください。",
    "Choose a password of at most {count} characters.":
        "パスワードは {count} 文字以下にしてください。",
    "The two passwords differ.": "2 つのパスワードが一致しません。",
    "The username {name} is taken; choose another.":
        "ユーザー名 {name} は使われています。別の名前にしてください。",
    # error pages
    "Back to the exercises": "演習一覧へ戻る",
    "Exercise not found": "演習が見つかりません",
    "There is no exercise {exercise}.": "演習 {exercise} はありません。",
    "This exercise is broken": "この演習は壊れています",
    "Exercise {exercise} cannot be shown; tell your instructor: {problem}":
        "演習 {exercise} を表示できません。教員に伝えてください: {problem}",
    "Bad request": "不正なリクエスト",
    "Some of this request's fields are missing or malformed.":
        "このリクエストの項目に欠けているものか、形式の誤りがあります。",
    "Something went wrong": "問題が発生しました",
    "The server could not show this page. Try again in a moment.":
        "サーバーがこのページを表示できませんでした。少し待ってからもう一度お試しください。",
    "Submission not found": "提出が見つかりません",
    "Instructors only": "教員専用",
    "This page is for instructors. Ask one to give your account the role.":
        "このページは教員専用です。教員にアカウントの役割を変えてもらってください。",
    "This form has expired": "このフォームは期限切れです",
    "The page was open too long or your session changed: reload it.":
        "ページを長く開いたままにしたか、セッションが変わりました。再読み込みしてください。",
    "All submissions": "すべての提出",
    "There is no submission {submission} of yours.": "あなたの提出 {submission} はありません。",
    # instructor pages
    "Export CSV": "CSV を書き出す",
    "Each learner's best submitted score per exercise. Open an exercise for its submissions.":
        "学習者ごと・演習ごとの最高点です。演習を開くとその提出が見られます。",
    "Learner": "学習者",
    "Total": "合計",
    "no submission": "提出なし",
    "No learners yet.": "学習者はまだいません。",
    "Submissions of {exercise}": "{exercise} の提出",
    "Newest first; runs of the public tests are not listed.":
        "新しい順です。公開テストの実行は含みません。",
    "Time": "時間",
    "No submissions yet.": "提出はまだありません。",
    "Open<span class=\"visually-hidden\"> {name}'s submission of {when}</span>":
        '開く<span class="visually-hidden">（{name} の {when} の提出）</span>',
    "Validate exercises": "演習の検証",
    "The output of <code>numjudge validate</code> for each exercise folder: files and metadata, "
    "the reference passes, the starter fails, every known mistake fails a hidden case with its "
    "hint, grading is deterministic.":
        "演習フォルダーごとの <code>numjudge validate</code> の出力です。ファイルとメタデータ、"
        "模範解答が通ること、初期コードが通らないこと、既知の誤りがそれぞれヒント付きで非公開"
        "ケースに落ちること、採点が決定的であることを確かめます。",
    "✓ valid": "✓ 問題なし",
    "✗ problems": "✗ 問題あり",
    "No exercise folders found.": "演習フォルダーがありません。",
}

# Words that come from data rather than from the pages: difficulties, verdicts, test statuses,
# submission statuses and kinds, shown as they are stored in English.
JAPANESE_DATA_WORDS: dict[str, str] = {
    "easy": "やさしい",
    "medium": "ふつう",
    "hard": "むずかしい",
    "passed": "正解",
    "failed": "不正解",
    "error": "エラー",
    "timeout": "時間切れ",
    "memory_limit": "メモリ超過",
    "queued": "待機中",
    "running": "採点中",
    "done": "完了",
    "run": "実行",
    "submit": "提出",
}
JAPANESE |= JAPANESE_DATA_WORDS

CATALOGS: dict[str, dict[str, str]] = {"en": {}, "ja": JAPANESE}

# The texts exercise.js writes, handed to it (with the data words) in the page's configuration.
SCRIPT_MESSAGES = (
    "Passed", "Failed", "Error", "Time limit exceeded", "Memory limit exceeded",
    "Draft saved in this browser", "Draft could not be saved in this browser", "Editing…",
    "Restored your saved draft", "Starter code loaded", "Replace your code with the starter code?",
    "Run: {verdict}", "Submission: {verdict}", "{title}, score {score} of {max}", "Hidden test",
    "{count} tests", ", graded in {ms} ms", "Test", "Status", "Points", "Message",
    "Hint", "explains: {cases}",
    "Output (public cases)", "Open this submission in your history",
    "Your code is empty: write your solution before you run.",
    "Your code is empty: write your solution before you submit.",
    "Your code is too long ({size} bytes); the limit is {limit} bytes.",
    "Running the public tests…", "Grading your submission…", "{seconds} s",
    "Previous result: it is replaced when the new one is ready.",
    "The grader is busy: your code is queued. Look for the result in your history.",
    "Open history",
    "Your session has expired or you were signed out. Your code is kept in this browser.",
    "Sign in again", "The server could not grade this (HTTP {status}).",
    "Could not reach the server. Check your connection and try again; your code is kept.",
    "Your solution (Python)",
)


def translator(lang: str) -> Translate:
    """``_(text, **values)`` for ``lang``: the translation, with ``values`` escaped.

    Only the catalog's own texts may carry markup; any other text (a difficulty, a status, a
    message from elsewhere) is escaped like a value.
    """
    catalog = CATALOGS.get(lang, {})

    def translate(text: str, **values: Any) -> Markup:
        # The catalog's keys are every text the pages write themselves.
        known = text in JAPANESE
        template = Markup(catalog.get(text, text)) if known else escape(text)
        return template.format(**values) if values else template

    return translate


def script_messages(lang: str) -> dict[str, str]:
    """The translations exercise.js needs (it falls back to the English key)."""
    catalog = CATALOGS.get(lang, {})
    return {text: catalog[text] for text in (*SCRIPT_MESSAGES, *JAPANESE_DATA_WORDS)
            if text in catalog}


def browser_languages(request: Request) -> list[str]:
    """The two-letter codes of the browser's ``Accept-Language``, in its order."""
    return [part.split(";")[0].strip().lower()[:2]
            for part in request.headers.get("accept-language", "").split(",")]


def preferred_language(request: Request) -> str:
    """The reader's chosen language (cookie), else the first the browser asks for, else English."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in UI_LANGUAGES:
        return chosen
    return next((code for code in browser_languages(request) if code in UI_LANGUAGES), "en")
