"""What a function object sends: its module, or the definitions of the notebook's cells."""

from __future__ import annotations

import sys
import types

import pytest
from IPython.core.interactiveshell import InteractiveShell
from numjudge_client import Client, SourceNotFound
from numjudge_client._source import code_of, definitions

CELLS = [
    "import numpy as np\nfrom numjudge_client import Client\nclient = Client.from_config()",
    "SCALE = 2.0\nLIMITS: tuple[int, int] = (0, 1)\nrows = np.ones(3)",
    "def gate(x):\n    return x * SCALE\n",
    "get_ipython().run_line_magic('numjudge', 'starter gru-update-gate')\ngate(np.ones(2))",
    "def broken(:\n",
    "@staticmethod\ndef gate(x):\n    # the second try\n    return x / SCALE\nprint(gate(1))",
]


def test_definitions_keep_imports_definitions_and_constants_the_last_one_winning() -> None:
    assert definitions(CELLS) == (
        "import numpy as np\n\nSCALE = 2.0\n\nLIMITS: tuple[int, int] = (0, 1)\n\n"
        "@staticmethod\ndef gate(x):\n    # the second try\n    return x / SCALE\n"
    )


def test_a_notebook_function_is_sent_as_the_cells_definitions() -> None:
    shell = InteractiveShell.instance()
    try:
        for cell in ["import math", "def area(r):\n    return math.pi * r * r", "area(2)"]:
            assert shell.run_cell(cell, store_history=True).success
        code, name = code_of(shell.user_ns["area"])
    finally:
        InteractiveShell.clear_instance()
    assert name == "area"
    assert code == "import math\n\ndef area(r):\n    return math.pi * r * r\n"


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

    public = {
        name
        for name in vars(numjudge_client)
        if not name.startswith("_") and name not in {"annotations", "TYPE_CHECKING"}
    }
    assert sorted(numjudge_client.__all__) == sorted(public)
