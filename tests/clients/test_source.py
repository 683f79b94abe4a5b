"""What a function object sends: its module, or the definitions of the notebook's cells."""

from __future__ import annotations

import sys
import types

import pytest
from IPython.core.interactiveshell import InteractiveShell
from numjudge_client import Client, SourceNotFound
from numjudge_client._source import code_of

CELLS = [
    "import numpy as np\nimport math, json\nfrom numjudge_client import Client\n"
    "client = Client.from_config()",
    "SCALE = 2.0\nLIMITS: tuple[int, int] = (0, 1)\nrows = np.ones(3)\n"
    "STEPS = [1]\nSTEPS.append(2)",
    "def gate(x):\n    return x * SCALE\n",
    "get_ipython().run_line_magic('numjudge', 'starter gru-update-gate')\ngate(np.ones(2))",
    "def broken(:\n",
    "@staticmethod\ndef gate(x):\n    # the second try\n    rows = 3\n    return x / SCALE + rows\n"
    "print(gate(1))",
    "class Layer:\n    size = LIMITS[1]\n\n    def forward(self, x):\n"
    "        return [math.tanh(v) for v in x] + STEPS\n",
    "def solve(x):\n    return Layer().forward(gate(x))",
]


def run(cells: list[str]) -> InteractiveShell:
    shell = InteractiveShell.instance()
    for cell in cells:
        shell.run_cell(cell, store_history=True)
    return shell


def test_a_function_is_sent_with_what_it_reads_the_last_definition_winning() -> None:
    try:
        shell = run(CELLS)
        sent, name = code_of(shell.user_ns["solve"])
    finally:
        InteractiveShell.clear_instance()
    assert name == "solve"
    assert sent.code == (
        "import math\n\n\n"
        "# In [2]\nSCALE = 2.0\nLIMITS: tuple[int, int] = (0, 1)\n"
        "STEPS = [1, 2]  # the notebook's value of [1]\n\n\n"
        "# In [6]\n@staticmethod\ndef gate(x):\n    # the second try\n    rows = 3\n"
        "    return x / SCALE + rows\n\n\n"
        "# In [7]\nclass Layer:\n    size = LIMITS[1]\n\n    def forward(self, x):\n"
        "        return [math.tanh(v) for v in x] + STEPS\n\n\n"
        "# In [8]\ndef solve(x):\n    return Layer().forward(gate(x))\n"
    )
    assert sent.where(1) == "line 2 of In [1]"  # `import math, json`, math alone
    assert sent.where(12) == "line 2 of In [6]"
    assert sent.locate("raised on line 12 (line 28, in solve)") == (
        "raised on line 2 of In [6] (line 2 of In [8], in solve)"
    )
    assert sent.where(3) is None  # a line the client wrote (blank), left as it is


def test_computed_values_are_sent_as_literals_or_recomputed() -> None:
    cells = [
        "import numpy as np",
        "LIMIT = np.log(np.finfo(float).max)\nWEIGHTS = np.arange(3.0)\nBIG = np.zeros(2000)\n"
        "INF = float('inf')",
        "def clip(x):\n    return np.clip(x, -LIMIT, LIMIT) * WEIGHTS + INF + BIG[0]",
    ]
    try:
        sent, _ = code_of(run(cells).user_ns["clip"])
    finally:
        InteractiveShell.clear_instance()
    assert sent.code == (
        "import numpy as np\n\n\n# In [2]\n"
        "LIMIT = 709.782712893384  # the notebook's value of np.log(np.finfo(float).max)\n"
        "WEIGHTS = np.array([0.0, 1.0, 2.0], dtype='float64')  # the notebook's value of "
        "np.arange(3.0)\nBIG = np.zeros(2000)\nINF = float('inf')\n\n\n"
        "# In [3]\ndef clip(x):\n    return np.clip(x, -LIMIT, LIMIT) * WEIGHTS + INF + BIG[0]\n"
    )


def test_a_name_made_where_the_client_cannot_see_it_is_refused_in_words() -> None:
    cells = ["for k in range(2):\n    OFFSET = k", "def shift(x):\n    return x + OFFSET"]
    try:
        shell = run(cells)
        with pytest.raises(SourceNotFound, match="Cannot send OFFSET: no cell binds it"):
            code_of(shell.user_ns["shift"])
    finally:
        InteractiveShell.clear_instance()


def test_a_function_without_source_is_refused_in_words() -> None:
    module = types.ModuleType("made_in_memory")
    exec("def solve(x):\n    return x\n", module.__dict__)  # no file behind it
    sys.modules[module.__name__] = module
    try:
        with pytest.raises(
            SourceNotFound,
            match=r"Cannot read the source of solve\(\) from "
            r"made_in_memory: .*Pass the code as a string",
        ):
            code_of(module.solve)
    finally:
        del sys.modules[module.__name__]
    with pytest.raises(SourceNotFound, match="a function defined with `def`"):
        code_of(lambda x: x)
    with (
        Client("http://127.0.0.1:9") as client,
        pytest.raises(SourceNotFound, match="a function defined with `def`"),
    ):
        client.submit("gru-update-gate", print)


def test_all_names_what_the_package_exports() -> None:
    import numjudge_client

    # A submodule is an attribute once anything imports it (``numjudge_client.cli``: the
    # server's ``numjudge submit``), not an export.
    public = {
        name
        for name, value in vars(numjudge_client).items()
        if not name.startswith("_")
        and name not in {"annotations", "TYPE_CHECKING"}
        and not isinstance(value, types.ModuleType)
    }
    assert sorted(numjudge_client.__all__) == sorted(public)
