"""graders/mutation/runs.py: mutants run in a limited subprocess, their outputs cached."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.checks.compare import Tolerance
from graders.mutation import runs as mutant_runs
from graders.mutation.mutants import make_mutants
from graders.mutation.runs import mutants_of, probes, run_mutants


@pytest.mark.slow
def test_mutants_run_in_a_limited_subprocess_and_are_cached(tmp_path: Path) -> None:
    reference = "def f(x):\n    return x + 1.0\n"
    sources = [
        "def f(x):\n    return x\n",
        "def f(x):\n    while True:\n        pass\n",
        "def f(x):\n    return bytearray(1 << 40)\n",
        "def f(x):\n    return x + 1.0 + 0.0 * x\n",
        "def f(x):\n    return x.reshape(3) + 1.0\n",
    ]
    inputs = [{"x": np.arange(3.0)}, {"x": np.ones(2)}]
    cache = tmp_path / "runs.frame"
    keys = ["drop", "loop", "memory", "same", "reshape"]
    arguments = {
        "reference": reference,
        "sources": sources,
        "entry": "f",
        "inputs": inputs,
        "tolerances": [Tolerance()] * 2,
        "time_s": 1.0,
        "memory_mb": 512,
        "keys": keys,
        "cache_file": cache,
    }
    runs = run_mutants(**arguments)  # type: ignore[arg-type]
    np.testing.assert_array_equal(runs.outputs["drop"][0], np.arange(3.0))
    assert runs.outputs["loop"] == (None, None)  # stopped by the time limit
    assert runs.outputs["memory"] == (None, None)  # stopped by the memory limit
    assert runs.outputs["reshape"][1] is None
    # What each raised, by type (and the numpy operation that failed): running out of time or
    # memory is no exception of the code's.
    assert runs.raised == {
        "drop": (None, None),
        "loop": (None, None),
        "memory": (None, None),
        "same": (None, None),
        "reshape": (None, "ValueError:reshape"),
    }
    assert runs.probe_differs == {
        "drop": True,
        "loop": True,
        "memory": True,
        "same": False,
        "reshape": True,
    }
    assert cache.is_file()
    again = run_mutants(**{**arguments, "sources": ["this is not run"] * 5})  # type: ignore[arg-type]
    np.testing.assert_array_equal(again.outputs["drop"][1], np.ones(2))
    assert (again.raised, again.probe_differs) == (runs.raised, runs.probe_differs)


@pytest.mark.slow
def test_mutants_whose_process_runs_out_of_memory_say_so(tmp_path: Path) -> None:
    # The process dies as when it runs out of memory holding every output at once (its
    # traceback's last line); an exception inside a mutant is caught there, so a mutant ends
    # the process by exiting itself.
    cache = tmp_path / "runs.frame"
    dies = (
        "import os, sys\nsys.stderr.write('Traceback ...\\nMemoryError\\n')\n"
        "sys.stderr.flush()\nos._exit(1)\n"
    )
    runs = run_mutants(
        reference="def f(x):\n    return x\n",
        sources=[dies],
        entry="f",
        inputs=[{"x": np.ones(3)}],
        tolerances=[Tolerance()],
        time_s=5.0,
        memory_mb=256,
        keys=["dies"],
        cache_file=cache,
    )
    assert (runs.outputs, runs.raised, runs.probe_differs) == ({}, {}, {})
    assert runs.failure == (
        "the mutants could not be run: they ran out of memory (MemoryError) within [limits] "
        "memory_mb = 256, which holds every case's inputs twice (with their probes), the "
        "batched cases' single examples and every mutant's outputs on them; make the largest "
        "cases smaller or raise memory_mb in exercise.toml"
    )
    assert not cache.exists()  # tried again at the next preparation
    crash = dies.replace("MemoryError", "SystemError: boom").replace("_exit(1)", "_exit(3)")
    runs = run_mutants(
        reference="def f(x):\n    return x\n",
        sources=[crash],
        entry="f",
        inputs=[{"x": np.ones(3)}],
        tolerances=[Tolerance()],
        time_s=5.0,
        memory_mb=256,
        keys=["crash"],
        cache_file=None,
    )
    assert runs.failure == (
        "the mutants could not be run: their process ended with exit status 3 (SystemError: boom)"
    )


def test_probes_add_noise_to_float_arrays_inside_containers_too() -> None:
    rng = np.random.default_rng(1)
    case: dict[str, Any] = {
        "params": {"w": np.ones(3), "steps": np.arange(3)},
        "layers": [np.zeros(2), (np.ones(2), "tanh")],
        "rng": rng,
        "lr": 0.5,
    }
    (probe,) = probes([case])
    assert not np.array_equal(probe["params"]["w"], case["params"]["w"])
    assert probe["params"]["steps"] is case["params"]["steps"]  # integers are indices
    assert not np.array_equal(probe["layers"][0], np.zeros(2))
    assert not np.array_equal(probe["layers"][1][0], np.ones(2))
    assert type(probe["layers"][1]) is tuple and probe["layers"][1][1] == "tanh"
    assert (probe["rng"], probe["lr"]) == (rng, 0.5)


@pytest.mark.slow
def test_a_probe_of_a_property_case_tells_a_mutant_apart_by_its_checks() -> None:
    # Any unit vector along x is right: the sign is free.
    def along_x(inputs: Mapping[str, Any], got: Any) -> bool:
        x = inputs["x"]
        return bool(np.isclose(abs(got @ x), np.linalg.norm(x)) and np.isclose(got @ got, 1.0))

    runs = run_mutants(
        reference="def f(x):\n    return x / (x @ x) ** 0.5\n",
        sources=[
            "def f(x):\n    return -x / (x @ x) ** 0.5\n",  # another right answer
            "def f(x):\n    return x\n",  # not of unit length
        ],
        entry="f",
        inputs=[{"x": np.array([3.0, 4.0])}],
        tolerances=[Tolerance()],
        time_s=5.0,
        memory_mb=512,
        keys=["negated", "unscaled"],
        cache_file=None,
        checks=[along_x],
    )
    assert runs.probe_differs == {"negated": False, "unscaled": True}


@pytest.mark.slow
def test_a_mutant_is_limited_by_its_cpu_time_not_by_the_wall_clock(tmp_path: Path) -> None:
    """A busy host slows a mutant without stopping it: what it gives (and what is cached for
    the version) does not depend on the load. Waiting stands in for a host that runs it slowly."""
    runs = run_mutants(
        reference="def f(x):\n    return x + 1.0\n",
        sources=["import time\ndef f(x):\n    time.sleep(0.8)\n    return x\n"],
        entry="f",
        inputs=[{"x": np.arange(3.0)}, {"x": np.ones(2)}],
        tolerances=[Tolerance()] * 2,
        time_s=1.0,
        memory_mb=512,
        keys=["slow"],
        cache_file=tmp_path / "runs.frame",
    )
    np.testing.assert_array_equal(runs.outputs["slow"][1], np.ones(2))


def test_mutants_are_made_once_per_cache_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = "import numpy as np\n\ndef f(x, w):\n    return np.tanh(x @ w.T) + 1.0\n"
    cache = tmp_path / "mutants.json"
    made = mutants_of(reference, "f", cache)
    assert made == tuple(make_mutants(reference, "f")) and len(made) > 1
    assert cache.is_file()

    def made_again(source: str, entry: str) -> list[object]:
        raise AssertionError("the cached mutants were made again")

    with monkeypatch.context() as patched:
        patched.setattr(mutant_runs, "make_mutants", made_again)
        assert mutants_of(reference, "f", cache) == made
    # A file this engine did not write is no cache: the mutants are made, and it is replaced.
    cache.write_text('[["key", "no such operator", 1, 0, "meaning", "source"]]')
    assert mutants_of(reference, "f", cache) == made
    assert mutants_of(reference, "f", None) == made
