"""graders/mutation/catalogue.py: every family's variants, in the catalogue's order."""

from __future__ import annotations

import ast

from graders.mutation.catalogue import rewrites
from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator


def test_a_node_gets_each_familys_variants_in_the_catalogues_order() -> None:
    # The concatenation family comes first, the reduction family later.
    tree = ast.parse("def f(h, x):\n    return np.concatenate([h, x], axis=-1)\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert [(v.operator, v.name) for v in rewrites(node, Scope.of(tree, "f"))] == [
        (Operator.SWAP_CONCAT, ""),
        (Operator.AXIS, "-2"),
        (Operator.AXIS, "0"),
        (Operator.AXIS, "1"),
    ]
