"""What every operator family reads in a reference's syntax tree: the :class:`Scope` of the
reference beyond the node being changed, and the node tests and variants families share."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass

from graders.mutation.operators import Operator, Variant

CONCATENATIONS = frozenset({"concatenate", "hstack", "vstack", "column_stack", "stack"})
SIGMOID_NAMES = ("sigmoid", "_sigmoid", "sig", "logistic", "expit")


@dataclass(frozen=True)
class Scope:
    """What the operators know of the reference beyond the node they change."""

    parameters: frozenset[str]
    """The entry function's arguments."""
    helpers: frozenset[str]
    """The reference's sigmoid functions."""
    loop_variables: frozenset[str]
    gates: frozenset[str]
    """The names assigned a sigmoid's value (a gate), which a gate operator moves."""
    functions: frozenset[str]
    """Every function the reference defines."""
    activated: frozenset[tuple[str, str]] = frozenset()
    """``(output, input)`` for each name assigned a tanh or a sigmoid of another name
    (``tanh_c = np.tanh(c_t)``): a backward pass reads one where the other belongs."""
    backward: bool = False
    """Whether the reference computes gradients (a function named for a backward pass, or a
    docstring that speaks of gradients): only then are the gradient operators offered."""

    @property
    def over_time(self) -> bool:
        """Whether the reference loops over time steps, as its loop variables' names say
        (``t``, ``step``, ``time_index``): only then may a mutant's meaning speak of them."""
        return any(name == "t" or "step" in name or "time" in name for name in self.loop_variables)

    @classmethod
    def of(cls, tree: ast.Module, entry: str) -> Scope:
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        helpers = frozenset(
            f.name
            for f in functions
            if f.name.lower() in SIGMOID_NAMES or "sigmoid" in f.name.lower()
        )
        entry_function = next((f for f in functions if f.name == entry), None)
        return cls(
            parameters=frozenset(a.arg for a in entry_function.args.args)
            if entry_function
            else frozenset(),
            helpers=helpers,
            loop_variables=frozenset(
                n.target.id
                for n in ast.walk(tree)
                if isinstance(n, ast.For) and isinstance(n.target, ast.Name)
            ),
            gates=frozenset(
                target.id
                for n in ast.walk(tree)
                if isinstance(n, ast.Assign) and is_sigmoid_call(n.value, helpers)
                for target in n.targets
                if isinstance(target, ast.Name)
            ),
            functions=frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)),
            activated=frozenset(
                (target.id, n.value.args[0].id)
                for n in ast.walk(tree)
                if isinstance(n, ast.Assign)
                and isinstance(n.value, ast.Call)
                and (is_sigmoid_call(n.value, helpers) or function_name(n.value) == "tanh")
                and len(n.value.args) == 1
                and isinstance(n.value.args[0], ast.Name)
                for target in n.targets
                if isinstance(target, ast.Name)
            ),
            backward=computes_gradients(tree),
        )


def computes_gradients(tree: ast.Module) -> bool:
    """Whether a reference computes gradients: a function of it does, or its docstring speaks
    of them."""
    return "gradient" in (ast.get_docstring(tree) or "").lower() or any(
        isinstance(n, ast.FunctionDef) and is_gradient_function(n) for n in ast.walk(tree)
    )


def is_gradient_function(function: ast.FunctionDef) -> bool:
    """Whether a function is named for a backward pass (``affine_backward``,
    ``gated_unit_bptt``) or its docstring speaks of gradients."""
    named = "backward" in function.name or "bptt" in function.name
    return named or "gradient" in (ast.get_docstring(function) or "").lower()


def function_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
        if isinstance(node.func, ast.Name):
            return node.func.id
    return None


def is_one(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and node.value in (1, 1.0)
        and not isinstance(node.value, bool)
    )


def is_sigmoid_call(node: ast.AST, helpers: frozenset[str]) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers
    )


def dropped_operands(
    node: ast.BinOp, operator: Operator, named: str, unnamed: str, scope: Scope
) -> Iterator[Variant]:
    """Either operand of ``node`` left out, the other kept; ``named`` words an argument."""
    for kept, dropped in (("left", "right"), ("right", "left")):
        operand = getattr(node, dropped)
        what = (
            f"{named} {operand.id}"
            if isinstance(operand, ast.Name) and operand.id in scope.parameters
            else unnamed
        )
        yield Variant(
            operator, dropped, f"without {what}", functools.partial(kept_operand, kept=kept)
        )


def kept_operand(node: ast.AST, kept: str) -> ast.AST:
    return getattr(node, kept)  # type: ignore[no-any-return]
