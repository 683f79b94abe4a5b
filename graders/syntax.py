"""Parsing Python source into an ``ast`` tree safely from several threads at once.

CPython 3.11.0 to 3.11.7 and 3.12.0 to 3.12.1 keep the recursion depth of their C-to-Python
AST conversion in state shared by every thread. When a garbage collection in the middle of
one thread's conversion lets another thread parse, either parse can fail with "SystemError:
AST constructor recursion depth mismatch". The parses that collide are not only ours (hints
and mutants, read in a warm-up thread and in request threads): 3.11's traceback formatting
parses the failing line to place its carets, so any thread that logs an exception takes
part, and so do test tools. A lock around our own calls cannot cover those.

Importing this module therefore replaces ``ast.parse`` for the whole process, on the
affected releases only, with one that holds a process-wide lock. It is the module's one
deliberate side effect; every parse in ``graders`` goes through :func:`parse`, so any
process that loads an exercise has the guard before its first parse.
"""

from __future__ import annotations

import ast
import functools
import sys
import threading
from typing import Any

# The first fixed release of each affected line; later lines were never affected.
FIXED_IN = {(3, 11): (3, 11, 8), (3, 12): (3, 12, 2)}
AFFECTED = sys.version_info < FIXED_IN.get(sys.version_info[:2], (0,))

# Re-entrant: a finalizer run by a collection inside a parse may itself parse (it may format
# a traceback), in the same thread.
_lock = threading.RLock()


def serialise_parsing() -> None:
    """Make ``ast.parse`` hold a process-wide lock, on affected interpreters; idempotent."""
    if not AFFECTED or getattr(ast.parse, "serialised", False):
        return
    unguarded = ast.parse

    @functools.wraps(unguarded)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        with _lock:
            return unguarded(*args, **kwargs)

    guarded.serialised = True  # type: ignore[attr-defined]
    ast.parse = guarded


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``, safe in any thread."""
    return ast.parse(source, filename=filename)


serialise_parsing()
