"""What a real Jupyter kernel grades is what ran in it: a notebook of several cells (a helper in
one, a computed constant in another, a widget import beside them) run through nbclient against a
live server, signing in without a prompt."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient
from sqlalchemy import select

from app.core.db import session_scope
from app.models import Submission
from tests.app.live import LiveServer
from tests.clients.conftest import EXERCISE, Learner, exercise_file, new_learner

# Importable in the kernel (it sits beside the notebook), not in the sandbox: sent, it would
# make the submission fail to load, as ipywidgets did.
WIDGETS = "def interact(function):\n    return function\n"
HELPER = '''def stable_sigmoid(a):
    """1 / (1 + e^-a), its argument clipped so that e^-a never overflows."""
    a = np.clip(a, -LIMIT, LIMIT)
    return 1.0 / (1.0 + np.exp(-a))
'''
ENTRY = """def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return stable_sigmoid(joined @ W_z.T + b_z)
"""
BROKEN_HELPER = """def shaped(h):
    width = h.shape[-1]
    raise ValueError(f"not yet: {width}")
"""
CELLS = [
    "%load_ext numjudge_client",
    "%numjudge login {server}",  # nbclient gives no stdin: a sentence, no traceback
    "%numjudge login {server} --token-file token.txt",
    f"%numjudge starter {EXERCISE}",
    "import numpy as np\nfrom widgets_here import interact",
    "LIMIT = np.log(np.finfo(float).max)",
    HELPER,
    "@interact\ndef explore(n=1):\n    return n",
    f"%%numjudge submit {EXERCISE}\n{ENTRY}",
    f"from numjudge_client import Client\n\nClient.from_config().submit({EXERCISE!r}, update_gate)",
    BROKEN_HELPER,
    f"%%numjudge run {EXERCISE}\ndef update_gate(x_t, h_prev, W_z, b_z):\n"
    "    h_prev = h_prev + 0\n    return shaped(h_prev)",
    f"%%numjudge run {EXERCISE}\ndef update_gate(x_t, h_prev, W_z, b_z):\n"
    "    return h_prev @ x_t @ W_z",
    f"%%numjudge submit {EXERCISE}\ndef update_gate(x_t, h_prev, W_z, b_z):\n    return 1 / 0\n"
    "update_gate(None, None, None, None)",
    'Client.from_config().submit("no-such-exercise", "x = 1")',
    "%%numjudge run gru-reset-gate\nr = 1",
]
NO_STDIN, LOGIN, STARTER, SUBMIT, CLIENT_SUBMIT = 1, 2, 3, 8, 9
HELPER_FAILS, ENTRY_FAILS, FAILS_IN_KERNEL, CLIENT_ERROR, NO_ENTRY = 11, 12, 13, 14, 15
RAISING = {NO_STDIN, FAILS_IN_KERNEL, CLIENT_ERROR, NO_ENTRY}


@dataclass(frozen=True)
class Executed:
    learner: Learner
    notebook: nbformat.NotebookNode


@pytest.fixture(scope="module")
def executed(
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> Executed:
    learner = new_learner(live_server, request)
    folder = tmp_path_factory.mktemp("kernel-notebook")
    (folder / "widgets_here.py").write_text(WIDGETS)
    (folder / "token.txt").write_text(learner.token + "\n")
    cells = [nbformat.v4.new_code_cell(c.replace("{server}", learner.server.url)) for c in CELLS]
    for index in RAISING:
        cells[index].metadata["tags"] = ["raises-exception"]
    notebook = nbformat.v4.new_notebook(cells=cells)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(folder / "config"))
        for name in ("NUMJUDGE_SERVER", "NUMJUDGE_TOKEN"):
            monkeypatch.delenv(name, raising=False)
        NotebookClient(
            notebook,
            kernel_name="python3",
            timeout=120,
            resources={"metadata": {"path": str(folder)}},
        ).execute()
    return Executed(learner, notebook)


def shown(notebook: nbformat.NotebookNode, index: int) -> tuple[str, str]:
    (result,) = [o for o in notebook.cells[index].outputs if o.output_type == "execute_result"]
    return result.data["text/plain"], result.data["text/html"]


def streams(notebook: nbformat.NotebookNode, index: int, name: str) -> str:
    return "".join(o.text for o in notebook.cells[index].outputs if o.get("name") == name)


def sent_codes(learner: Learner) -> list[str]:
    with session_scope(learner.server.database_url) as session:
        return list(session.scalars(select(Submission.code).order_by(Submission.created_at)))


def code_block(page: str) -> str:
    match = re.search(r'<details class="code-sent".*?<pre[^>]*>(.*?)</pre>', page, re.S)
    assert match, page
    return html.unescape(match[1])


def test_login_reads_a_token_file_and_fails_in_one_line_without_stdin(
    executed: Executed,
) -> None:
    notebook, learner = executed.notebook, executed.learner
    assert streams(notebook, NO_STDIN, "stderr") == (
        "UsageError: This notebook cannot ask for input: use %numjudge login "
        f"{learner.server.url} --token-file FILE, or start Jupyter with NUMJUDGE_TOKEN set.\n"
    )
    assert not [o for o in notebook.cells[NO_STDIN].outputs if o.output_type == "error"]
    printed = streams(notebook, LOGIN, "stdout")
    assert printed.startswith(f"Signed in to {learner.server.url}. The token is saved in")
    every_output = nbformat.writes(notebook)
    assert learner.token not in every_output


def test_the_starter_is_shown_where_no_cell_can_be_added(executed: Executed) -> None:
    (starter,) = [o for o in executed.notebook.cells[STARTER].outputs]
    assert starter.output_type == "display_data"
    assert starter.data["text/plain"].endswith(exercise_file("starter.py"))
    assert '<details class="numjudge-starter">' in starter.data["text/html"]


def test_a_cell_is_graded_with_the_helpers_and_constants_it_reads_and_nothing_else(
    executed: Executed,
) -> None:
    text, page = shown(executed.notebook, SUBMIT)
    assert text.startswith(f"{EXERCISE} (submit): Passed"), text
    sent = code_block(page)
    assert sent in sent_codes(executed.learner)  # the block shows exactly what was graded
    assert sent == (
        "import numpy as np\n\n\n"
        "# In [6]\n"
        "LIMIT = 709.782712893384  # the notebook's value of np.log(np.finfo(float).max)\n\n\n"
        f"# In [7]\n{HELPER}\n\n"
        f"# In [9]\n{ENTRY}"
    )
    assert "Code sent: 18 lines from In [5], In [6], In [7], In [9]" in text
    assert "interact" not in sent and "explore" not in sent and "Client" not in sent

    text, page = shown(executed.notebook, CLIENT_SUBMIT)  # Client.submit(function): the same
    assert text.startswith(f"{EXERCISE} (submit): Passed"), text
    assert code_block(page) == sent


def test_line_numbers_in_messages_name_the_cell_and_its_line(executed: Executed) -> None:
    text, page = shown(executed.notebook, HELPER_FAILS)
    assert "raised ValueError on line 3 of In [11]: not yet:" in text  # the helper's raise
    assert "on line 3 of In [11]" in page

    text, _ = shown(executed.notebook, ENTRY_FAILS)  # below the %%numjudge line: its line 3
    assert "on line 3 of In [13]" in text, text


def test_a_cell_that_fails_in_the_kernel_is_not_sent(executed: Executed) -> None:
    outputs: list[Any] = executed.notebook.cells[FAILS_IN_KERNEL].outputs
    (error,) = [o for o in outputs if o.output_type == "error"]
    assert error.ename == "ZeroDivisionError"  # the learner's own traceback, from the kernel
    assert streams(executed.notebook, FAILS_IN_KERNEL, "stderr") == (
        "UsageError: The cell failed when it ran (above), so nothing was sent: fix it and run "
        "In [14] again.\n"
    )
    assert not [code for code in sent_codes(executed.learner) if "1 / 0" in code]


def test_a_cell_without_the_exercises_function_is_not_sent(executed: Executed) -> None:
    assert streams(executed.notebook, NO_ENTRY, "stderr") == (
        "UsageError: This cell does not define reset_gate(), which the exercise calls, so "
        "nothing was sent: define reset_gate() in the cell you submit.\n"
    )
    assert "r = 1" not in "".join(sent_codes(executed.learner))


def test_a_client_error_in_a_cell_is_one_line(executed: Executed) -> None:
    (error,) = executed.notebook.cells[CLIENT_ERROR].outputs
    assert error.output_type == "error"
    assert error.traceback == [
        "ServerError: The server refused (404): Exercise 'no-such-exercise' not found"
    ]


def test_the_html_table_marks_hidden_tests(executed: Executed) -> None:
    _, page = shown(executed.notebook, SUBMIT)
    hidden = re.findall(r'<tr [^>]*data-visibility="hidden">(.*?)</tr>', page)
    assert hidden and all('<span class="visibility hidden"' in row for row in hidden)
    public = re.findall(r'<tr [^>]*data-visibility="public">(.*?)</tr>', page)
    assert public and not any("visibility hidden" in row for row in public)
    assert re.search(rf"{len(hidden) + len(public)} tests \({len(hidden)} hidden\)", page)
