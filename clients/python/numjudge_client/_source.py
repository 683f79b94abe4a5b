"""The code to send for a function object: its module, or the notebook cells that define it.

A notebook's functions live in ``__main__``, which has no file. IPython keeps every executed cell
(``In``, after its magics were turned into Python), so the module is rebuilt from them: the
imports, functions, classes and constant assignments of every cell, the last definition of a
name winning, in the order they were run. Other statements (calls, prints, a ``Client``) and the
import of this package stay out: they would run inside the sandbox.
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable, Iterable
from types import FunctionType, ModuleType
from typing import Any

from numjudge_client._errors import SourceNotFound

CodeOrFunction = str | Callable[..., Any]
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
CLIENT = __name__.split(".")[0]  # the sandbox has no numjudge_client to import


def code_of(code_or_function: CodeOrFunction) -> tuple[str, str | None]:
    """The source to send and, for a function, its name."""
    if isinstance(code_or_function, str):
        return code_or_function, None
    if not isinstance(code_or_function, FunctionType) or code_or_function.__name__ == "<lambda>":
        raise SourceNotFound(
            f"Cannot send {code_or_function!r}: pass the code as a string or a "
            "function defined with `def`."
        )
    function = code_or_function
    module = sys.modules.get(function.__module__)
    if function.__module__ == "__main__":
        source = definitions(_main_sources(module))
    else:
        source = _module_source(function, module)
    if function.__name__ not in _top_level_names(source):
        raise SourceNotFound(
            f"Cannot find the source of {function.__name__}(): it is not defined with `def` at "
            "the top level of a notebook cell or of its module. Define it in a cell of its own "
            "(run that cell), or pass the code as a string."
        )
    return source, function.__name__


def _main_sources(module: ModuleType | None) -> list[str]:
    cells = _notebook_cells()
    if cells is not None:
        return cells
    path = getattr(module, "__file__", None)
    if path is None:
        raise SourceNotFound(
            "Cannot find the source of a function typed at the interactive "
            "prompt: save it in a file or pass the code as a string."
        )
    with open(path, encoding="utf-8") as file:
        return [file.read()]


def _notebook_cells() -> list[str] | None:
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return None
    cells = shell.user_ns.get("In") or shell.history_manager.input_hist_parsed
    return [str(cell) for cell in cells]


def _module_source(function: FunctionType, module: ModuleType | None) -> str:
    try:
        return inspect.getsource(module) if module is not None else inspect.getsource(function)
    except (OSError, TypeError) as exc:
        raise SourceNotFound(
            f"Cannot read the source of {function.__name__}() from "
            f"{function.__module__}: {exc}. Pass the code as a string."
        ) from None


def _kept(node: ast.stmt) -> bool:
    if isinstance(node, ast.Import):
        return not any(alias.name.split(".")[0] == CLIENT for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[0] != CLIENT
    if isinstance(node, DEFINITIONS):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        calls = any(isinstance(n, (ast.Call, ast.Await)) for n in ast.walk(node.value))
        return all(isinstance(t, ast.Name) for t in targets) and not calls
    return False


def _key(node: ast.stmt) -> str:
    if isinstance(node, DEFINITIONS):
        return node.name
    if isinstance(node, ast.Assign):
        return ",".join(t.id for t in node.targets if isinstance(t, ast.Name))
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return ast.unparse(node)


def _text(node: ast.stmt, lines: list[str]) -> str:
    if isinstance(node, DEFINITIONS):
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        return "\n".join(lines[start - 1 : node.end_lineno])
    return ast.unparse(node)


def definitions(sources: Iterable[str]) -> str:
    """The imports, definitions and constants of ``sources`` as one module."""
    kept: dict[str, str] = {}
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # a cell that failed to run defined nothing
        lines = source.splitlines()
        for node in tree.body:
            if _kept(node):
                key = _key(node)
                kept.pop(key, None)  # the last definition wins, at its own place
                kept[key] = _text(node, lines)
    return "\n\n".join(kept.values()) + "\n"


def _top_level_names(source: str) -> set[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {node.name for node in tree.body if isinstance(node, DEFINITIONS)}
