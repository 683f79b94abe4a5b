"""The layers of the code base, checked on every test run.

- ``graders`` never imports ``app`` (an import-linter contract in pyproject.toml);
- the pages (``app.web``) and the API (``app.api``) reach the database only through
  ``app.services`` (import-linter contracts);
- ``app`` imports from ``graders`` only the names ``graders/__init__.py`` exports: import-linter
  has no contract for "only these names", so this file reads every ``import`` of ``app``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import graders

REPO = Path(__file__).resolve().parents[1]


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
    """Every import in ``source`` that reaches into ``graders`` past its exported names."""
    problems: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if node.module.startswith("graders."):
                problems.append(f"{where}:{node.lineno}: from {node.module} import …")
            elif node.module == "graders":
                problems += [
                    f"{where}:{node.lineno}: graders.{alias.name} is not exported"
                    for alias in node.names
                    if alias.name not in graders.__all__
                ]
        elif isinstance(node, ast.Import):
            problems += [
                f"{where}:{node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith("graders.")
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
        "import these from `graders` (add them to graders/__init__.py's "
        "__all__ if they belong to its public API):\n" + "\n".join(problems)
    )


def test_the_graders_import_check_finds_each_way_around_the_exports() -> None:
    source = (
        "from graders import Exercise, _private\n"
        "from graders.exercises import Exercise\n"
        "import graders.checks.judge\n"
        "def later():\n    from graders.sandbox import runner\n"
    )
    assert graders_import_problems(source, "x.py") == [
        "x.py:1: graders._private is not exported",
        "x.py:2: from graders.exercises import …",
        "x.py:3: import graders.checks.judge",
        "x.py:5: from graders.sandbox import …",
    ]
