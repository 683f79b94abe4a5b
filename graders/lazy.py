"""Names a module exports without importing them until they are asked for (PEP 562).

A module lists its exports as imports under ``typing.TYPE_CHECKING`` (what type checkers and
import-linter read) and sets ``__getattr__, __dir__ = exports(__name__, __file__)``: the first
time a name is asked for, ``__getattr__`` imports it from the module its import names, read
from the file's syntax tree, so the list is written once. ``graders/api.py`` is such a module.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any


@cache
def imported_names(file: str) -> dict[str, tuple[str, str]]:
    """Each name imported under the first ``if`` of ``file`` (its ``TYPE_CHECKING`` block):
    the module it comes from and its name there."""
    tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If))
    return {
        alias.asname or alias.name: (str(node.module), alias.name)
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def exports(module_name: str, file: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of the module ``module_name`` whose source is
    ``file``."""

    def get(name: str) -> Any:
        home = imported_names(file).get(name)
        if home is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home[0]), home[1])
        # Asked once: later lookups find it in the module without calling this function.
        setattr(sys.modules[module_name], name, value)
        return value

    def listed() -> list[str]:
        return sorted(imported_names(file))

    return get, listed
