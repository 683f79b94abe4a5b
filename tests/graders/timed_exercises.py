"""Exercise folders with rules on CPU time: a speed rule relative to the reference, and a
case with its own time limit (docs/authoring.md, "Speed rules" and "Time limits per case")."""

from __future__ import annotations

from pathlib import Path

from tests.graders.helpers import write
from tests.graders.typed_exercises import make_folder

GRAM_SOLUTION = """
def gram(x):
    return x @ x.T
"""

GRAM_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def two_rows(rng):
    return {"x": np.array([[1.0, 2.0], [3.0, 4.0]])}


@case(points=2, max_slowdown=5)
def large(rng):
    return {"x": rng.normal(size=(1100, 1100))}
"""

ENTRY_LOOP = """# expect: verdict=failed score=1 diagnosis=slow
import numpy as np


def gram(x):
    n = x.shape[0]
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            out[i, j] = x[i] @ x[j]
    return out
"""


def make_gram(root: Path) -> Path:
    """``gram(x) = x @ x.T`` whose hidden 1100 x 1100 case must take at most 5x the reference's
    CPU time; a sample that loops over the entries (1 210 000 row products, about 50x the
    reference) fails the rule."""
    folder = make_folder(
        root, "gram-matrix", "gram", "[limits]\ntime_s = 20\n", GRAM_SOLUTION, GRAM_CASES
    )
    write(folder / "samples" / "entry_loop.py", ENTRY_LOOP)
    return folder


CUMULATIVE_SOLUTION = """
import numpy as np


def running_total(x):
    return np.cumsum(x)
"""

CUMULATIVE_CASES = """
import numpy as np

from graders.cases import case


@case(public=True)
def short(rng):
    return {"x": np.array([1.0, 2.0, 3.0])}


@case(public=True, time_s=0.5)
def long(rng):
    return {"x": rng.normal(size=1000)}


@case(points=2)
def hidden_after(rng):
    return {"x": rng.normal(size=10)}
"""

SPINS_ON_LONG_INPUTS = """
import numpy as np


def running_total(x):
    while x.size > 100:
        pass
    return np.cumsum(x)
"""


def make_running_total(root: Path) -> Path:
    """``running_total(x)`` whose public case ``long`` has a limit of 0.5 s of CPU time, in
    an exercise whose whole submission may use 20 s."""
    return make_folder(
        root,
        "running-total",
        "running_total",
        "[limits]\ntime_s = 20\n",
        CUMULATIVE_SOLUTION,
        CUMULATIVE_CASES,
    )
