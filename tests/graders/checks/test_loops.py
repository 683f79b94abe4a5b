"""graders/checks/loops.py: a Python loop is refused however it is spelled, on the syntax
tree (the tester's spellings of issue 38: map with a lambda, np.vectorize per pair)."""

from __future__ import annotations

import textwrap

import pytest

from graders.api import load_exercise
from graders.checks.rules import Rule, find_violations
from tests.graders.helpers import EXERCISES


def found(code: str) -> list[str]:
    rules = [Rule.parse("python-loop")]
    return [v.message for v in find_violations(textwrap.dedent(code), rules)]


@pytest.mark.parametrize(
    ("code", "written"),
    [
        ("import numpy as np\ny = np.array(list(map(lambda r: r @ r, x)))", "map with a lambda"),
        ("def sq(r):\n    return r @ r\ny = list(map(sq, x))", "map of sq"),
        ("y = list(filter(lambda r: r > 0, x))", "filter with a lambda"),
        ("import numpy as np\ny = list(map(np.sqrt, x))", "map of np.sqrt"),
        (
            "import numpy as np\ny = np.vectorize(lambda a, b: a - b)(x, z)",
            "np.vectorize with a lambda",
        ),
        ("import numpy as np\ny = np.frompyfunc(abs, 1, 1)(x)", "np.frompyfunc of abs"),
        ("from numpy import vectorize as v\ny = v(abs)(x)", "v of abs"),
        (
            "import functools\ny = functools.reduce(lambda a, b: a + b, x)",
            "functools.reduce with a lambda",
        ),
        ("from functools import reduce\ny = reduce(max, x)", "reduce of max"),
        ("from itertools import starmap\ny = list(starmap(pow, x))", "starmap of pow"),
        (
            "import numpy as np\ny = np.apply_along_axis(np.sum, 1, x)",
            "np.apply_along_axis of np.sum",
        ),
    ],
)
def test_a_per_element_caller_is_a_loop_whatever_it_applies(code: str, written: str) -> None:
    line = code.count("\n") + 1
    assert found(code) == [f"line {line}: a Python loop ({written})"]


def test_a_per_element_caller_is_found_where_it_is_named_not_only_called() -> None:
    code = """
        import numpy as np
        m, v = map, np.vectorize
        y = list(m(abs, x)) + v(abs)(x)
    """
    assert found(code) == [
        "line 3: a Python loop (map)",
        "line 3: a Python loop (np.vectorize)",
    ]


def test_recursion_is_a_loop_at_the_call_that_closes_the_cycle() -> None:
    code = """
        def total(x, i=0):
            return 0 if i == len(x) else x[i] + total(x, i + 1)

        def even(n):
            return n == 0 or odd(n - 1)

        def odd(n):
            return n != 0 and even(n - 1)

        class Walker:
            def walk(self, x):
                return x if x.ndim == 1 else self.walk(x[0])
    """
    assert found(code) == [
        "line 3: a Python loop (recursion: total calls itself)",
        "line 6: a Python loop (recursion: even calls odd, which calls back)",
        "line 9: a Python loop (recursion: odd calls even, which calls back)",
        "line 13: a Python loop (recursion: walk calls itself)",
    ]


def test_calls_without_a_cycle_and_shadowed_builtins_are_no_loops() -> None:
    code = """
        import numpy as np

        def norms(x):
            return np.sqrt((x * x).sum(axis=-1))

        def distances(a, b):
            inner = lambda u, v: u @ v.T
            return norms(a)[:, None] + norms(b)[None, :] - 2 * inner(a, b)

        def outer():
            def inner():
                return outer
            return inner

        map = dict
        y = map(a=1)
        z = np.add.reduce(x)
    """
    assert found(code) == []


PAIRWISE_MAP = """\
import numpy as np


def pairwise_distances(X, Y):
    return np.array(list(map(lambda x: np.sqrt(((x - Y) ** 2).sum(axis=1)), X)))
"""
PAIRWISE_VECTORIZE = """\
import numpy as np


def pairwise_distances(X, Y):
    i, j = np.indices((len(X), len(Y)))
    one = np.vectorize(lambda a, b: np.sqrt(((X[a] - Y[b]) ** 2).sum()))
    return one(i, j)
"""
GRU_EXEC = """\
import numpy as np


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    scope = {"np": np, "x": np.concatenate([r_t * h_prev, x_t], axis=-1), "W": W_h, "b": b_h}
    exec("out = []\\nfor row in np.atleast_2d(x):\\n    out.append(np.tanh(W @ row + b))", scope)
    return np.array(scope["out"]).reshape(h_prev.shape)
"""


@pytest.mark.parametrize(
    ("slug", "code", "message"),
    [
        ("pairwise-distances", PAIRWISE_MAP, "line 5: a Python loop (map with a lambda)"),
        (
            "pairwise-distances",
            PAIRWISE_VECTORIZE,
            "line 6: a Python loop (np.vectorize with a lambda)",
        ),
        (
            "gru-candidate-state",
            GRU_EXEC,
            "line 6: exec is dynamic code, which this exercise's rules cannot check",
        ),
    ],
)
def test_the_testers_submissions_are_refused_by_the_exercises_own_rules(
    slug: str, code: str, message: str
) -> None:
    forbid = load_exercise(EXERCISES / slug).forbid
    assert message in [v.message for v in find_violations(code, forbid)]
