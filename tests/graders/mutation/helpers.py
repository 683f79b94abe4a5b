"""Helpers of the operator families' tests: what a family offers in a small snippet, and two
references whose mutants several families' tests read."""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from graders.mutation.catalogue import Family
from graders.mutation.mutants import apply, make_mutants
from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator


@dataclass(frozen=True)
class Offered:
    """One variant a family offered, applied to the snippet."""

    operator: Operator
    name: str
    meaning: str
    code: str | None
    """The snippet rewritten and unparsed; None if that is not Python."""


def offered(family: Family, source: str, entry: str = "f") -> list[Offered]:
    """Every variant ``family`` offers at any node of ``source``, in the order of a walk of
    its tree (``entry`` names the function whose arguments the operators may name)."""
    tree = ast.parse(textwrap.dedent(source))
    scope = Scope.of(tree, entry)
    return [
        Offered(variant.operator, variant.name, variant.meaning, apply(tree, node, variant.rewrite))
        for node in ast.walk(tree)
        for variant in family(node, scope)
    ]


def changed_lines(source: str, entry: str, operator: Operator) -> set[str]:
    """The lines the mutants of one operator changed (mutants are unparsed: compared with the
    unparsed reference)."""
    original = ast.unparse(ast.parse(source)).splitlines()
    return {
        line.strip()
        for m in make_mutants(source, entry)
        if m.operator is operator
        for line in m.source.splitlines()
        if line not in original
    }


GRADIENT = textwrap.dedent("""
    def backward(h, y, a, u, W_ux, W_ax, b_u, b_a, x):
        dh = h - y
        gate = x @ W_ux.T + b_u
        candidate = x @ W_ax.T + b_a
        return dh * (1.0 - u) * (1.0 - a * a), gate, candidate
""")

SLIPS = textwrap.dedent("""
    import numpy as np


    def sigmoid(a):
        return np.exp(-np.logaddexp(0.0, -a))


    def pair(g, v):
        return g.T @ v


    def step(h, x, W_u, W_a, b_u, trace):
        u = sigmoid(x @ W_u.T + b_u)
        a = np.tanh(x @ W_a.T + h)
        return u * a + pair(u, x) + np.dot(h, x) + trace[1] + h.shape[1]
""")
