"""Scenario grading speed: an exercise whose cases are scenarios against one whose cases call
one function, with the same calls.

Both exercises are made in a temporary folder: ``affine(x, w, b)`` graded on 2K one-function
cases, and the same function graded on K scenarios of two calls each (the second on the first
one's output), on inputs of the same sizes; then the affine layer of
``tests/graders/scenario_exercises.py`` (forward and backward with the learner's cache) for
reference. Gradings of the two are interleaved, so that the host's noise falls on both alike.
Prints medians and the ratio measured in this one run (goal: scenarios <= 2x).

    .venv/bin/python bench/scenarios.py [--runs 60] [--cases 6]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from graders.api import PreparedExercise, Sandbox, Verdict, grade, load_exercise, prepare_exercise

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.graders.scenario_exercises import AFFINE_SOLUTION, make_affine_layer  # noqa: E402

SOLUTION = "def affine(x, w, b):\n    return x @ w + b\n"
ONE_FUNCTION = """
from graders.cases import case


@case(public=True)
def case_0(rng):
    return {"x": rng.normal(size=(8, 6)), "w": rng.normal(size=(6, 6)), "b": rng.normal(size=6)}
"""
ONE_FUNCTION_HIDDEN = """

@case
def case_{n}(rng):
    return {{"x": rng.normal(size=(8, 6)), "w": rng.normal(size=(6, 6)), "b": rng.normal(size=6)}}
"""
SCENARIOS = """
from graders.scenarios import call, scenario


def two_calls(rng):
    x, w, b = rng.normal(size=(8, 6)), rng.normal(size=(6, 6)), rng.normal(size=6)
    return [
        call("affine", x=x, w=w, b=b, returns="first"),
        call("affine", x=x @ w + b, w=rng.normal(size=(6, 6)), b=b, returns="second"),
    ]


@scenario(public=True)
def scenario_0(rng):
    return two_calls(rng)
"""
SCENARIO_HIDDEN = """

@scenario()
def scenario_{n}(rng):
    return two_calls(rng)
"""


def make(root: Path, name: str, entry_line: str, cases: str) -> PreparedExercise:
    folder = root / name
    folder.mkdir()
    (folder / "exercise.toml").write_text(
        f'id = "{name}"\ntitle = "{name}"\ndifficulty = "easy"\n{entry_line}\n'
    )
    (folder / "statement.md").write_text("Write `affine`.\n")
    (folder / "starter.py").write_text(SOLUTION)
    (folder / "solution.py").write_text(SOLUTION)
    (folder / "cases.py").write_text(textwrap.dedent(cases))
    return prepare_exercise(load_exercise(folder), mutant_cache=root / "mutants")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--cases", type=int, default=6, help="K: scenarios of two calls")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        hidden_one = "".join(ONE_FUNCTION_HIDDEN.format(n=n) for n in range(1, 2 * args.cases))
        hidden_scenarios = "".join(SCENARIO_HIDDEN.format(n=n) for n in range(1, args.cases))
        one = make(root, "one-function", 'entry = "affine"', ONE_FUNCTION + hidden_one)
        scenarios = make(root, "scenarios", 'entries = ["affine"]', SCENARIOS + hidden_scenarios)
        layer = prepare_exercise(
            load_exercise(make_affine_layer(root)), mutant_cache=root / "mutants"
        )
        graded = {"one function": one, "scenarios": scenarios, "affine layer": layer}
        codes = {"one function": SOLUTION, "scenarios": SOLUTION, "affine layer": AFFINE_SOLUTION}
        samples: dict[str, list[float]] = {label: [] for label in graded}
        with Sandbox(workers=1) as sandbox:
            for _ in range(args.runs + 1):  # the first round warms up
                for label, prepared in graded.items():
                    started = time.perf_counter()
                    assert grade(prepared, codes[label], sandbox).verdict is Verdict.PASSED
                    samples[label].append(time.perf_counter() - started)
    medians = {label: statistics.median(times[1:]) for label, times in samples.items()}
    print(f"{2 * args.cases} one-function calls against {args.cases} scenarios of 2 calls")
    for label, median in medians.items():
        print(f"{label:<13} median {median * 1000:7.2f} ms   ({args.runs} gradings)")
    ratio = medians["scenarios"] / medians["one function"]
    print(f"ratio   scenarios/one function median {ratio:.3f}   (goal <= 2.000)")


if __name__ == "__main__":
    main()
