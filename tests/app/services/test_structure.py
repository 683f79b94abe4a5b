"""The structural fragments of an answer (app/services/structure.py): what leaves the
computation unchanged (names, constants' values, comments, helpers, the order of independent
statements) leaves the fragments unchanged, and what changes it changes them."""

from __future__ import annotations

import pytest

from app.services.structure import MAX_REORDERED, Structure, structure

ANSWER = '''import numpy as np


def layer_norm(x, gamma, beta, eps):
    """Normalise the last axis."""
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    xhat = (x - mu) / np.sqrt(var + eps)
    return gamma * xhat + beta
'''


def fragments(code: str) -> dict[int, int]:
    found = structure(code)
    assert found is not None
    return {h: f.count for h, f in found.fragments.items()}


def test_names_comments_docstrings_aliases_and_constants_do_not_count() -> None:
    disguised = '''import numpy as numpy_lib


def layer_norm(data, g, b, tiny):
    # my own work
    centre = data.mean(axis=-1, keepdims=True)   # the mean
    spread = ((data - centre) ** 2.0).mean(axis=-1, keepdims=True)
    """a string as a comment"""
    normed = (data - centre) / numpy_lib.sqrt(spread + tiny)
    return g * normed + b
'''
    assert fragments(disguised) == fragments(ANSWER)


def test_what_changes_the_computation_changes_the_fragments() -> None:
    other = ANSWER.replace("np.sqrt(var + eps)", "np.sqrt(var) + eps")
    assert fragments(other) != fragments(ANSWER)
    assert fragments(ANSWER.replace("axis=-1", "axes=-1")) != fragments(ANSWER)
    assert fragments(ANSWER.replace("x.mean", "x.sum")) != fragments(ANSWER)


def test_a_one_line_helper_is_inlined_and_a_longer_one_too() -> None:
    one_line = """import numpy as np


def _normalise(a, m, v, e):
    return (a - m) / np.sqrt(v + e)


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    xhat = _normalise(x, mu, var, eps)
    return gamma * xhat + beta
"""
    longer = """import numpy as np


def _moments(values):
    centre = values.mean(axis=-1, keepdims=True)
    spread = ((values - centre) ** 2).mean(axis=-1, keepdims=True)
    return centre, spread


def layer_norm(x, gamma, beta, eps):
    mu, var = _moments(x)
    xhat = (x - mu) / np.sqrt(var + eps)
    return gamma * xhat + beta
"""
    assert fragments(one_line) == fragments(ANSWER)
    assert fragments(longer) == fragments(ANSWER)


def test_a_helper_used_as_a_value_is_kept_and_compared_as_a_unit() -> None:
    kept = """def double(v):
    w = v * 2 + 1
    return w


apply = list(map(double, range(3)))
"""
    found = structure(kept)
    assert found is not None
    texts = {kept[slice(*f.span)] for f in found.fragments.values() if f.span is not None}
    assert "w = v * 2 + 1" in texts and any(t.startswith("def double") for t in texts)


def test_independent_statements_in_another_order_give_the_same_fragments() -> None:
    reordered = ANSWER.replace(
        "    mu = x.mean(axis=-1, keepdims=True)\n",
        "    scale = np.asarray(gamma, dtype=float)\n    mu = x.mean(axis=-1, keepdims=True)\n",
    )
    moved = ANSWER.replace(
        "    xhat = (x - mu) / np.sqrt(var + eps)\n",
        "    xhat = (x - mu) / np.sqrt(var + eps)\n    scale = np.asarray(gamma, dtype=float)\n",
    )
    assert fragments(reordered) == fragments(moved)


def test_dependent_statements_in_another_order_do_not() -> None:
    first = "def f(a):\n    b = a + 1\n    c = b * 2\n    b = a - 1\n    return c + b\n"
    second = "def f(a):\n    b = a - 1\n    c = b * 2\n    b = a + 1\n    return c + b\n"
    assert fragments(first) != fragments(second)


def test_a_return_moves_past_nothing() -> None:
    early = "def f(a):\n    if a:\n        return a * 2 + 1\n    b = g(a) * 3\n    return b\n"
    late = "def f(a):\n    b = g(a) * 3\n    if a:\n        return a * 2 + 1\n    return b\n"
    assert fragments(early) != fragments(late)


def test_a_statement_written_twice_counts_twice() -> None:
    once = "import numpy as np\nx = np.sqrt(a + b)\n"
    found = structure(once + "y = np.sqrt(a + b)\n")
    assert found is not None
    assert max(f.count for f in found.fragments.values()) == 2


def test_spans_are_character_offsets_of_the_statement_even_after_non_ascii_text() -> None:
    code = "def f(a):\n    é = 'ü'; b = a.mean(axis=0) + 1\n    return b\n"
    found = structure(code)
    assert found is not None
    texts = {code[slice(*f.span)] for f in found.fragments.values() if f.span is not None}
    assert "b = a.mean(axis=0) + 1" in texts


@pytest.mark.parametrize(
    "code",
    [
        "def f(:\n",  # a syntax error
        "x = " + "-" * 9_000 + "1\n",  # nested past the parser's limit
        "x = (" * 300 + "1" + ")" * 300 + "\n",
    ],
)
def test_what_does_not_parse_has_no_structure(code: str) -> None:
    assert structure(code) is None


def test_helpers_calling_helpers_stop_being_inlined_at_the_budget() -> None:
    lines = ["def h0(a):\n    return a + 1\n"]
    lines += [f"def h{i}(a):\n    return h{i - 1}(h{i - 1}(a)) * 2\n" for i in range(1, 40)]
    found = structure("".join(lines) + "x = h39(1)\n")
    assert isinstance(found, Structure) and found.fragments


def _statement(i: int) -> str:
    return f"    v{i} = w{i} * 2 + 1\n" if i % 2 == 0 else f"    v{i} = f(w{i}) - 1\n"


def test_a_block_longer_than_the_reordering_keeps_its_order() -> None:
    def block(count: int, first: int, second: int) -> str:
        lines = [_statement(i) for i in range(count)]
        lines[0], lines[1] = _statement(first), _statement(second)
        return "def g():\n" + "".join(lines)

    # Two independent statements swapped: the same fragments in a block short enough to
    # order, other pairs of consecutive statements in one too long.
    assert fragments(block(3, 0, 1)) == fragments(block(3, 1, 0))
    assert fragments(block(MAX_REORDERED + 1, 0, 1)) != fragments(block(MAX_REORDERED + 1, 1, 0))
