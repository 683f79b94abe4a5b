"""Whole-notebook mode, as nbgrader and Otter grade: the notebook's file runs top to bottom in a
fresh kernel on the learner's machine, and what is sent is the exercise's entry as that run
defines it, built and checked (``_guard``) inside that kernel.

The run skips the cells that use numjudge (``%numjudge``, ``%load_ext numjudge_client``, an
import of ``numjudge_client``): they would sign in or submit. A ``%%numjudge run|submit`` cell
runs its body. The kernel starts in the notebook's folder with no token and an empty config
folder, so nothing in the run itself can reach the server. Cells are named by their place in
the file (``cell 4``), as the learner sees them, not by the run's execution counts.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from numjudge_client._errors import NotebookFailed, NotWhatRan, NumjudgeError
from numjudge_client._guard import check
from numjudge_client._inputs import PublicCase
from numjudge_client._language import Language, say
from numjudge_client._sent import Origin, SentCode

USES_NUMJUDGE = re.compile(
    r"^\s*%(?!%)numjudge\b|%load_ext\s+numjudge_client|numjudge_client", re.M
)
GRADED_CELL = re.compile(r"\A\s*%%numjudge\s+(run|submit)\b[^\n]*\n?")
RUN_TIMEOUT_S = 600


def cells_to_run(sources: Sequence[str]) -> list[tuple[int, str]]:
    """Each code cell to run, with its index in the file: a ``%%numjudge`` cell's body, and
    none of the cells that use numjudge."""
    chosen = []
    for index, source in enumerate(sources):
        graded = GRADED_CELL.match(source)
        if graded is not None:
            chosen.append((index, source[graded.end() :]))
        elif not USES_NUMJUDGE.search(source):
            chosen.append((index, source))
    return chosen


def run_notebook(
    path: Path,
    entries: Sequence[str],
    cases: Sequence[PublicCase],
    language: Language = Language.EN,
) -> SentCode:
    """The code of ``entries`` as ``path`` run top to bottom in a fresh kernel defines them,
    checked on ``cases`` there; ``NotebookFailed`` or ``NotWhatRan`` says why not."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    try:
        original = nbformat.read(path, as_version=4)
    except (OSError, ValueError) as exc:
        raise NotebookFailed(
            "Cannot read the notebook {path}: {error}", language, path=path, error=exc
        ) from None
    code_cells = [cell for cell in original.cells if cell.cell_type == "code"]
    positions = {id(cell): n + 1 for n, cell in enumerate(original.cells)}
    chosen = cells_to_run([cell.source for cell in code_cells])
    with tempfile.TemporaryDirectory(prefix="numjudge-notebook-") as folder:
        job = Path(folder)
        (job / "cases.pickle").write_bytes(pickle.dumps(list(cases)))
        cells = [nbformat.v4.new_code_cell(body) for _, body in chosen]
        cells.append(
            nbformat.v4.new_code_cell(
                f"__import__('numjudge_client._notebook', fromlist=['_']).collect("
                f"{list(entries)!r}, {str(job)!r}, {language.value!r})"
            )
        )
        run = nbformat.v4.new_notebook(cells=cells, metadata=original.metadata)
        kernel = original.metadata.get("kernelspec", {}).get("name") or "python3"
        environment = {k: v for k, v in os.environ.items() if k != "NUMJUDGE_TOKEN"}
        environment["NUMJUDGE_CONFIG_DIR"] = str(job / "config")
        client = NotebookClient(
            run,
            kernel_name=kernel,
            timeout=RUN_TIMEOUT_S,
            resources={"metadata": {"path": str(path.resolve().parent)}},
        )
        try:
            client.execute(env=environment)
        except CellExecutionError as exc:
            failed = next(n for n, cell in enumerate(run.cells) if _raised(cell))
            if failed == len(chosen):  # the client's own cell: numjudge_client is missing there
                raise NotebookFailed(
                    "The notebook ran, but its kernel ({kernel}) cannot check what to send: "
                    "{error}: {detail}. Install numjudge_client in that kernel's environment.",
                    language,
                    kernel=kernel,
                    error=exc.ename,
                    detail=exc.evalue,
                ) from None
            raise NotebookFailed(
                "Nothing was sent: cell {place} of {notebook} raised {error}: {detail} when the "
                "notebook ran top to bottom in a fresh kernel (as Restart & Run All does): fix "
                "it, save the notebook and submit again.",
                language,
                place=positions[id(code_cells[chosen[failed][0]])],
                notebook=path.name,
                error=exc.ename,
                detail=exc.evalue,
            ) from None
        report = json.loads((job / "report.json").read_text(encoding="utf-8"))
    if report.get("refused"):
        raise NotWhatRan(str(report["refused"]))
    labels = {
        f"In [{cell.execution_count}]": f"cell {positions[id(code_cells[index])]}"
        for cell, (index, _) in zip(run.cells, chosen, strict=False)
        if cell.execution_count is not None
    }
    origins = tuple(Origin(*origin) for origin in report["origins"])
    return SentCode(report["code"], origins).relabelled(labels)


def _raised(cell: Any) -> bool:
    return any(output.output_type == "error" for output in cell.get("outputs", []))


def collect(entries: list[str], folder: str, language_code: str = Language.EN.value) -> None:
    """In the fresh kernel, after the run: the code to send for ``entries``, checked against
    the kernel's function, written to ``folder/report.json`` (or why not, in the language
    ``language_code`` names)."""
    from IPython import get_ipython

    from numjudge_client._source import entry_code, from_cells, notebook_cells

    namespace = get_ipython().user_ns
    job = Path(folder)
    language = Language(language_code)
    report: dict[str, Any]
    missing = [entry for entry in entries if entry not in namespace]
    try:
        if missing:
            names = " and ".join(f"{name}()" for name in missing)
            raise NotWhatRan(
                say(
                    "Nothing was sent: the notebook, run top to bottom, does not define "
                    "{names}, which the exercise calls.",
                    language,
                    names=names,
                )
            )
        if len(entries) == 1:
            function = namespace[entries[0]]
            sent = entry_code(function, entries)
            cases = pickle.loads((job / "cases.pickle").read_bytes())
            check(sent, entries[0], function, function.__globals__, cases, language)
        else:
            sent = from_cells(notebook_cells() or [], namespace, entries)
        report = {"code": sent.code, "origins": [list(vars(o).values()) for o in sent.origins]}
    except NumjudgeError as exc:
        report = {"refused": str(exc.said_in(language))}
    (job / "report.json").write_text(json.dumps(report), encoding="utf-8")
