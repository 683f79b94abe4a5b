"""A real Jupyter kernel runs a notebook with ``%load_ext numjudge_client`` against a live server.

The executed notebook is kept beside the screenshot of its rendering (``NUMJUDGE_SCREENSHOTS``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat
import pytest
from nbclient import NotebookClient
from sqlalchemy import select

from app.core.db import session_scope
from app.models import Submission
from app.store import accounts as account_store
from tests.app.live import LiveServer
from tests.clients.conftest import EXERCISE, Learner, exercise_file, new_learner, screenshot

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PRINTING_RUN = """import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    print("shapes", h_prev.shape, x_t.shape)
    return np.zeros(np.shape(h_prev))
"""
CELLS = [
    "%load_ext numjudge_client",
    f"%numjudge starter {EXERCISE}",
    exercise_file("mistakes/one_minus_z.py"),
    "from numjudge_client import Client\n\nclient = Client.from_config()\n"
    f"client.submit({EXERCISE!r}, update_gate)",
    f"%%numjudge submit {EXERCISE}\n" + exercise_file("solution.py"),
    f"%%numjudge run {EXERCISE}\n" + PRINTING_RUN,
    "%%numjudge submit no-such-exercise\nx = 1",
]
FAILED_SUBMIT, PASSED_SUBMIT, RUN, UNKNOWN = 3, 4, 5, 6


def execute(
    learner: Learner, monkeypatch: pytest.MonkeyPatch, folder: Path
) -> tuple[nbformat.NotebookNode, dict[int, list[dict[str, Any]]]]:
    monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(folder / "config"))
    monkeypatch.setenv("NUMJUDGE_SERVER", learner.server.url)
    monkeypatch.setenv("NUMJUDGE_TOKEN", learner.token)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    notebook.cells[UNKNOWN].metadata["tags"] = ["raises-exception"]  # the cell fails, shortly
    payloads: dict[int, list[dict[str, Any]]] = {}

    def keep_payload(cell: Any, cell_index: int, execute_reply: dict[str, Any]) -> None:
        payloads[cell_index] = execute_reply["content"].get("payload", [])

    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        resources={"metadata": {"path": str(folder)}},
        on_cell_executed=keep_payload,
    )
    client.execute()
    return notebook, payloads


def outputs(notebook: nbformat.NotebookNode, index: int) -> list[Any]:
    return list(notebook.cells[index].outputs)


def result_of(notebook: nbformat.NotebookNode, index: int) -> tuple[str, str]:
    (shown,) = [o for o in outputs(notebook, index) if o.output_type == "execute_result"]
    return shown.data["text/plain"], shown.data["text/html"]


@dataclass(frozen=True)
class Executed:
    learner: Learner
    notebook: nbformat.NotebookNode
    payloads: dict[int, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def executed(
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> Executed:
    """The notebook run once for the module's tests."""
    learner = new_learner(live_server, request)
    with pytest.MonkeyPatch.context() as monkeypatch:
        notebook, payloads = execute(learner, monkeypatch, tmp_path_factory.mktemp("notebook"))
    return Executed(learner, notebook, payloads)


def test_notebook_shows_the_tables_of_a_failing_and_a_passing_submission(
    executed: Executed, tmp_path: Path
) -> None:
    learner, notebook, payloads = executed.learner, executed.notebook, executed.payloads

    (next_input,) = payloads[1]
    assert next_input["source"] == "set_next_input" and next_input["replace"] is False
    assert next_input["text"].startswith(f"# {EXERCISE}: ")
    assert next_input["text"].endswith(exercise_file("starter.py"))

    text, page = result_of(notebook, FAILED_SUBMIT)
    assert text.startswith(f"{EXERCISE} (submit): Failed")
    assert 'data-verdict="failed"' in page and '<table class="test-table"' in page
    assert '<tr data-status="failed" data-visibility="hidden">' in page
    assert html.escape("Your gate and the expected one add up to 1") in page

    text, page = result_of(notebook, PASSED_SUBMIT)
    assert text.startswith(f"{EXERCISE} (submit): Passed")
    assert 'data-verdict="passed"' in page and 'data-status="failed"' not in page

    text, page = result_of(notebook, RUN)
    assert text.startswith(f"{EXERCISE} (run): Failed") and "printed output:" in text
    assert "shapes (" in page and 'data-visibility="hidden"' not in page

    (error,) = outputs(notebook, UNKNOWN)  # a UsageError: no traceback
    assert error.output_type == "stream" and error.name == "stderr"
    assert error.text == (
        "UsageError: The server refused (404): Exercise 'no-such-exercise' not found\n"
    )

    # The function was sent with what it reads: the mistake's function and numpy, not the
    # constant it never reads, nor the calls.
    with session_scope(learner.server.database_url) as session:
        owner = account_store.get_user_by_token(session=session, token=learner.token)
        assert owner is not None
        codes = session.scalars(
            select(Submission.code)
            .where(Submission.user_id == owner.id)  # other tests share the server
            .order_by(Submission.created_at)
        ).all()
    sent = next(code for code in codes if "1.0 - z" in code)
    assert sent.startswith("import numpy as np\n\n\n# In [3]\ndef update_gate(")
    assert "HINT" not in sent and "Client" not in sent and "run_line_magic" not in sent

    nbformat.write(notebook, tmp_path / "executed.ipynb")


@pytest.mark.browser
def test_the_notebooks_results_render_in_a_browser(
    executed: Executed, browser: Browser, shots: Path
) -> None:
    picture = shots / "notebook-results.png"
    picture.unlink(missing_ok=True)
    screenshot(browser, render(executed.notebook, [2, FAILED_SUBMIT, PASSED_SUBMIT]), picture)
    assert picture.read_bytes().startswith(b"\x89PNG")


def render(notebook: nbformat.NotebookNode, indexes: list[int]) -> str:
    """A plain page of the chosen cells: the source, then what the kernel displayed."""
    cells = []
    for index in indexes:
        cell = notebook.cells[index]
        shown = []
        for output in cell.outputs:
            if output.output_type == "execute_result":
                shown.append(output.data["text/html"])
            elif output.output_type == "stream":
                shown.append(f"<pre>{html.escape(output.text)}</pre>")
        cells.append(
            f'<div class="cell"><div class="prompt">In [{cell.execution_count}]:</div>'
            f'<pre class="source">{html.escape(cell.source)}</pre>'
            f'<div class="out">{"".join(shown)}</div></div>'
        )
    style = (
        "body{font-family:sans-serif;margin:16px;background:#fff}"
        ".cell{margin-bottom:18px}.prompt{color:#303f9f;font-family:monospace}"
        ".source{background:#f5f5f5;border:1px solid #e0e0e0;padding:8px;"
        "font-size:12px;white-space:pre-wrap}.out{padding-left:8px}"
        "td,th{border-bottom:1px solid #d9dee5;padding:4px 8px;vertical-align:top}"
    )
    return (
        f"<!doctype html><html><head><style>{style}</style></head>"
        f"<body>{''.join(cells)}</body></html>"
    )
