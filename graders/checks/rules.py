"""Rules on how an exercise is solved, not only on what it returns: what the submitted code may
not use (``[rules] forbid`` in exercise.toml), found on its syntax tree before it runs.

A rule is one of three kinds (:class:`RuleKind`):

- a word of a fixed vocabulary (:class:`Construct`): ``python-loop`` (``for``, ``while``,
  comprehensions and generator expressions, and the loops spelled without them:
  graders/checks/loops.py); ``complex-number`` (what the complex step needs: complex literals,
  ``complex``, numpy's complex types, ``.imag``, ``cmath``; see :data:`COMPLEX_NAMES`);
- ``import:<module>``: importing the module or any module under it, in any form
  (``import scipy.linalg``, ``from scipy import linalg``, ``__import__("scipy")``);
- a dotted name (``numpy.linalg.inv``, or a whole module such as ``numpy.linalg``): any use of
  it or of a name under it, however it was imported (``import numpy.linalg as la; la.inv``,
  ``from numpy.linalg import inv``, ``getattr(np.linalg, "inv")``).

The check reads the code and never runs it: it teaches, it is no wall. Code that builds a
name or code at run time (``getattr(np, "lin" + "alg")``, ``exec``) cannot be read, so any
exercise with rules refuses it as dynamic code (graders/checks/dynamic.py); a Python loop
the tree still misses is counted as it runs, in the public calls (graders/sandbox/repeats.py).
A name bound by an import counts as that import's wherever it is used in the file (scopes
are not followed). Keeping the code in bounds is the sandbox's job, not this module's.

The code is untrusted. Parsing is bounded by ``MAX_SOURCE_CHARS`` (the service refuses far
smaller submissions) and the walk over the tree is iterative, so deep nesting cannot exhaust
the stack here. A syntax error is left to the sandbox, whose compiler reports it as it does
for any code; a tree the parser cannot build (nesting beyond its own limits) fails the check
rather than skipping it.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from graders import syntax
from graders.checks.dynamic import dynamic_uses
from graders.checks.loops import hidden_loops

if TYPE_CHECKING:
    from graders.values import Growth

MAX_SOURCE_CHARS = 1_000_000
MAX_LISTED = 10
"""Violations a message lists; the rest are counted."""
MAX_WRITTEN_CHARS = 60


class Construct(Enum):
    """The fixed vocabulary of constructs a rule can forbid by name."""

    PYTHON_LOOP = "python-loop"
    COMPLEX_NUMBER = "complex-number"


class RuleKind(Enum):
    CONSTRUCT = "construct"
    IMPORT = "import"
    NAME = "name"
    DYNAMIC = "dynamic"
    """Not declared: refused in any exercise that declares rules (``DYNAMIC_CODE``)."""


CONSTRUCT_DESCRIPTIONS = {
    Construct.PYTHON_LOOP: (
        "Python loops (for, while, comprehensions, map, filter, reduce, np.vectorize, "
        "np.frompyfunc, recursion)"
    ),
    Construct.COMPLEX_NUMBER: "complex numbers (the complex step)",
}
COMPLEX_REASON = "This exercise asks for analytic gradients, not the complex step"
COMPLEX_NAMES = (
    "numpy.complex64",
    "numpy.complex128",
    "numpy.complex256",
    "numpy.complexfloating",
    "numpy.csingle",
    "numpy.cdouble",
    "numpy.clongdouble",
    "numpy.imag",
    "numpy.emath",
    "numpy.lib.scimath",
    "cmath",
)
"""What a complex step reads besides literals, ``complex`` and ``.imag``: numpy's complex
types, its functions returning complex numbers from real ones, and ``np.imag``. Complex
numbers reached otherwise (``np.dtype("D")``, a name built at run time) are not seen."""
COMPLEX_DTYPE = re.compile(r"[<>=|]?(complex(64|128|256)?|c(8|16|32))")
IMPORT_PREFIX = "import:"
LOOPS: dict[type[ast.AST], str] = {
    ast.For: "for",
    ast.AsyncFor: "async for",
    ast.While: "while",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
}


DYNAMIC_REASON = "dynamic code, which this exercise's rules cannot check"


def is_dotted(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))


@dataclass(frozen=True)
class Rule:
    """One entry of ``[rules] forbid``: ``text`` as the author wrote it."""

    kind: RuleKind
    target: str
    """The construct's word, the module, or the dotted name."""

    @classmethod
    def parse(cls, text: str) -> Rule:
        """The rule ``text`` declares; ``ValueError`` saying what is accepted otherwise."""
        words = [construct.value for construct in Construct]
        if text in words:
            return cls(RuleKind.CONSTRUCT, text)
        if text.startswith(IMPORT_PREFIX) and is_dotted(text[len(IMPORT_PREFIX) :]):
            return cls(RuleKind.IMPORT, text[len(IMPORT_PREFIX) :])
        # A bare word would be a builtin or a local name, which imports cannot resolve.
        if is_dotted(text) and "." in text:
            return cls(RuleKind.NAME, text)
        raise ValueError(
            f"{text!r} is not a rule: use one of {', '.join(words)}, "
            "'import:<module>' or a dotted name such as 'numpy.linalg.inv'"
        )

    @property
    def text(self) -> str:
        return IMPORT_PREFIX + self.target if self.kind is RuleKind.IMPORT else self.target

    @property
    def description(self) -> str:
        """What the rule forbids, in words for the exercise page and the API."""
        if self.kind is RuleKind.CONSTRUCT:
            return CONSTRUCT_DESCRIPTIONS[Construct(self.target)]
        if self.kind is RuleKind.IMPORT:
            return f"importing {self.target}"
        return self.target

    def covers(self, name: str) -> bool:
        """Whether the module or dotted ``name`` is the target or lies under it."""
        return name == self.target or name.startswith(self.target + ".")


@dataclass(frozen=True)
class Violation:
    rule: Rule
    line: int
    written: str
    """How the code spells it: ``for``, ``la.inv``, ``import scipy.linalg``."""
    meaning: str = ""
    """For a name, what the spelling stands for: ``numpy.linalg.inv``."""
    column: int = field(default=0, compare=False)  # orders a line's uses, names none apart

    @property
    def message(self) -> str:
        if self.rule.target == Construct.COMPLEX_NUMBER.value:
            return f"line {self.line}: {self.written}, a complex number"
        if self.rule.kind is RuleKind.CONSTRUCT:
            return f"line {self.line}: a Python loop ({self.written})"
        if self.rule.kind is RuleKind.IMPORT:
            return f"line {self.line}: {self.written} imports {self.rule.target}"
        if self.rule.kind is RuleKind.DYNAMIC:
            return f"line {self.line}: {self.written} is {DYNAMIC_REASON}"
        if self.written == self.meaning:
            return f"line {self.line}: {self.written}"
        return f"line {self.line}: {self.written} is {self.meaning}"


def violations_message(violations: Sequence[Violation]) -> str:
    """The violations as the learner reads them, the first ``MAX_LISTED`` by line."""
    listed = "; ".join(v.message for v in violations[:MAX_LISTED])
    more = len(violations) - MAX_LISTED
    suffix = f"; and {more} more" if more > 0 else ""
    if any(v.rule.target == Construct.COMPLEX_NUMBER.value for v in violations):
        suffix += f". {COMPLEX_REASON}"
    return (
        f"rules: the code was not run, because it uses what this exercise forbids: {listed}{suffix}"
    )


DYNAMIC_CODE = Rule(RuleKind.DYNAMIC, "dynamic code")


def forbids_loops(rules: Sequence[Rule]) -> bool:
    """Whether ``rules`` forbid Python loops, which the sandbox then also counts as they run."""
    return Rule(RuleKind.CONSTRUCT, Construct.PYTHON_LOOP.value) in rules


def repeats_message(growth: Growth) -> str:
    """The message of code whose Python work repeated as a loop's does as it ran: grew with
    the public inputs, or repeated more than loop-free code can."""
    return (
        "rules: the code ran, and its Python work repeated as a loop's does, which this "
        f"exercise forbids (Python loops): {growth.message}"
    )


class Unreadable(Exception):
    """The code is too large or too deeply nested to check."""


def find_violations(code: str, rules: Sequence[Rule]) -> list[Violation]:
    """Every use of what ``rules`` forbid in ``code``, by line; none for code that does not
    parse (the sandbox reports its syntax error). Raises ``Unreadable`` when the code cannot
    be checked."""
    if not rules:
        return []
    if len(code) > MAX_SOURCE_CHARS:
        raise Unreadable(f"the code is longer than {MAX_SOURCE_CHARS} characters")
    try:
        tree = syntax.parse(code, filename="submission.py")
    except (SyntaxError, ValueError):  # ValueError: a null byte
        return []
    except (RecursionError, MemoryError):  # the parser's own limits on nesting
        raise Unreadable("the code is nested too deeply to check") from None
    found = dict.fromkeys(
        [*scan(tree, rules), *dynamic_violations(tree)]
    )  # each spelling once per line
    return sorted(found, key=lambda violation: (violation.line, violation.column))


def scan(tree: ast.Module, rules: Sequence[Rule]) -> Iterator[Violation]:
    names = [rule for rule in rules if rule.kind is RuleKind.NAME]
    imports = [rule for rule in rules if rule.kind is RuleKind.IMPORT]
    loops = [rule for rule in rules if rule.target == Construct.PYTHON_LOOP.value]
    complex_numbers = [rule for rule in rules if rule.target == Construct.COMPLEX_NUMBER.value]
    nodes = list(ast.walk(tree))  # iterative: no recursion however deep the tree
    bindings = imported_names(nodes)
    # Only whole chains: in ``np.linalg.inv`` the part ``np.linalg`` is not a use of its own.
    inner = {id(node.value) for node in nodes if isinstance(node, ast.Attribute)}
    if loops:
        for spelling in hidden_loops(nodes, bindings, chain_names):
            yield located(spelling.node, loops[0], written=spelling.written)
    for node in nodes:
        at = functools.partial(
            Violation, line=getattr(node, "lineno", 0), column=getattr(node, "col_offset", 0)
        )
        if loops and type(node) in LOOPS:
            yield at(loops[0], written=LOOPS[type(node)])
        if complex_numbers:
            yield from (
                at(complex_numbers[0], written=written)
                for written in complex_spellings(node, bindings, whole=id(node) not in inner)
            )
        for module, written in imported_modules(node, bindings):
            yield from (at(rule, written=written) for rule in imports if rule.covers(module))
        star = star_module(node)
        if star is not None:
            # Star-imported names are used bare: the import itself is the use of each.
            yield from (
                at(rule, written=f"from {star} import *", meaning=rule.target)
                for rule in names
                if rule.covers(star) or rule.target.startswith(star + ".")
            )
        if id(node) not in inner:
            for name, written in referenced_names(node, bindings):
                yield from (
                    at(rule, written=written, meaning=clipped(name))
                    for rule in names
                    if rule.covers(name)
                )


def dynamic_violations(tree: ast.Module) -> Iterator[Violation]:
    """Every use of dynamic code (graders/checks/dynamic.py): refused whatever the rules."""
    for node, written in dynamic_uses(list(ast.walk(tree))):
        yield located(node, DYNAMIC_CODE, written=clipped(written))


def located(node: ast.AST, rule: Rule, written: str) -> Violation:
    return Violation(
        rule,
        line=getattr(node, "lineno", 0),
        written=written,
        column=getattr(node, "col_offset", 0),
    )


def complex_spellings(
    node: ast.AST, bindings: dict[str, set[str]], *, whole: bool
) -> Iterator[str]:
    """How ``node`` writes a complex number or reads one's imaginary part: ``2j``,
    ``complex``, ``"complex128"``, ``z.imag``, ``np.imag``, ``import cmath``; names only
    where ``node`` is a ``whole`` chain, as for a dotted name's rule."""
    if isinstance(node, ast.Constant) and isinstance(node.value, complex):
        yield repr(node.value)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        if COMPLEX_DTYPE.fullmatch(node.value):
            yield repr(node.value)
    elif isinstance(node, ast.Name) and node.id == "complex" and node.id not in bindings:
        yield "complex"
    elif isinstance(node, ast.Attribute) and node.attr == "imag":
        written = dotted_text(node)
        yield clipped(written) if not written.startswith("...") else ".imag"
    names = referenced_names(node, bindings) if whole else iter(())
    for name, written in [*names, *imported_modules(node, bindings)]:
        if any(name == target or name.startswith(target + ".") for target in COMPLEX_NAMES):
            yield written


def imported_names(nodes: Sequence[ast.AST]) -> dict[str, set[str]]:
    """What each name bound by an import stands for: ``np`` -> ``numpy``, ``inv`` ->
    ``numpy.linalg.inv``; a name imported twice stands for both."""
    bindings: dict[str, set[str]] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                # ``import a.b`` binds ``a``, through which ``a.b`` is then reached.
                bound, meaning = (
                    (alias.asname, alias.name)
                    if alias.asname
                    else (alias.name.split(".")[0], alias.name.split(".")[0])
                )
                bindings.setdefault(bound, set()).add(meaning)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    bindings.setdefault(alias.asname or alias.name, set()).add(
                        f"{node.module}.{alias.name}"
                    )
    return bindings


def imported_modules(node: ast.AST, bindings: dict[str, set[str]]) -> Iterator[tuple[str, str]]:
    """The modules ``node`` imports (a ``from`` import's names may be modules too), each with
    how the code spells the import."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name, clipped(f"import {alias.name}")
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
            yield f"{node.module}.{alias.name}", clipped(f"from {node.module} import {alias.name}")
    elif isinstance(node, ast.Call) and node.args:
        module = constant_text(node.args[0])
        callee = {name for name, _ in chain_names(node.func, bindings)}
        if isinstance(node.func, ast.Name) and node.func.id == "__import__":
            callee.add("__import__")
        if module is not None and callee & {"__import__", "importlib.import_module"}:
            yield module, clipped(f"{dotted_text(node.func)}({module!r})")


def referenced_names(node: ast.AST, bindings: dict[str, set[str]]) -> Iterator[tuple[str, str]]:
    """The dotted names ``node`` reads (``la.inv`` -> ``numpy.linalg.inv``), each with how
    the code spells it; ``getattr(x, "name")`` is read as ``x.name``."""
    if isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load):
        yield from chain_names(node, bindings)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
    ):
        attribute = constant_text(node.args[1])
        if attribute is not None:
            for name, written in chain_names(node.args[0], bindings):
                yield f"{name}.{attribute}", clipped(f"getattr({written}, {attribute!r})")


def star_module(node: ast.AST) -> str | None:
    """The module of a ``from <module> import *``."""
    if (
        isinstance(node, ast.ImportFrom)
        and node.module
        and not node.level
        and any(alias.name == "*" for alias in node.names)
    ):
        return node.module
    return None


def chain_names(node: ast.AST, bindings: dict[str, set[str]]) -> Iterator[tuple[str, str]]:
    """What an attribute chain rooted at an imported name stands for."""
    attributes: list[str] = []
    while isinstance(node, ast.Attribute):  # a loop, not recursion: chains may be long
        attributes.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return
    suffix = "".join("." + attribute for attribute in reversed(attributes))
    for meaning in sorted(bindings.get(node.id, ())):
        yield meaning + suffix, clipped(node.id + suffix)


def dotted_text(node: ast.AST) -> str:
    attributes: list[str] = []
    while isinstance(node, ast.Attribute):
        attributes.append(node.attr)
        node = node.value
    root = node.id if isinstance(node, ast.Name) else "..."
    return ".".join([root, *reversed(attributes)])


def constant_text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def clipped(text: str) -> str:
    return text if len(text) <= MAX_WRITTEN_CHARS else text[: MAX_WRITTEN_CHARS - 1] + "…"
