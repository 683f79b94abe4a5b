"""The notebook client in the learner's language, in real Jupyter kernels against the live
server: ``%numjudge language ja`` (saved), or the kernel's locale by default. The server's
results, messages and hints come in Japanese, the client's table and its own sentences too, and
a Japanese message's line ("3 行目") is named by its cell ("In [5] の 3 行目")."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from numjudge_client import Language, NotWhatRan
from numjudge_client._notebook import run_notebook

from tests.app.live import LiveServer
from tests.clients.conftest import EXERCISE, exercise_file, new_learner

pytestmark = pytest.mark.slow  # a live server and a kernel

BROKEN_HELPER = """def shaped(h):
    width = h.shape[-1]
    raise ValueError(f"not yet: {width}")
"""
CHOSEN = [
    "%load_ext numjudge_client",
    "%numjudge login {server} --token-file token.txt",
    "%numjudge language ja",
    "import numpy as np",
    BROKEN_HELPER,
    f"%%numjudge run {EXERCISE}\ndef update_gate(x_t, h_prev, W_z, b_z):\n"
    "    h_prev = h_prev + 0\n    return shaped(h_prev)",
    f"%%numjudge submit {EXERCISE}\n" + exercise_file("mistakes/one_minus_z.py"),
    f"%%numjudge submit {EXERCISE}\nr = 1",
    "BIG = np.zeros(5000)",
    "BIG[0] = 1.0",  # changed after it ran: the guard refuses, in Japanese
    f"%%numjudge submit {EXERCISE}\ndef update_gate(x_t, h_prev, W_z, b_z):\n"
    "    joined = np.concatenate([h_prev, x_t], axis=-1)\n"
    "    return 1 / (1 + np.exp(-BIG[0] * (joined @ W_z.T + b_z)))",
    'exec("SCALE = 1.0")',  # bound where the client cannot find its source: refused in Japanese
    f"%%numjudge submit {EXERCISE}\ndef update_gate(x_t, h_prev, W_z, b_z):\n"
    "    joined = np.concatenate([h_prev, x_t], axis=-1)\n"
    "    return SCALE / (1 + np.exp(-(joined @ W_z.T + b_z)))",
    "%numjudge language en",
    f"%%numjudge run {EXERCISE}\n" + exercise_file("mistakes/one_minus_z.py"),
]
SAVED, HELPER_FAILS, MISTAKE, NO_ENTRY, GUARD, NO_SOURCE, ENGLISH = 2, 5, 6, 7, 10, 12, 14
BY_LOCALE = [
    "%load_ext numjudge_client",
    "%numjudge language",
    f"%%numjudge submit {EXERCISE}\n" + exercise_file("solution.py"),
    "import os\nos.environ['NUMJUDGE_TOKEN'] = open('token.txt').read().strip()",
    f"%%numjudge submit {EXERCISE}\n" + exercise_file("mistakes/one_minus_z.py"),
]
SAYS_WHICH, NOT_SIGNED_IN, LOCALE_MISTAKE = 1, 2, 4


def execute(
    cells: list[str],
    server: LiveServer,
    token: str,
    folder: Path,
    *,
    env: dict[str, str],
    raising: set[int],
) -> nbformat.NotebookNode:
    (folder / "token.txt").write_text(token + "\n")
    notebook: nbformat.NotebookNode = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(c.replace("{server}", server.url)) for c in cells]
    )
    for index in raising:
        notebook.cells[index].metadata["tags"] = ["raises-exception"]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(folder / "config"))
        for name in ("NUMJUDGE_SERVER", "NUMJUDGE_TOKEN", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        NotebookClient(
            notebook,
            kernel_name="python3",
            timeout=120,
            resources={"metadata": {"path": str(folder)}},
        ).execute()
    return notebook


def shown(notebook: nbformat.NotebookNode, index: int) -> tuple[str, str]:
    (result,) = [o for o in notebook.cells[index].outputs if o.output_type == "execute_result"]
    return result.data["text/plain"], result.data["text/html"]


def stream(notebook: nbformat.NotebookNode, index: int, name: str) -> str:
    return "".join(o.text for o in notebook.cells[index].outputs if o.get("name") == name)


def test_a_saved_choice_of_japanese_gives_results_hints_messages_and_lines_in_japanese(
    live_server: LiveServer, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    learner = new_learner(live_server, request)
    notebook = execute(
        CHOSEN,
        live_server,
        learner.token,
        tmp_path,
        env={"LANG": "C.UTF-8"},
        raising={NO_ENTRY, GUARD, NO_SOURCE},
    )
    settings = tmp_path / "config" / "settings.json"
    assert stream(notebook, SAVED, "stdout") == f"言語：ja（{settings} に保存しました）。\n"

    text, page = shown(notebook, HELPER_FAILS)
    assert text.startswith(f"{EXERCISE} (run): エラー") or "不合格" in text, text
    # The server's "3 行目で ValueError が発生しました" names the helper's cell and line.
    assert "In [5] の 3 行目で ValueError が発生しました" in text, text
    assert "In [5] の 3 行目で ValueError" in page

    text, page = shown(notebook, MISTAKE)
    assert text.startswith(f"{EXERCISE} (submit): 不合格"), text
    assert "ヒント（数値例、大きさ 2 のバッチ" in text and "足すと 1 になります" in text, text
    assert "add up to 1" not in text
    assert '<th style="text-align:left">テスト</th>' in page and "非公開" in page
    assert "送信したコード：" in page

    assert stream(notebook, NO_ENTRY, "stderr") == (
        "UsageError: このセルは演習が呼び出す update_gate() を定義していないため、何も送って"
        "いません（ノートブックにあるものは別のセルのものです）。提出するセルで update_gate() "
        "を定義してください。\n"
    )
    assert stream(notebook, GUARD, "stderr") == (
        "UsageError: 何も送っていません：BIG はこのカーネルでは 形状 (5000,)（float64）の配列 "
        "[1. 0. ... 0. 0.] ですが、セルから組み立て直したコードでは 形状 (5000,)（float64）の配列 "
        "[0. 0. ... 0. 0.] です。最初に違うのは [0] で、カーネルでは 1.0、組み立て直したコードでは "
        "0.0 です（実行後に別のセルが変更したか、セルが順番どおりに実行されていません）。"
        "カーネルを再起動してすべてのセルを実行してから提出し直すか、提出するセルで BIG を"
        "定義してください。\n"
    )
    assert stream(notebook, NO_SOURCE, "stderr") == (
        "UsageError: SCALE は送れません：どのセルも最上位で SCALE を定義していません（ループ、"
        "`if`、`exec`、`%run`、`from … import *` の中で作られています）。セルの最上位で名前を"
        "書いて定義またはインポートし、そのセルを実行するか、コードを文字列で渡してください。\n"
    )
    text, _ = shown(notebook, ENGLISH)
    assert text.startswith(f"{EXERCISE} (run): Failed") and "add up to 1" in text


def test_without_a_choice_the_kernels_locale_decides(
    live_server: LiveServer, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    learner = new_learner(live_server, request)
    notebook = execute(
        BY_LOCALE,
        live_server,
        learner.token,
        tmp_path,
        env={"LANG": "ja_JP.UTF-8", "NUMJUDGE_SERVER": live_server.url},
        raising={NOT_SIGNED_IN},
    )
    assert stream(notebook, SAYS_WHICH, "stdout") == "言語：ja（ロケール）。\n"
    assert stream(notebook, NOT_SIGNED_IN, "stderr") == (
        "UsageError: サインインしていません：%numjudge login（コマンドラインでは numjudge "
        "login）を実行するか、NUMJUDGE_TOKEN を設定するか、Client に token= を渡してください。\n"
    )
    text, _ = shown(notebook, LOCALE_MISTAKE)
    assert text.startswith(f"{EXERCISE} (submit): 不合格") and "足すと 1 になります" in text


def test_whole_notebook_modes_refusals_are_said_in_japanese(tmp_path: Path) -> None:
    """The fresh kernel that runs the notebook says why nothing is sent in the learner's
    language: an entry the run does not define, one the client cannot find the source of."""
    made_by_exec = 'exec("def update_gate(x_t, h_prev, W_z, b_z):\\n    return h_prev")'
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in ("x = 1", made_by_exec)]
    )
    path = tmp_path / "gate.ipynb"
    nbformat.write(notebook, path)
    with pytest.raises(NotWhatRan) as refused:
        run_notebook(path, ["reset_gate"], (), Language.JA)
    assert str(refused.value) == (
        "何も送っていません：上から順に実行したノートブックは、演習が呼び出す reset_gate() を"
        "定義していません。"
    )
    with pytest.raises(NotWhatRan) as refused:
        run_notebook(path, ["update_gate"], (), Language.JA)
    assert str(refused.value).startswith(
        "update_gate は送れません：どのセルも最上位で update_gate を定義していません（ループ、"
    )
