"""The code to send for what a learner passes: a string as written, a ``SentCode`` as built,
a function defined in a ``.py`` module as that module, a notebook function as the cells it
needs (see ``_closure``)."""

from __future__ import annotations

import ast
import inspect
import linecache
import site
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any

from numjudge_client._closure import Binding, Cell, DefinitionFinder, build, definition
from numjudge_client._errors import SourceNotFound
from numjudge_client._sent import SentCode

CodeOrFunction = str | SentCode | Callable[..., Any]
CLIENT = __name__.split(".")[0]  # the sandbox has no numjudge_client to import
BODY_RUN_IN_NAMESPACE = ("numjudge", "time", "capture")


def code_of(
    code_or_function: CodeOrFunction, entries: Sequence[str] = ()
) -> tuple[SentCode, str | None]:
    """The code to send and, for a function, its name. A notebook function is sent with what
    it reads and with the other ``entries`` of the exercise the notebook defines."""
    if isinstance(code_or_function, str):
        return SentCode(code_or_function), None
    if isinstance(code_or_function, SentCode):
        return code_or_function, None
    function = sendable(code_or_function)
    if function.__module__ != "__main__":
        return SentCode(_module_source(function, sys.modules.get(function.__module__))), (
            function.__name__
        )
    roots = [function.__name__, *entries]
    return from_cells(_main_cells(), function.__globals__, roots), function.__name__


def entry_code(function: FunctionType, entries: Sequence[str]) -> SentCode:
    """The code of ``function`` for an exercise whose grader calls ``entries``: a function of
    another name of a one-function exercise is bound to the entry's name at the end."""
    sent, name = code_of(function, entries)
    if name is not None and len(entries) == 1 and name != entries[0]:
        sent = sent.appended(f"{entries[0]} = {name}\n")
    return sent


def sendable(function: Callable[..., Any]) -> FunctionType:
    """``function`` if the client can find its source, else ``SourceNotFound`` in words."""
    if not isinstance(function, FunctionType) or function.__name__ == "<lambda>":
        raise SourceNotFound(
            "Cannot send {function!r}: pass the code as a string or a function defined with `def`.",
            function=function,
        )
    if (
        function.__module__ == "__main__"
        and function.__globals__.get(function.__name__) is not function
    ):
        raise SourceNotFound(
            "Cannot find the source of {name}(): it is not defined with `def` at the top level "
            "of a notebook cell or of its module. Define it in a cell of its own (run that "
            "cell), or pass the code as a string.",
            name=function.__name__,
        )
    return function


def from_cells(
    cells: Sequence[Cell], namespace: Mapping[str, Any], roots: Sequence[str]
) -> SentCode:
    """What ``roots`` need of ``cells``, as ``namespace`` holds it now."""
    return build(cells, namespace, roots, exclude={CLIENT}, defined_at=_kernel_definitions(cells))


def _kernel_definitions(cells: Sequence[Cell]) -> DefinitionFinder | None:
    """Where a function object of the kernel was defined: IPython compiles each cell under a
    file name of its own, remembers which execution it was, and keeps its source in
    ``linecache``; a function's code names that file and its first line. A ``%%numjudge``
    cell's body runs as the next execution number, so that one is tried too."""
    shell = _shell()
    if shell is None:
        return None
    numbers: Mapping[str, int] = getattr(shell.compile, "_filename_map", {})
    by_label = {cell.label: (index, cell) for index, cell in enumerate(cells)}

    def find(function: FunctionType) -> Binding | None:
        module = sys.modules.get(function.__module__)
        if function.__module__ != "__main__":
            if not _is_local(module):
                return None
            file = Cell(Path(function.__code__.co_filename).name, _module_source(function, module))
            return definition(file, -1, function.__code__.co_firstlineno, function.__name__)
        code = function.__code__
        number = numbers.get(code.co_filename)
        source = "".join(linecache.getlines(code.co_filename))
        if number is None or not source:
            return None
        for candidate in (number, number - 1):
            index, known = by_label.get(f"In [{candidate}]", (candidate - 1, None))
            if known is not None and known.source.strip() == source.strip():
                return definition(known, index, code.co_firstlineno, function.__name__)
        made = Cell(f"In [{number}]", source)
        return definition(made, number - 1, code.co_firstlineno, function.__name__)

    return find


def _shell() -> Any:
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    return get_ipython()


def notebook_cells() -> list[Cell] | None:
    """The cells the IPython kernel ran, the one running now last (IPython keeps a cell in
    ``In`` before it runs it), or ``None`` outside IPython."""
    shell = _shell()
    if shell is None:
        return None
    history = shell.user_ns.get("In") or shell.history_manager.input_hist_parsed
    return [_cell(f"In [{number}]", str(history[number])) for number in range(1, len(history))]


def _cell(label: str, source: str) -> Cell:
    """A cell as the kernel ran it: the body of a ``%%numjudge`` (``%%time``, ``%%capture``)
    cell ran in the notebook's namespace, below the magic's line."""
    try:
        (statement,) = ast.parse(source).body
    except (SyntaxError, ValueError):
        return Cell(label, source)
    call = statement.value if isinstance(statement, ast.Expr) else None
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "run_cell_magic"
    ):
        return Cell(label, source)
    texts = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(texts) == len(call.args) == 3 and texts[0] in BODY_RUN_IN_NAMESPACE:
        return Cell(label, _python(texts[2]), first_line=2)
    return Cell(label, source)


def _python(cell: str) -> str:
    """``cell`` with its IPython syntax (``%magic``, ``!shell``) turned into Python."""
    from IPython.core.inputtransformer2 import TransformerManager

    return str(TransformerManager().transform_cell(cell))


def _main_cells() -> list[Cell]:
    cells = notebook_cells()
    if cells is not None:
        return cells
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if path is None:
        raise SourceNotFound(
            "Cannot find the source of a function typed at the interactive "
            "prompt: save it in a file or pass the code as a string."
        )
    with open(path, encoding="utf-8") as file:
        return [Cell(path, file.read())]


def _module_source(function: FunctionType, module: ModuleType | None) -> str:
    """The source of ``function``'s module as the kernel imported it: the file, unless it
    changed on disk since (then ``SourceNotFound`` says to reload)."""
    try:
        source = inspect.getsource(module) if module is not None else inspect.getsource(function)
    except (OSError, TypeError) as exc:
        raise SourceNotFound(
            "Cannot read the source of {name}() from {module}: {error}. Pass the code as a string.",
            name=function.__name__,
            module=function.__module__,
            error=exc,
        ) from None
    path = function.__code__.co_filename
    try:
        compiled = compile(source, path, "exec", dont_inherit=True)  # not this file's __future__
    except SyntaxError:
        compiled = None
    if compiled is None or not _holds(compiled, function.__code__):
        raise SourceNotFound(
            "Nothing was sent: {file} changed on disk since the kernel imported {name}() from "
            "it, so the file is not the code that runs: restart the kernel and run all cells "
            "(or importlib.reload({module})), then submit again.",
            file=Path(path).name,
            name=function.__name__,
            module=function.__module__,
        )
    return source


def _holds(code: CodeType, wanted: CodeType) -> bool:
    """Whether compiling a file gave ``wanted`` (the same bytecode, constants and lines)."""
    for constant in code.co_consts:
        if isinstance(constant, CodeType) and (constant == wanted or _holds(constant, wanted)):
            return True
    return False


def _is_local(module: ModuleType | None) -> bool:
    """A module of the learner's own (a ``.py`` file beside the notebook), which the sandbox
    cannot import: its file is outside the interpreter's installation and site-packages."""
    path = getattr(module, "__file__", None)
    if module is None or path is None or module.__name__.split(".")[0] == CLIENT:
        return False
    installed = {sys.prefix, sys.base_prefix, sys.exec_prefix, *site.getsitepackages()}
    installed.add(site.getusersitepackages())
    return not any(Path(path).resolve().is_relative_to(Path(p).resolve()) for p in installed)
