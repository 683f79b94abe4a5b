"""graders/checks/dynamic.py: code that computes what it runs or reaches is refused in any
exercise that declares rules (the tester's exec("for ...") in gru-candidate-state passed
23/23, issue 38)."""

from __future__ import annotations

import textwrap

import pytest

from graders.checks.rules import Rule, find_violations

REASON = "is dynamic code, which this exercise's rules cannot check"


def found(code: str, rule: str) -> list[str]:
    return [v.message for v in find_violations(textwrap.dedent(code), [Rule.parse(rule)])]


@pytest.mark.parametrize("rule", ["python-loop", "numpy.vectorize", "import:torch"])
@pytest.mark.parametrize(
    ("code", "written"),
    [
        ('exec("for i in range(3):\\n    y = i")', "exec"),
        ('y = eval("[v for v in x]")', "eval"),
        ('c = compile("x", "s", "eval")', "compile"),
        ('m = __import__("numpy")', "__import__"),
        ('import numpy as np\nf = getattr(np, "vec" + "torize")', "getattr with a computed name"),
        ("name = 'abs'\nok = hasattr(x, name)", "hasattr with a computed name"),
        ("g = getattr", "getattr with a computed name"),
        ("import importlib", "import importlib"),
        ("from builtins import exec as run", "from builtins import ..."),
        ("y = globals()['np']", "globals"),
        ("y = vars(np)['vectorize']", "vars"),
        ("y = np.__dict__['vectorize']", ".__dict__"),
        ("y = __builtins__", "__builtins__"),
        ("import sys\nsys.settrace(None)", ".settrace"),
        ("from operator import attrgetter", "from operator import attrgetter"),
        # Another thread's work is no count of the sandbox's at run time (a hostile tester's
        # ThreadPoolExecutor.map passed pairwise-distances); sys and gc reach the harness.
        ("import threading", "import threading"),
        ("from concurrent.futures import ThreadPoolExecutor", "from concurrent.futures import ..."),
        ("import gc", "import gc"),
        ("import sys", "import sys"),
    ],
)
def test_dynamic_code_is_refused_whatever_the_rules(code: str, written: str, rule: str) -> None:
    line = code.count("\n") + 1
    assert f"line {line}: {written} {REASON}" in found(code, rule)


def test_names_the_tree_shows_are_no_dynamic_code() -> None:
    code = """
        import numpy as np
        f = getattr(np, "tanh")
        ok = hasattr(x, "shape")
        y = np.einsum("ij,ij->i", x, x)
    """
    assert found(code, "python-loop") == []


def test_an_exercise_without_rules_allows_dynamic_code() -> None:
    assert find_violations('exec("for i in range(3): pass")', []) == []
