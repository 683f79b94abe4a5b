"""graders/checks/rules.py: what an exercise forbids, found on the code's syntax tree."""

from __future__ import annotations

import re
import textwrap

import pytest

from graders.api import load_exercise
from graders.checks.rules import (
    MAX_LISTED,
    MAX_SOURCE_CHARS,
    Rule,
    RuleKind,
    Unreadable,
    find_violations,
    violations_message,
)
from graders.messages import is_known, translate_message
from tests.graders.helpers import EXERCISES, REPO


def found(code: str, *rules: str) -> list[str]:
    return [
        v.message
        for v in find_violations(textwrap.dedent(code), [Rule.parse(rule) for rule in rules])
    ]


# --- declaring rules ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "target", "description"),
    [
        (
            "python-loop",
            RuleKind.CONSTRUCT,
            "python-loop",
            "Python loops (for, while, comprehensions, map, filter, reduce, np.vectorize, "
            "np.frompyfunc, recursion)",
        ),
        ("import:scipy", RuleKind.IMPORT, "scipy", "importing scipy"),
        ("import:numpy.linalg", RuleKind.IMPORT, "numpy.linalg", "importing numpy.linalg"),
        ("numpy.linalg.inv", RuleKind.NAME, "numpy.linalg.inv", "numpy.linalg.inv"),
    ],
)
def test_rules_are_parsed_and_described(
    text: str, kind: RuleKind, target: str, description: str
) -> None:
    rule = Rule.parse(text)
    assert (rule.kind, rule.target, rule.text, rule.description) == (
        kind,
        target,
        text,
        description,
    )


@pytest.mark.parametrize(
    "text", ["loops", "inv", "import:", "import:9lives", "numpy..inv", "numpy.linalg.inv()", ""]
)
def test_anything_else_is_refused_with_what_is_accepted(text: str) -> None:
    with pytest.raises(
        ValueError,
        match="use one of python-loop, complex-number, 'import:<module>' or a dotted name",
    ):
        Rule.parse(text)


# --- python-loop --------------------------------------------------------------------------


def test_every_kind_of_python_loop_is_named_with_its_line() -> None:
    code = """
        def f(x):
            for row in x:
                pass
            while False:
                pass
            a = [v for v in x]
            b = {v for v in x}
            c = {v: v for v in x}
            return sum(v for v in x)
    """
    assert found(code, "python-loop") == [
        "line 3: a Python loop (for)",
        "line 5: a Python loop (while)",
        "line 7: a Python loop (list comprehension)",
        "line 8: a Python loop (set comprehension)",
        "line 9: a Python loop (dict comprehension)",
        "line 10: a Python loop (generator expression)",
    ]


def test_vectorised_code_keeps_the_rule() -> None:
    code = """
        import numpy as np
        def f(x, W):
            return np.tanh(x @ W.T).sum(axis=-1)
    """
    assert found(code, "python-loop", "numpy.linalg.inv", "import:scipy") == []


# --- dotted names, however imported -------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "written"),
    [
        ("import numpy as np\ny = np.linalg.inv(a)", "np.linalg.inv"),
        ("import numpy\ny = numpy.linalg.inv(a)", "numpy.linalg.inv"),
        ("import numpy.linalg\ny = numpy.linalg.inv(a)", "numpy.linalg.inv"),
        ("import numpy.linalg as la\ny = la.inv(a)", "la.inv"),
        ("from numpy import linalg\ny = linalg.inv(a)", "linalg.inv"),
        ("from numpy.linalg import inv\ny = inv(a)", "inv"),
        ("from numpy.linalg import inv as invert\ny = invert(a)", "invert"),
        ("import numpy as np\ninvert = np.linalg.inv", "np.linalg.inv"),
        ("import numpy as np\ny = getattr(np.linalg, 'inv')(a)", "getattr(np.linalg, 'inv')"),
        ("import numpy as np\ny = np.linalg.inv(a).T", "np.linalg.inv"),
    ],
)
def test_a_forbidden_name_is_found_through_its_aliases(code: str, written: str) -> None:
    message = f"line 2: {written}" + (
        "" if written == "numpy.linalg.inv" else " is numpy.linalg.inv"
    )
    assert found(code, "numpy.linalg.inv") == [message]


def test_a_module_rule_covers_every_name_under_it_and_nothing_beside() -> None:
    code = """
        import numpy as np
        x = np.linalg.solve(a, b)
        y = np.linalg.norm(a)
        z = np.linalg
        w = np.lib.linalg_helper
    """
    assert found(code, "numpy.linalg") == [
        "line 3: np.linalg.solve is numpy.linalg.solve",
        "line 4: np.linalg.norm is numpy.linalg.norm",
        "line 5: np.linalg is numpy.linalg",
    ]


def test_other_names_and_unimported_ones_are_not_uses() -> None:
    code = """
        import numpy as np
        def inv(a):
            return np.linalg.pinv(a)
        la = object()
        y = inv(a) + la.inv
    """
    assert found(code, "numpy.linalg.inv") == []


def test_a_star_import_of_a_forbidden_name_is_its_use() -> None:
    assert found("from numpy.linalg import *\ny = inv(a)", "numpy.linalg.inv") == [
        "line 1: from numpy.linalg import * is numpy.linalg.inv"
    ]
    assert found("from numpy import *\n", "numpy.linalg.inv") == [
        "line 1: from numpy import * is numpy.linalg.inv"
    ]
    assert found("from numpy.fft import *\n", "numpy.linalg.inv") == []


def test_every_spelling_on_a_line_is_named_once() -> None:
    code = "import numpy as np\nfrom numpy.linalg import inv\ny = inv(np.linalg.inv(inv(a)))\n"
    assert found(code, "numpy.linalg.inv") == [
        "line 3: inv is numpy.linalg.inv",
        "line 3: np.linalg.inv is numpy.linalg.inv",
    ]


# --- imports ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "written"),
    [
        ("import scipy", "import scipy"),
        ("import scipy.special as sp", "import scipy.special"),
        ("from scipy import special", "from scipy import special"),
        ("from scipy.special import expit", "from scipy.special import expit"),
        ("from scipy.special import *", "from scipy.special import *"),
        ("x = __import__('scipy.special')", "__import__('scipy.special')"),
        (
            "import importlib\nx = importlib.import_module('scipy')",
            "importlib.import_module('scipy')",
        ),
    ],
)
def test_importing_a_forbidden_module_is_found_in_any_form(code: str, written: str) -> None:
    line = code.count("\n") + 1
    # __import__ and importlib are dynamic code besides (tests/graders/checks/test_dynamic.py)
    assert f"line {line}: {written} imports scipy" in found(code, "import:scipy")


def test_a_module_whose_name_only_starts_alike_is_allowed() -> None:
    assert found("import scipyx\nimport numpy.linalg\n", "import:scipy") == []
    assert found("from numpy import linalg\n", "import:numpy.linalg") == [
        "line 1: from numpy import linalg imports numpy.linalg"
    ]


# --- untrusted code -----------------------------------------------------------------------


def test_code_that_does_not_parse_is_left_to_the_sandbox() -> None:
    assert found("for x in y\n    pass\n", "python-loop") == []
    assert found("x = 1\0\n", "python-loop") == []


@pytest.mark.parametrize("code", ["-" * 100_000 + "1", "x = " + "a." * 30_000 + "b"])
def test_code_nested_beyond_the_parser_is_not_let_through(code: str) -> None:
    with pytest.raises(Unreadable, match="nested too deeply"):
        find_violations(code, [Rule.parse("python-loop")])


def test_code_longer_than_the_bound_is_not_parsed() -> None:
    with pytest.raises(Unreadable, match="longer than"):
        find_violations("#" * (MAX_SOURCE_CHARS + 1), [Rule.parse("python-loop")])


def test_without_rules_nothing_is_parsed() -> None:
    assert find_violations("-" * 100_000 + "1", []) == []


def test_a_long_chain_is_read_without_recursion_and_clipped() -> None:
    code = "import numpy as np\ny = np.linalg" + ".x" * 900 + "\n"
    (message,) = found(code, "numpy.linalg")
    assert message.startswith("line 2: np.linalg.x.x") and "…" in message
    assert len(message) < 200


def test_the_message_lists_the_first_violations_and_counts_the_rest() -> None:
    code = "".join(f"for i{n} in x: pass\n" for n in range(MAX_LISTED + 3))
    violations = find_violations(code, [Rule.parse("python-loop")])
    message = violations_message(violations)
    assert message.startswith(
        "rules: the code was not run, because it uses what this "
        "exercise forbids: line 1: a Python loop (for); line 2:"
    )
    assert f"line {MAX_LISTED}: a Python loop (for); and 3 more" in message
    assert f"line {MAX_LISTED + 1}:" not in message


def test_the_authoring_guides_example_reads_as_documented() -> None:
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = guide.split("## Rules: how, not only what")[1].split("## `cases.py`")[0]
    code, message = re.findall(r"```\w*\n(.*?)```", section, re.S)[1:3]
    forbid = load_exercise(EXERCISES / "gru-candidate-state").forbid
    assert violations_message(find_violations(code, forbid)) == " ".join(message.split())


# --- complex numbers: the complex step ----------------------------------------------------


def test_every_spelling_of_a_complex_step_is_named_with_its_line() -> None:
    code = """
        import numpy as np
        import cmath
        from numpy import imag as im


        def f(x, loss):
            z = x.astype(complex) + 1e-20j
            w = np.zeros(3, dtype="complex128") + np.emath.sqrt(-1.0)
            return loss(z).imag.sum() + np.imag(w) + im(w)
    """
    assert found(code, "complex-number") == [
        "line 3: import cmath, a complex number",
        "line 4: from numpy import imag, a complex number",
        "line 8: complex, a complex number",
        "line 8: 1e-20j, a complex number",
        "line 9: 'complex128', a complex number",
        "line 9: np.emath.sqrt, a complex number",
        "line 10: .imag, a complex number",
        "line 10: np.imag, a complex number",
        "line 10: im, a complex number",
    ]


def test_real_code_keeps_the_complex_rule_beside_the_loop_rule() -> None:
    code = """
        import numpy as np


        def f(x):
            return np.reshape(x, (-1,), order="F").real + np.float64(2.0)
    """
    assert found(code, "complex-number", "python-loop") == []
    assert found("for v in []:\n    pass\n", "complex-number", "python-loop") == [
        "line 1: a Python loop (for)"
    ]


def test_the_complex_rules_message_names_its_reason_in_both_languages() -> None:
    violations = find_violations("z = 1j\n", [Rule.parse("complex-number")])
    message = violations_message(violations)
    assert message.endswith(
        "line 1: 1j, a complex number. This exercise asks for analytic gradients, "
        "not the complex step"
    )
    assert is_known(message, "ja")
    assert "解析的な勾配" in translate_message(message, "ja")
