"""The layers of the code base, checked on every test run.

- ``graders`` never imports ``app`` (an import-linter contract in pyproject.toml);
- the pages (``app.web``) and the API (``app.api``) reach the database only through
  ``app.services`` (import-linter contracts);
- ``app`` imports from ``graders`` only ``graders.api`` and the names it exports: import-linter
  has no contract for "only these names", so this file reads every ``import`` of ``app``;
- importing the settings (``app.core.config``) loads neither numpy nor the engine;
- no module of ``app`` or ``graders`` imports itself through others (an import circle), not
  even for type hints only: grimp, which import-linter builds its graph with, lists them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Mapping, Set
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import grimp
import pytest

from graders import api

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def graders_import_problems(source: str, where: str) -> list[str]:
    """Every import in ``source`` that reaches into ``graders`` past ``graders.api``'s names."""
    problems: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module == "graders.api":
                problems += [
                    f"{where}:{node.lineno}: graders.api.{alias.name} is not exported"
                    for alias in node.names
                    if alias.name not in api.__all__
                ]
            elif node.module == "graders":
                problems += [
                    f"{where}:{node.lineno}: from graders import {alias.name}"
                    for alias in node.names
                    if alias.name != "api"
                ]
            elif node.module.startswith("graders."):
                problems.append(f"{where}:{node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Import):
            problems += [
                f"{where}:{node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith("graders")
            ]
    return problems


def test_app_imports_only_the_names_graders_exports() -> None:
    problems = [
        problem
        for path in sorted((REPO / "app").rglob("*.py"))
        for problem in graders_import_problems(
            path.read_text(encoding="utf-8"), str(path.relative_to(REPO))
        )
    ]
    assert problems == [], (
        "import these from `graders.api` (add them to its "
        "__all__ if they belong to its public API):\n" + "\n".join(problems)
    )


def test_the_graders_import_check_finds_each_way_around_the_exports() -> None:
    source = (
        "from graders.api import Exercise, _private\n"
        "from graders.exercises import Exercise\n"
        "import graders.grading.grade\n"
        "from graders import api, results\n"
        "import graders\n"
        "def later():\n    from graders.sandbox import runner\n"
    )
    assert graders_import_problems(source, "x.py") == [
        "x.py:1: graders.api._private is not exported",
        "x.py:2: from graders.exercises import …",
        "x.py:3: import graders.grading.grade",
        "x.py:4: from graders import results",
        "x.py:5: import graders",
        "x.py:7: from graders.sandbox import …",
    ]


def test_importing_the_settings_loads_neither_numpy_nor_the_engine() -> None:
    # A fresh interpreter: this one has loaded both already.
    printed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, app.core.config; print(sorted(sys.modules))",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    loaded = set(ast.literal_eval(printed))
    assert "app.core.config" in loaded
    assert not {name for name in loaded if name == "numpy" or name.startswith("graders.")}


def import_circle(imports: Mapping[str, Set[str]]) -> list[str]:
    """One import circle of ``imports`` (a module -> the modules it imports), as the modules
    around it with the first repeated last; none: ``[]``."""
    try:
        TopologicalSorter(imports).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return []


def test_no_module_of_app_or_graders_imports_itself_through_others() -> None:
    graph = grimp.build_graph("app", "graders", cache_dir=None)
    imports = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    assert import_circle(imports) == []


def test_the_circle_search_finds_a_circle_through_three_modules() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    circle = import_circle(imports)
    assert len(circle) == 4
    assert circle[0] == circle[-1]
    assert set(circle) == {"a", "b", "c"}
