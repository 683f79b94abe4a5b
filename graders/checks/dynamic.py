"""Code whose meaning the syntax tree does not show: ``exec``, ``eval``, ``compile``,
``__import__``, ``importlib``, ``getattr`` with a computed name, the namespaces themselves
(``globals()``, ``vars()``, ``locals()``, ``__builtins__``, ``__dict__``) and the
interpreter's hooks (``sys.settrace``, ``sys._getframe``).

Through any of these, code can reach a name or run a loop that no rule read on the tree can
see: ``exec("for i in range(n): ...")``, ``getattr(np, "vec" + "torize")``. An exercise that
declares rules therefore refuses them all, whichever rule it declares (docs/authoring.md,
"Rules"); what the list misses (an attribute reached through an object the code built)
is named in docs/security.md.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

DYNAMIC_BUILTINS = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "__import__",
        "globals",
        "locals",
        "vars",
        "__builtins__",
        "breakpoint",
        "setattr",
        "delattr",
    }
)
ATTRIBUTE_READERS = frozenset({"getattr", "hasattr"})
DYNAMIC_MODULES = frozenset(
    {
        "importlib",
        "builtins",
        "inspect",
        "ctypes",
        "marshal",
        "types",
        # The interpreter's own state: the modules it loaded (the grader's harness among
        # them), its objects, its frames.
        "sys",
        "gc",
        # Code run in another thread, where no count of the code's work at run time follows.
        "threading",
        "_thread",
        "concurrent",
        "multiprocessing",
        "asyncio",
    }
)
DYNAMIC_ATTRIBUTES = frozenset(
    {
        "__builtins__",
        "__dict__",
        "__globals__",
        "__code__",
        "__closure__",
        "__getattribute__",
        "__subclasses__",
        "__import__",
        "settrace",
        "setprofile",
        "gettrace",
        "getprofile",
        "monitoring",
        "_getframe",
        "attrgetter",
        "methodcaller",
    }
)


def dynamic_uses(nodes: Sequence[ast.AST]) -> Iterator[tuple[ast.AST, str]]:
    """Each node of ``nodes`` that runs or reaches code by a name it computes, with how the
    code spells it."""
    literal = {
        id(node.func) for node in nodes if isinstance(node, ast.Call) and is_literal_getattr(node)
    }
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in DYNAMIC_BUILTINS:
            yield node, node.id
        elif (
            isinstance(node, ast.Name) and node.id in ATTRIBUTE_READERS and id(node) not in literal
        ):
            yield node, f"{node.id} with a computed name"
        elif isinstance(node, ast.Attribute) and node.attr in DYNAMIC_ATTRIBUTES:
            yield node, f".{node.attr}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in DYNAMIC_MODULES:
                    yield node, f"import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in DYNAMIC_MODULES:
                yield node, f"from {node.module} import ..."
            for alias in node.names:
                if alias.name in DYNAMIC_ATTRIBUTES | DYNAMIC_BUILTINS:
                    yield node, f"from {node.module} import {alias.name}"


def is_literal_getattr(node: ast.Call) -> bool:
    """``getattr(x, "name", ...)`` (or ``hasattr``): a name the tree shows, which the rules
    read as ``x.name``."""
    return (
        isinstance(node.func, ast.Name)
        and node.func.id in ATTRIBUTE_READERS
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    )
