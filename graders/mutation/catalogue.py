"""The catalogue of mutation operators: every family in the order its variants are offered,
and the helper functions a mutant may call.

Operators come in families, one module each: concatenations, matrix products, sums, factors
and signs, activations, gates, indices, reductions, arguments, boundaries (a comparison's, a
sort's ties, a padding's axes, a vector's layout), the result's layout and its precision, and
for a reference that computes gradients, an activation's derivative, accumulations and the
returned gradients. Each says where it applies in a reference's syntax
tree, what it changes, and what the change means to a learner, in words that do not quote the
reference. :mod:`graders.mutation.mutants` applies them to make the mutants.

Generic mutation tools (mutmut, cosmic-ray) replace operators and constants (``+`` by ``-``,
``<`` by ``<=``, ``1`` by ``2``) to measure a test suite; most of their mutants have no
meaning a learner could act on, and they run a project's tests rather than giving outputs. The
operators here are the few of theirs that have one (a sign flipped, a number off by one in a
loop's range), plus array operators they lack.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from graders.mutation.accumulations import accumulation_variants
from graders.mutation.activations import SIGMOID_HELPER, SIGMOID_SOURCE, activation_variants
from graders.mutation.arguments import argument_variants
from graders.mutation.boundaries import boundary_variants
from graders.mutation.concatenations import concatenation_variants
from graders.mutation.derivatives import derivative_variants
from graders.mutation.factors_and_signs import factor_and_sign_variants
from graders.mutation.gates import gate_variants
from graders.mutation.gradients import gradient_variants
from graders.mutation.indices import index_variants
from graders.mutation.layouts import SWAPAXES_HELPER, SWAPAXES_SOURCE, layout_variants
from graders.mutation.nodes import Scope
from graders.mutation.operators import Variant
from graders.mutation.precision import (
    FLOATS_HELPER,
    FLOATS_SOURCE,
    ROUNDED_HELPER,
    ROUNDED_SOURCE,
    SINGLE_HELPER,
    SINGLE_SOURCE,
    precision_variants,
)
from graders.mutation.products import product_variants
from graders.mutation.reductions import reduction_variants
from graders.mutation.sums import sum_variants

Family = Callable[[ast.AST, Scope], Iterator[Variant]]

# The order decides which of two variants giving the same source makes the mutant (the first
# offered), and so each mutant's operator, key and number in ``numjudge mutants``.
FAMILIES: tuple[Family, ...] = (
    concatenation_variants,
    product_variants,
    sum_variants,
    # Before the factors: an activation's derivative left out as a whole is that, not a
    # product's last factor left out.
    derivative_variants,
    factor_and_sign_variants,
    activation_variants,
    gate_variants,
    index_variants,
    reduction_variants,
    argument_variants,
    boundary_variants,
    layout_variants,
    precision_variants,
    # The other gradient families come last: where one of their variants gives the same
    # source as an earlier family's at the same node, the earlier mutant keeps its key.
    accumulation_variants,
    gradient_variants,
)

# The functions a mutant may call that the reference need not define: (name, source to append
# when the mutant's source names it).
HELPERS = (
    (SIGMOID_HELPER, SIGMOID_SOURCE),
    (SWAPAXES_HELPER, SWAPAXES_SOURCE),
    (SINGLE_HELPER, SINGLE_SOURCE),
    (ROUNDED_HELPER, ROUNDED_SOURCE),
    (FLOATS_HELPER, FLOATS_SOURCE),
)


def rewrites(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """The variants every operator offers at ``node``."""
    for family in FAMILIES:
        yield from family(node, scope)
