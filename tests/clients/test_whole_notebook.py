"""Whole-notebook mode and what a learner reads when a submit cannot go on, against a live server:
``numjudge submit NOTEBOOK.ipynb --exercise ID`` and ``%numjudge submit-notebook`` run the saved
notebook top to bottom in a fresh kernel (nbclient) and send the entry as that run defines it; a
learner who never signed in is told to sign in; an interrupted submit says whether the server
accepted it, with its id and page."""

from __future__ import annotations

import contextlib
import queue
from pathlib import Path
from typing import Any

import httpx
import nbformat
import pytest
from jupyter_client.manager import start_new_kernel
from nbclient import NotebookClient
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.db import session_scope
from app.models import Submission
from tests.clients.conftest import EXERCISE, Learner, exercise_file

SIGMOID = "def sigmoid(z):\n    return 1.0 / (1.0 + np.exp(-z))\n"
ENTRY = (
    "def update_gate(x_t, h_prev, W_z, b_z):\n"
    "    joined = np.concatenate([h_prev, x_t], axis=-1)\n"
    "    return sigmoid(joined @ W_z.T + b_z)\n"
)
# A notebook as a learner leaves it: numjudge's own cells (which the run leaves out), a graded
# cell (whose body runs), an exploration cell, and the fixed helper below the entry.
NOTEBOOK = [
    "%load_ext numjudge_client",
    "import numpy as np",
    f"%%numjudge submit {EXERCISE}\n{ENTRY}",
    "from numjudge_client import Client\n\nClient.from_config().submit('gru-update-gate', "
    "update_gate)",
    "print(np.arange(3))",
    SIGMOID,
]


def write_notebook(path: Path, cells: list[str]) -> Path:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, path)
    return path


def stored_codes(learner: Learner) -> list[str]:
    history = httpx.get(
        f"{learner.server.url}/submissions",
        headers={"Authorization": f"Bearer {learner.token}"},
        timeout=30,
    ).json()
    ids = [row["id"] for row in history]
    with session_scope(learner.server.database_url) as session:
        return list(session.scalars(select(Submission.code).where(Submission.id.in_(ids))))


def test_the_command_line_sends_the_notebook_as_it_runs_top_to_bottom(
    learner: Learner, tmp_path: Path
) -> None:
    notebook = write_notebook(tmp_path / "gate.ipynb", NOTEBOOK)
    arguments = ["submit", str(notebook), "--exercise", EXERCISE]
    environment = {"NUMJUDGE_SERVER": learner.server.url, "NUMJUDGE_TOKEN": learner.token}
    result = CliRunner().invoke(cli, arguments, env=environment)
    assert result.exit_code == 0, result.output
    assert "Passed" in result.output and "26 / 26" in result.output, result.output
    (code,) = stored_codes(learner)
    assert code == f"import numpy as np\n\n\n# cell 3\n{ENTRY}\n\n# cell 6\n{SIGMOID}"


def test_a_cell_that_raises_in_the_run_stops_it_and_nothing_is_sent(
    learner: Learner, tmp_path: Path
) -> None:
    notebook = write_notebook(
        tmp_path / "broken.ipynb", ["import numpy as np", "undefined_name", SIGMOID, ENTRY]
    )
    result = CliRunner().invoke(
        cli,
        ["submit", str(notebook), "--exercise", EXERCISE],
        env={"NUMJUDGE_SERVER": learner.server.url, "NUMJUDGE_TOKEN": learner.token},
    )
    assert result.exit_code == 2
    assert (
        "error: Nothing was sent: cell 2 of broken.ipynb raised NameError: name 'undefined_name' "
        "is not defined when the notebook ran top to bottom in a fresh kernel"
    ) in result.output
    assert stored_codes(learner) == []


def test_the_magic_submits_the_saved_notebook_and_a_learner_never_signed_in_is_told_so(
    learner: Learner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("NUMJUDGE_SERVER", "NUMJUDGE_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "token.txt").write_text(learner.token)
    cells = [
        "%load_ext numjudge_client",
        "import numpy as np",
        SIGMOID,
        ENTRY,
        f"%%numjudge submit {EXERCISE}\n{ENTRY}",  # never signed in: nothing runs or is sent
        f"%numjudge login {learner.server.url} --token-file token.txt",
        f"%numjudge submit-notebook {EXERCISE} learner.ipynb",
    ]
    path = write_notebook(tmp_path / "learner.ipynb", cells)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[4].metadata["tags"] = ["raises-exception"]
    NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    stderr = "".join(o.get("text", "") for o in notebook.cells[4].outputs)
    assert stderr == (
        "UsageError: Not signed in: run %numjudge login (numjudge login on the command line), "
        "set NUMJUDGE_TOKEN, or pass token= to Client.\n"
    )
    assert "127.0.0.1:8000" not in nbformat.writes(notebook)
    (shown,) = [o for o in notebook.cells[6].outputs if o.output_type == "display_data"]
    assert shown.data["text/plain"].startswith(f"{EXERCISE} (submit): Passed"), shown.data
    (code,) = stored_codes(learner)
    assert code == f"import numpy as np\n\n\n# cell 3\n{SIGMOID}\n\n# cell 5\n{ENTRY}"


def kernel_error(client: Any, message_id: str) -> dict[str, Any]:
    """The error the kernel reported for the execution ``message_id``."""
    while True:
        message = client.get_iopub_msg(timeout=120)
        if message["parent_header"].get("msg_id") != message_id:
            continue
        if message["msg_type"] == "error":
            return dict(message["content"])
        if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            raise AssertionError("the cell ended without an error")


def test_a_kernel_interrupt_while_grading_gives_the_accepted_submission(
    learner: Learner, tmp_path: Path
) -> None:
    slow = "import time\ntime.sleep(4)\n" + exercise_file("solution.py")
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(tmp_path))
    try:
        cell = (
            f"from numjudge_client import Client\n"
            f"Client({learner.server.url!r}, {learner.token!r}).submit({EXERCISE!r}, {slow!r})"
        )
        message_id = client.execute(cell)
        while not stored_codes(learner):  # the server accepted it; the client waits on
            with contextlib.suppress(queue.Empty):
                client.get_iopub_msg(timeout=0.2)
        manager.interrupt_kernel()
        error = kernel_error(client, message_id)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert error["ename"] == "Interrupted"
    history = httpx.get(
        f"{learner.server.url}/submissions",
        headers={"Authorization": f"Bearer {learner.token}"},
        timeout=30,
    ).json()
    (submission,) = history
    assert error["evalue"] == (
        f"Interrupted: the submission was accepted (id {submission['id']}) and is graded on the "
        f"server all the same. Its result: client.result({submission['id']!r}) or "
        f"{learner.server.url}{submission['url']}."
    )
