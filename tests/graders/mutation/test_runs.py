"""graders/mutation/runs.py: mutants run in a limited subprocess, their outputs cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from graders.checks.compare import Tolerance
from graders.mutation.runs import run_mutants


def test_mutants_run_in_a_limited_subprocess_and_are_cached(tmp_path: Path) -> None:
    reference = "def f(x):\n    return x + 1.0\n"
    sources = ["def f(x):\n    return x\n",
               "def f(x):\n    while True:\n        pass\n",
               "def f(x):\n    return bytearray(1 << 40)\n",
               "def f(x):\n    return x + 1.0 + 0.0 * x\n",
               "def f(x):\n    return x.reshape(3) + 1.0\n"]
    inputs = [{"x": np.arange(3.0)}, {"x": np.ones(2)}]
    cache = tmp_path / "runs.frame"
    keys = ["drop", "loop", "memory", "same", "reshape"]
    arguments = {"reference": reference, "sources": sources, "entry": "f", "inputs": inputs,
                 "tolerances": [Tolerance()] * 2, "time_s": 1.0, "memory_mb": 512,
                 "keys": keys, "cache_file": cache}
    runs = run_mutants(**arguments)  # type: ignore[arg-type]
    np.testing.assert_array_equal(runs.outputs["drop"][0], np.arange(3.0))
    assert runs.outputs["loop"] == (None, None)       # stopped by the time limit
    assert runs.outputs["memory"] == (None, None)     # stopped by the memory limit
    assert runs.outputs["reshape"][1] is None
    # What each raised, by type (and the numpy operation that failed): running out of time or
    # memory is no exception of the code's.
    assert runs.raised == {"drop": (None, None), "loop": (None, None), "memory": (None, None),
                           "same": (None, None), "reshape": (None, "ValueError:reshape")}
    assert runs.probe_differs == {"drop": True, "loop": True, "memory": True, "same": False,
                                  "reshape": True}
    assert cache.is_file()
    again = run_mutants(**{**arguments, "sources": ["this is not run"] * 5})  # type: ignore[arg-type]
    np.testing.assert_array_equal(again.outputs["drop"][1], np.ones(2))
    assert (again.raised, again.probe_differs) == (runs.raised, runs.probe_differs)
