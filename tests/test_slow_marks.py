"""Every test that starts a real sandbox, runs this checkout's python or ``numjudge`` in a
subprocess, or sleeps is ``slow``: ``make test-fast`` (``pytest -m "not slow"``) is for the
tests that do none of these.

Read from the test modules' syntax, not run. A test is slow when it, its class or its module
(``pytestmark``) is marked ``slow`` or with one of ``tests.conftest.SLOW_MARKERS``, when each
of its parameters is marked ``slow``, or when it uses a fixture that reaches one of
``tests.conftest.SLOW_FIXTURES`` (tests/conftest.py marks those). What a test does is its own
body, the bodies of the fixtures it uses and those of the functions of ``tests`` it calls,
followed through; a sandbox the engine starts for it (``diagnose()``, a CLI command) is not
seen here, and such a test is marked by hand.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import SLOW_FIXTURES, SLOW_MARKERS

REPO = Path(__file__).resolve().parents[1]
SLOW = frozenset({"slow", *SLOW_MARKERS})
LAUNCHES = frozenset(
    f"subprocess.{name}" for name in ("run", "Popen", "call", "check_call", "check_output")
)
OUR_PROGRAMS = frozenset({"sys.executable", "NUMJUDGE", "live.NUMJUDGE"})
"""This checkout's python, and tests/app/live.py's path of its ``numjudge``."""
ALLOWED = {
    "tests/app/conftest.py::ensure_postgres": "waits for PostgreSQL to start, for the "
    "postgresql backend only, whose parameter is marked slow (BACKENDS)",
    "tests/test_layers.py::test_importing_the_settings_loads_neither_numpy_nor_the_engine": "a "
    "fresh interpreter that imports the settings only, which loads neither numpy nor the "
    "engine (what this test checks): 0.2 s",
    "tests/app/core/test_config.py::"
    "test_grading_threads_default_to_two_more_than_the_usable_cores": "a fresh interpreter "
    "that imports the settings only, as the one above: 0.2 s",
}
"""The tests and helpers whose doings are not counted, each with the reason."""

Function = ast.FunctionDef | ast.AsyncFunctionDef


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for the expression ``a.b.c``, None for anything but names and attributes."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        outer = dotted(node.value)
        return None if outer is None else f"{outer}.{node.attr}"
    return None


def mark_names(expression: ast.expr) -> set[str]:
    """The names of the ``pytest.mark`` marks of a decorator or of a ``pytestmark`` value."""
    if isinstance(expression, ast.List | ast.Tuple):
        return {name for element in expression.elts for name in mark_names(element)}
    name = dotted(expression.func if isinstance(expression, ast.Call) else expression)
    return (
        {name.removeprefix("pytest.mark.")} if name and name.startswith("pytest.mark.") else set()
    )


def only_slow_parameters(decorator: ast.expr) -> bool:
    """Whether ``decorator`` parametrizes with a literal list of ``pytest.param``s, each slow."""
    if not (
        isinstance(decorator, ast.Call) and dotted(decorator.func) == "pytest.mark.parametrize"
    ):
        return False
    values = [*decorator.args[1:2], *(k.value for k in decorator.keywords if k.arg == "argvalues")]
    return (
        bool(values)
        and isinstance(values[0], ast.List | ast.Tuple)
        and all(
            isinstance(value, ast.Call)
            and dotted(value.func) == "pytest.param"
            and any(k.arg == "marks" and "slow" in mark_names(k.value) for k in value.keywords)
            for value in values[0].elts
        )
    )


def used_fixtures(function: Function) -> set[str]:
    """The fixtures a function asks for: its parameters and its ``usefixtures`` marks."""
    arguments = function.args
    named = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call) and dotted(decorator.func) == "pytest.mark.usefixtures":
            named |= {
                a.value
                for a in decorator.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            }
    return named


def is_fixture(function: Function) -> bool:
    return any(
        dotted(decorator.func if isinstance(decorator, ast.Call) else decorator) == "pytest.fixture"
        for decorator in function.decorator_list
    )


def package_files(folder: Path) -> Iterator[Path]:
    """The modules of the package ``folder`` and of its subpackages (not the exercise folders
    of tests/exercises, which are no package)."""
    yield from folder.glob("*.py")
    for inner in folder.iterdir():
        if (inner / "__init__.py").is_file():
            yield from package_files(inner)


@dataclass(frozen=True)
class Look:
    """What one function's own body does (file:line of each), and the names it calls."""

    doings: tuple[str, ...]
    launches: tuple[str, ...]
    programs: tuple[str, ...]
    calls: tuple[str, ...]

    @classmethod
    def at(cls, path: str, function: Function) -> Look:
        doings, launches, programs, calls = [], [], [], []
        for node in ast.walk(function):
            if isinstance(node, ast.Name | ast.Attribute) and dotted(node) in OUR_PROGRAMS:
                programs.append(f"{path}:{node.lineno}")
            if not isinstance(node, ast.Call) or (called := dotted(node.func)) is None:
                continue
            calls.append(called)
            where = f"{path}:{node.lineno}"
            if called == "time.sleep":
                doings.append(f"sleeps ({where})")
            elif called.rpartition(".")[2] == "Sandbox":
                doings.append(f"starts a sandbox ({where})")
            elif called in LAUNCHES:
                launches.append(where)
        return cls(tuple(doings), tuple(launches), tuple(programs), tuple(calls))


@dataclass
class Module:
    """One module of ``tests``: its functions and what it imports from ``tests``."""

    name: str
    path: str
    tree: ast.Module
    functions: dict[str, Function] = field(default_factory=dict)
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)
    """A name imported from a module of ``tests``: that module's name and the name there."""
    modules: dict[str, str] = field(default_factory=dict)
    """A module of ``tests`` imported as a name: the module's name."""

    def marks(self) -> set[str]:
        """The marks of ``pytestmark``."""
        return {
            name
            for node in self.tree.body
            if isinstance(node, ast.Assign)
            and any(dotted(target) == "pytestmark" for target in node.targets)
            for name in mark_names(node.value)
        }

    def conftests(self) -> list[str]:
        """The conftest modules whose fixtures this module's tests see, nearest first."""
        package, found = self.name.rpartition(".")[0], []
        while package:
            found.append(f"{package}.conftest")
            package = package.rpartition(".")[0]
        return found


@dataclass(frozen=True)
class Case:
    """One test function of a test module, with the marks it has from itself and around it."""

    module: Module
    function: Function
    marks: frozenset[str]
    slow_parameters: bool

    @property
    def name(self) -> str:
        return f"{self.module.path}::{self.function.name}"


class Suite:
    """The modules of ``tests``, read once."""

    def __init__(self) -> None:
        self.modules: dict[str, Module] = {}
        self.looks: dict[str, Look] = {}
        for path in sorted(package_files(REPO / "tests")):
            relative = path.relative_to(REPO)
            name = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
            self.modules[name] = Module(name, str(relative), ast.parse(path.read_text()))
        for module in self.modules.values():
            self.index(module)

    def index(self, module: Module) -> None:
        for node in module.tree.body:
            if isinstance(node, Function):
                module.functions[node.name] = node
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests"):
                for alias in node.names:
                    local, whole = alias.asname or alias.name, f"{node.module}.{alias.name}"
                    if whole in self.modules:
                        module.modules[local] = whole
                    else:
                        module.imported[local] = (str(node.module), alias.name)

    def function(self, module: Module, name: str) -> tuple[Module, Function] | None:
        """The function of ``tests`` that the name ``name`` is in ``module``, if it is one."""
        head, _, attribute = name.partition(".")
        if attribute:
            owner = self.modules.get(module.modules.get(head, ""))
            return (
                (owner, owner.functions[attribute])
                if owner and attribute in owner.functions
                else None
            )
        if name in module.functions:
            return module, module.functions[name]
        owner_name, original = module.imported.get(name, ("", ""))
        owner = self.modules.get(owner_name)
        return (owner, owner.functions[original]) if owner and original in owner.functions else None

    def fixture(self, module: Module, name: str) -> tuple[Module, Function] | None:
        """The fixture ``name`` as a test of ``module`` gets it (None for pytest's own)."""
        for candidate in (module.name, *module.conftests()):
            found = candidate in self.modules and self.function(self.modules[candidate], name)
            if found and is_fixture(found[1]):
                return found
        return None

    def slow_fixture(self, module: Module, name: str, seen: frozenset[str] = frozenset()) -> bool:
        found = None if name in seen else self.fixture(module, name)
        return name in SLOW_FIXTURES or (
            found is not None
            and any(
                self.slow_fixture(found[0], used, seen | {name}) for used in used_fixtures(found[1])
            )
        )

    def cases(self) -> Iterator[Case]:
        for module in self.modules.values():
            if not Path(module.path).name.startswith("test_"):
                continue
            for node in module.tree.body:
                if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                    around = {m for d in node.decorator_list for m in mark_names(d)}
                    for method in node.body:
                        if isinstance(method, Function) and method.name.startswith("test"):
                            yield self.case(module, method, around)
                elif isinstance(node, Function) and node.name.startswith("test"):
                    yield self.case(module, node, set())

    def case(self, module: Module, function: Function, around: set[str]) -> Case:
        own = {name for decorator in function.decorator_list for name in mark_names(decorator)}
        return Case(
            module,
            function,
            frozenset(own | around | module.marks()),
            any(only_slow_parameters(decorator) for decorator in function.decorator_list),
        )

    def is_slow(self, case: Case) -> bool:
        return (
            bool(case.marks & SLOW)
            or case.slow_parameters
            or any(self.slow_fixture(case.module, name) for name in used_fixtures(case.function))
        )

    def look(self, module: Module, function: Function) -> Look:
        name = f"{module.path}::{function.name}"
        if name not in self.looks:
            self.looks[name] = Look.at(module.path, function)
        return self.looks[name]

    def reach(self, case: Case) -> Iterator[Look]:
        """The test, the fixtures it uses and the functions of ``tests`` these call, but for
        those of ``ALLOWED``."""
        waiting, seen = [(case.module, case.function)], set[str]()
        while waiting:
            module, function = waiting.pop()
            name = f"{module.path}::{function.name}"
            if name in seen or name in ALLOWED:
                continue
            seen.add(name)
            look = self.look(module, function)
            yield look
            waiting += [found for name in look.calls if (found := self.function(module, name))]
            if function is case.function or is_fixture(function):
                waiting += [
                    found
                    for name in used_fixtures(function)
                    if (found := self.fixture(module, name)) is not None
                ]

    def what_makes_slow(self, case: Case) -> list[str]:
        """What the test does that belongs in the slow lane, and where (file:line)."""
        looks = list(self.reach(case))
        doings = [doing for look in looks for doing in look.doings]
        launches = [where for look in looks for where in look.launches]
        programs = [where for look in looks for where in look.programs]
        if launches and programs:
            places = ", ".join(sorted({*launches, *programs}))
            doings.append(f"runs this checkout's python or numjudge in a subprocess ({places})")
        return doings


def test_what_starts_a_process_or_sleeps_is_slow() -> None:
    suite = Suite()
    everything = {
        f"{module.path}::{name}" for module in suite.modules.values() for name in module.functions
    }
    assert set(ALLOWED) <= everything, "ALLOWED names what is no longer there"
    unmarked = [
        f"{case.name}: {'; '.join(doings)}"
        for case in suite.cases()
        if not suite.is_slow(case) and (doings := suite.what_makes_slow(case))
    ]
    assert not unmarked, "mark these slow:\n" + "\n".join(unmarked)
