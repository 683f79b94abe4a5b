"""graders/syntax.py: parsing from several threads at once, on every interpreter we run on."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graders import syntax

ROOT = Path(__file__).resolve().parents[2]

# Three threads parse while the main thread formats tracebacks (3.11 parses the failing line
# for its carets). A collection callback that yields makes every collection inside a parse a
# thread switch, which is when the shared recursion depth of an affected interpreter breaks.
RACE = textwrap.dedent("""
    import ast, gc, sys, threading, time, traceback
    if sys.argv[1] == "guarded":
        import graders.syntax
    SOURCE = "\\n".join(f"def f{i}(a, b):\\n    return [(a + b) * {i} for _ in range(3)]"
                        for i in range(50))
    gc.set_threshold(100, 5, 5)
    gc.callbacks.append(lambda phase, info: time.sleep(0))
    failures = []

    def parse():
        try:
            for _ in range(150):
                ast.parse(SOURCE)
        except SystemError as exc:
            failures.append(exc)

    threads = [threading.Thread(target=parse) for _ in range(3)]
    for thread in threads:
        thread.start()
    for _ in range(100):
        try:
            (lambda: {}["missing"])()
        except KeyError:
            try:
                traceback.format_exc()
            except SystemError as exc:
                failures.append(exc)
    for thread in threads:
        thread.join()
    print(repr(failures[0]) if failures else "no failure")
""")


def run_race(mode: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-c", RACE, mode],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return completed.stdout.strip()


@pytest.mark.slow  # a fresh interpreter racing threads: about 2 s
def test_threads_parse_at_once_without_a_system_error() -> None:
    assert run_race("guarded") == "no failure"


@pytest.mark.slow
@pytest.mark.skipif(not syntax.AFFECTED, reason="this interpreter's AST conversion is thread-safe")
def test_the_race_is_real_on_this_interpreter_without_the_guard() -> None:
    assert "AST constructor recursion depth mismatch" in run_race("unguarded")


def test_the_guard_is_installed_once_and_only_where_needed() -> None:
    import ast

    syntax.serialise_parsing()
    assert getattr(ast.parse, "serialised", False) is syntax.AFFECTED
    assert syntax.parse("x = 1").body[0].lineno == 1
