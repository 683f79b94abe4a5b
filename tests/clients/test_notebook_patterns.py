"""Ordinary notebook patterns in a real Jupyter kernel (nbclient) against a live server: what is
graded computes what the kernel's function computes on the public inputs, or nothing is sent
and the learner reads why (issue 40's table).

Each pattern is a notebook of its own whose last cell submits ``update_gate``. The kernel's
function is the exercise's reference (a correct GRU update gate) unless the pattern says it is
wrong; the test checks the verdict the server gave the code it stored, or that it stored none.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import nbformat
import pytest
from nbclient import NotebookClient
from sqlalchemy import select

from app.core.db import session_scope
from app.models import Submission
from tests.app.live import LiveServer
from tests.clients.conftest import EXERCISE, Learner, new_learner


class Expect(enum.Enum):
    PASSED = "the kernel's function is correct: the code graded passes every case"
    FAILED = "the kernel's function is wrong: the code graded fails"
    REFUSED = "nothing is sent, and the cell says why"


SIGMOID = "def sigmoid(z):\n    return 1.0 / (1.0 + np.exp(-z))\n"
JOINED = "joined = np.concatenate([h_prev, x_t], axis=-1)\n"


def entry(body: str) -> str:
    """``update_gate`` with ``z``, the gate's pre-activation, computed first."""
    return (
        f"def update_gate(x_t, h_prev, W_z, b_z):\n    {JOINED}    z = joined @ W_z.T + b_z\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
    )


SUBMIT = (
    f"from numjudge_client import Client\n\nClient.from_config().submit({EXERCISE!r}, update_gate)"
)


@dataclass(frozen=True)
class Pattern:
    cells: tuple[str, ...]
    expect: Expect
    reason: str = ""
    """For ``REFUSED``: what the learner reads."""
    raising: frozenset[int] = field(default_factory=frozenset)
    """Cells that raise as part of the pattern."""
    files: tuple[tuple[str, str], ...] = ()


PATTERNS = {
    # A cell raised before reaching its fixed def: the kernel still has the old, wrong sigmoid.
    "a cell raised before its def": Pattern(
        (
            "import numpy as np",
            "def sigmoid(z):\n    return 1.0 / (1.0 + np.exp(z))\n",
            entry("return sigmoid(z)"),
            "not_defined_yet\n" + SIGMOID,
        ),
        Expect.FAILED,
        raising=frozenset({3}),
    ),
    "an array changed in place": Pattern(
        (
            "import numpy as np",
            "OFFSET = np.array([1.0])",
            "OFFSET -= 1.0",
            "SCALE = np.zeros(2)",
            "for i in range(2):\n    SCALE[i] = 1.0",
            SIGMOID,
            entry("return sigmoid(SCALE[1] * z + OFFSET[0])"),
        ),
        Expect.PASSED,
    ),
    "a seeded draw, re-run": Pattern(
        (
            "import numpy as np",
            "np.random.seed(1)",
            "NOISE = np.random.uniform(size=1)",
            "NOISE = np.random.uniform(size=1)",  # the draw cell run a second time: 0.7203…
            SIGMOID,
            # stands for any use of the drawn values the function depends on
            entry("return sigmoid(z) if round(NOISE[0], 4) == 0.7203 else 1 - sigmoid(z)"),
        ),
        Expect.PASSED,
    ),
    "a star import": Pattern(
        (
            "from numpy import *",
            "def update_gate(x_t, h_prev, W_z, b_z):\n"
            "    joined = concatenate([h_prev, x_t], axis=-1)\n"
            "    z = sum(joined[..., None, :] * W_z, axis=-1) + b_z\n"
            "    return 1.0 / (1.0 + exp(-z))\n",
        ),
        Expect.PASSED,
    ),
    "a helper redefined after a constant was computed with it": Pattern(
        (
            "import numpy as np",
            "def helper(z):\n    return z * 0.0\n",
            "ZERO = helper(np.ones(1))",
            "def helper(z):\n    return 1.0 / (1.0 + np.exp(-z))\n",
            entry("return helper(z + ZERO[0])"),
        ),
        Expect.PASSED,
    ),
    "a helper rebound as a for target": Pattern(
        (
            "import numpy as np",
            "def act(z):\n    return np.tanh(z)\n",
            SIGMOID,
            "for act in [np.tanh, sigmoid]:\n    pass",
            entry("return act(z)"),
        ),
        Expect.PASSED,
    ),
    "a tuple assignment then an in-place division": Pattern(
        (
            "import numpy as np",
            "a, b = np.array([2.0]), np.array([1.0])",
            "a /= 2",
            SIGMOID,
            entry("return sigmoid(a[0] * b[0] * z)"),
        ),
        Expect.PASSED,
    ),
    "an array loaded from a file": Pattern(
        (
            "import numpy as np",
            "SHIFT = np.load('shift.npy')",
            SIGMOID,
            entry("return sigmoid(z + SHIFT[0])"),
        ),
        Expect.PASSED,
        files=(("shift.npy", "zero"),),
    ),
    "a dict built key by key": Pattern(
        (
            "import numpy as np",
            "PARAMS = {}",
            "PARAMS['shift'] = np.array([0.0])",
            SIGMOID,
            entry("return sigmoid(z + PARAMS['shift'][0])"),
        ),
        Expect.PASSED,
    ),
    # A helper imported from a local module, which the sandbox does not have.
    "a helper from a local module": Pattern(
        ("import numpy as np\nfrom helpers import sigmoid", entry("return sigmoid(z)")),
        Expect.PASSED,
        files=(("helpers.py", "import numpy as np\n\n\n" + SIGMOID),),
    ),
    # The entry imported from a local module whose file was edited after the import: the
    # kernel's function is correct; the file now is not. The sandbox has no helpers.py.
    "a local module edited on disk": Pattern(
        (
            "import numpy as np\nfrom helpers import update_gate",
            "from pathlib import Path\n\nPath('helpers.py').write_text("
            "Path('helpers.py').read_text().replace('-z', 'z'))",
        ),
        Expect.REFUSED,
        "Nothing was sent: helpers.py changed on disk since the kernel imported update_gate() "
        "from it, so the file is not the code that runs: restart the kernel and run all cells "
        "(or importlib.reload(helpers)), then submit again.",
        files=(("helpers.py", "import numpy as np\n\n\n" + entry("return 1 / (1 + np.exp(-z))")),),
    ),
    # What the rebuild cannot write out (an array too big to send as values, changed in place)
    # is caught by the guard, by the variable's name.
    "a big array changed in place": Pattern(
        (
            "import numpy as np",
            "BIG = np.zeros(5000)",
            "BIG[0] = 1.0",
            SIGMOID,
            entry("return sigmoid(BIG[0] * z)"),
        ),
        Expect.REFUSED,
        "Nothing was sent: BIG is an array of shape (5000,) (float64) [1. 0. ... 0. 0.] in this "
        "kernel but an array of shape (5000,) (float64) [0. 0. ... 0. 0.] in the code rebuilt "
        "from the cells, first at [0]: 1.0 in the kernel, 0.0 rebuilt (a cell changed it after "
        "it ran, or ran out of order): restart the kernel and run all cells, then submit again; "
        "or define BIG in the cell you submit.",
    ),
}
MAGIC_WITHOUT_ENTRY = Pattern(
    (
        "import numpy as np",
        SIGMOID,
        entry("return sigmoid(z)"),
        "%load_ext numjudge_client",
        f"%%numjudge submit {EXERCISE}\nSCALE = 2.0",
    ),
    Expect.REFUSED,
    "UsageError: This cell does not define update_gate(), which the exercise calls, so nothing "
    "was sent (the notebook's comes from another cell): define update_gate() in the cell you "
    "submit.",
)


@dataclass(frozen=True)
class Graded:
    verdict: str
    score: float
    code: str


def graded(learner: Learner) -> list[Graded]:
    """The learner's submissions as the server graded and stored them."""
    history = httpx.get(
        f"{learner.server.url}/submissions",
        headers={"Authorization": f"Bearer {learner.token}"},
        timeout=30,
    ).json()
    with session_scope(learner.server.database_url) as session:
        codes: dict[str, str] = dict(
            session.execute(
                select(Submission.id, Submission.code).where(
                    Submission.id.in_([row["id"] for row in history])
                )
            ).all()
        )
    return [Graded(row["verdict"], row["score"], codes[row["id"]]) for row in history]


def shown_error(notebook: nbformat.NotebookNode) -> str:
    """What the last cell showed as its error: a traceback's one line, or a UsageError."""
    outputs = notebook.cells[-1].outputs
    errors = ["\n".join(o.traceback) for o in outputs if o.output_type == "error"]
    return "".join(errors) + "".join(o.text for o in outputs if o.get("name") == "stderr")


def execute(
    pattern: Pattern, learner: Learner, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> nbformat.NotebookNode:
    import numpy as np

    for name, content in pattern.files:
        if name.endswith(".npy"):
            np.save(folder / name, np.zeros(1))
        else:
            (folder / name).write_text(content)
    monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(folder / "config"))
    monkeypatch.setenv("NUMJUDGE_SERVER", learner.server.url)
    monkeypatch.setenv("NUMJUDGE_TOKEN", learner.token)
    cells = [nbformat.v4.new_code_cell(c) for c in pattern.cells]
    if pattern is not MAGIC_WITHOUT_ENTRY:
        cells.append(nbformat.v4.new_code_cell(SUBMIT))
    for index in pattern.raising | (
        {len(cells) - 1} if pattern.expect is Expect.REFUSED else set()
    ):
        cells[index].metadata["tags"] = ["raises-exception"]
    notebook: nbformat.NotebookNode = nbformat.v4.new_notebook(cells=cells)
    NotebookClient(
        notebook, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(folder)}}
    ).execute()
    return notebook


@pytest.mark.parametrize(
    "pattern",
    [*PATTERNS.values(), MAGIC_WITHOUT_ENTRY],
    ids=[*PATTERNS, "a %%numjudge cell without the entry"],
)
def test_what_is_graded_is_what_ran_or_nothing_is_sent(
    pattern: Pattern,
    live_server: LiveServer,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    learner = new_learner(live_server, request)
    notebook = execute(pattern, learner, tmp_path, monkeypatch)
    submissions = graded(learner)
    if pattern.expect is Expect.REFUSED:
        assert submissions == []
        assert pattern.reason in shown_error(notebook), shown_error(notebook)
        return
    (submission,) = submissions
    assert not shown_error(notebook), shown_error(notebook)
    if pattern.expect is Expect.PASSED:
        assert (submission.verdict, submission.score) == ("passed", 26.0), submission.code
    else:
        assert submission.verdict != "passed", submission.code
