"""Parsing Python source into an ``ast`` tree, one thread at a time.

CPython 3.11 keeps the recursion depth of its C-to-Python AST conversion in state shared by
every thread, so two threads calling ``ast.parse`` at once can fail with "SystemError: AST
constructor recursion depth mismatch". The trusted side parses in several threads (a
server's request threads read mistakes' hints while a warm-up thread derives mutants), so
every parse in ``graders`` goes through here.
"""

from __future__ import annotations

import ast
import threading

_lock = threading.Lock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``, serialised across threads."""
    with _lock:
        return ast.parse(source, filename=filename)
