"""Per-learner variants in the engine: ``@variant`` (graders/cases.py), the cases and the
statement made with a learner's numbers, prepared once per variant (graders/exercises)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import pytest

from graders.api import (
    ExerciseCatalog,
    ExerciseError,
    Sandbox,
    fill_variant,
    load_exercise,
    validate_folder,
)
from graders.cases import case, collect_declared, variant
from graders.exercises import prepare_exercise
from graders.exercises.preparation import public_inputs
from tests.graders.helpers import EXERCISES, make_tiny_exercise

LEAKY = EXERCISES / "leaky-integrator"

VARIANT_CASES = """
import numpy as np

from graders.cases import case, variant


@variant(default={"threshold": 1.5})
def own_threshold(rng):
    return {"threshold": float(rng.choice([0.5, 1.5, 2.5]))}


@case(public=True)
def example(rng, variant):
    return {"x": np.array([1.0, 2.0, 3.0]), "threshold": variant["threshold"]}


@case(points=2)
def random_values(rng):
    return {"x": rng.normal(size=10), "threshold": 0.0}
"""


@pytest.fixture(scope="module")
def leaky() -> ExerciseCatalog:
    return ExerciseCatalog(EXERCISES)


def seed_drawing(catalog: ExerciseCatalog, exercise_id: str, name: str, value: float) -> int:
    """A seed whose variant has ``value`` under ``name``."""
    prepared = catalog.prepared(exercise_id)
    return next(s for s in range(1000) if prepared.variant_for(s)[name] == value)


def test_the_same_seed_draws_the_same_variant_and_seeds_differ(leaky: ExerciseCatalog) -> None:
    prepared = leaky.prepared("leaky-integrator")
    assert prepared.variant == {"alpha": 0.75, "s1": 0.25, "s2": 0.4375, "window": 4.0}
    drawn = [prepared.variant_for(seed) for seed in range(40)]
    assert [prepared.variant_for(seed) for seed in range(40)] == drawn
    assert len({v["alpha"] for v in drawn}) > 1
    for numbers in drawn:
        alpha = numbers["alpha"]
        assert numbers["window"] == pytest.approx(1 / (1 - alpha))
        assert numbers["s2"] == pytest.approx(1 - alpha**2)


def test_two_variants_differ_in_the_public_case_and_share_the_hidden_ones(
    leaky: ExerciseCatalog,
) -> None:
    default = leaky.prepared("leaky-integrator")
    own = leaky.prepared("leaky-integrator", {"alpha": 0.6, "s1": 0.4, "s2": 0.64, "window": 2.5})
    assert own.variant["alpha"] == 0.6 and own is not default
    step = {c.name: c for c in own.cases}["step response"]
    assert step.inputs["alpha"] == 0.6
    states, window = step.expected
    np.testing.assert_allclose(states[:, 0], 1 - 0.6 ** np.arange(1, 7))
    assert window == pytest.approx(2.5)
    default_step = {c.name: c for c in default.cases}["step response"]
    assert default_step.expected[1] == pytest.approx(4.0)
    for mine, shared in zip(own.cases, default.cases, strict=True):
        if not mine.spec.public:
            assert mine.name == shared.name
            for a, b in zip(mine.expected, shared.expected, strict=True):
                np.testing.assert_array_equal(a, b)
    # The same variant again is the same preparation; the default numbers are the default's.
    assert leaky.prepared("leaky-integrator", dict(own.variant)) is own
    assert leaky.prepared("leaky-integrator", dict(default.variant)) is default
    assert leaky.prepared("leaky-integrator", None) is default


def test_a_seed_makes_the_learners_public_expected_values(leaky: ExerciseCatalog) -> None:
    seeds = [seed_drawing(leaky, "leaky-integrator", "alpha", a) for a in (0.5, 0.9)]
    prepared = leaky.prepared("leaky-integrator")
    windows = []
    for seed in seeds:
        again = leaky.prepared("leaky-integrator", prepared.variant_for(seed))
        windows.append({c.name: c for c in again.cases}["step response"].expected[1])
    assert windows == [pytest.approx(2.0), pytest.approx(10.0)]


def test_a_recorded_variant_is_completed_by_the_version_that_grades_it(
    leaky: ExerciseCatalog,
) -> None:
    # A name the exercise no longer draws is dropped, one it lacks takes the default.
    prepared = leaky.prepared("leaky-integrator", {"alpha": 0.5, "gone": 3})
    assert prepared.variant == {"alpha": 0.5, "s1": 0.25, "s2": 0.4375, "window": 4.0}


def test_the_statement_shows_the_numbers(leaky: ExerciseCatalog) -> None:
    exercise = leaky.load("leaky-integrator")
    text = fill_variant(
        exercise.statements["en"], {"alpha": 0.6, "s1": 0.4, "s2": 0.64, "window": 2.5}
    )
    assert "$\\alpha = 0.6$" in text and "`window`\nis `2.5`" in text
    assert "{{" not in text
    assert fill_variant("k = {{ variant.k }}, {{variant.other}}", {"k": 3}) == (
        "k = 3, {{variant.other}}"
    )


def test_a_grading_without_a_learner_uses_the_default(tmp_path: Path) -> None:
    folder = make_tiny_exercise(tmp_path, cases=VARIANT_CASES)
    exercise = load_exercise(folder)
    assert public_inputs(exercise)["example"]["threshold"] == 1.5
    assert public_inputs(exercise, {"threshold": 2.5})["example"]["threshold"] == 2.5
    prepared = prepare_exercise(exercise)
    assert {c.name: c.expected for c in prepared.cases}["example"] == 2
    own = prepare_exercise(exercise, variant={"threshold": 0.5})
    assert {c.name: c.expected for c in own.cases}["example"] == 3


def test_a_case_that_takes_a_variant_needs_one_declared(tmp_path: Path) -> None:
    cases = VARIANT_CASES.replace('@variant(default={"threshold": 1.5})\n', "")
    folder = make_tiny_exercise(tmp_path, cases=cases)
    with pytest.raises(ExerciseError, match="takes a variant, but no function"):
        prepare_exercise(load_exercise(folder))


def test_a_draw_must_give_the_defaults_names_as_numbers() -> None:
    def declare() -> None:
        @variant(default={"scale": 0.5})
        def draw(rng: np.random.Generator) -> dict[str, object]:
            return {"scale": "half"}

        @case(public=True)
        def example(rng: np.random.Generator, variant: Mapping[str, float]) -> dict[str, float]:
            return {"x": variant["scale"]}

    declared = collect_declared(declare)
    assert declared.cases[0].takes_variant
    assert declared.variant is not None
    with pytest.raises(ValueError, match="'scale' must be a number"):
        declared.variant.drawn(1)

    def renamed() -> None:
        variant(default={"scale": 0.5})(lambda rng: {"D": 3})

    other = collect_declared(renamed).variant
    assert other is not None
    with pytest.raises(ValueError, match="names of its default"):
        other.drawn(1)
    with pytest.raises(ValueError, match="must be a number"):
        variant(default={"scale": True})
    with pytest.raises(ValueError, match="default= names no number"):
        variant(default={})
    with pytest.raises(TypeError, match="@variant needs default="):
        variant(lambda rng: {"scale": 0.5})


def drawn_by(draw: object) -> Callable[[], dict[str, float]]:
    """The first learner's draw from a ``@variant`` returning what ``draw`` returns."""

    def declare() -> None:
        variant(default={"scale": 0.5})(draw)  # type: ignore[arg-type]

    declared = collect_declared(declare).variant
    assert declared is not None
    return lambda: declared.drawn(1)


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        ((0.5,), "must return a dict of numbers keyed by name, got tuple"),
        (0.5, "must return a dict of numbers keyed by name, got float"),
        (None, "must return a dict of numbers keyed by name, got NoneType"),
        ({0: 0.5}, "must return a dict of numbers keyed by name, got dict with keys 0"),
        ({"scale": float("nan")}, "'scale' must be a finite number, got nan"),
        ({"scale": float("inf")}, "'scale' must be a finite number, got inf"),
    ],
)
def test_a_draw_that_is_no_dict_of_finite_numbers_is_refused_with_what_it_gave(
    returned: object, message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        drawn_by(lambda rng: returned)()


def test_a_draw_that_raises_is_named_with_its_exception() -> None:
    def draw(rng: np.random.Generator) -> dict[str, float]:
        raise KeyError("scale")

    with pytest.raises(ValueError, match="@variant raised KeyError: 'scale'"):
        drawn_by(draw)()


def test_a_draw_that_is_no_variant_makes_the_exercise_broken_not_a_crash(tmp_path: Path) -> None:
    # The service refuses an ExerciseError as a broken exercise; any other exception was a 500.
    folder = make_tiny_exercise(
        tmp_path,
        cases=VARIANT_CASES.replace(
            'return {"threshold": float(rng.choice([0.5, 1.5, 2.5]))}',
            "return (float(rng.choice([0.5, 1.5, 2.5])),)",
        ),
    )
    prepared = ExerciseCatalog(tmp_path).prepared("count-above")
    with pytest.raises(ExerciseError, match=r"cases\.py: @variant must return a dict"):
        prepared.variant_for(3)
    assert folder.exists()


def test_one_variant_per_cases_file() -> None:
    def declare() -> None:
        variant(default={"a": 1})(lambda rng: {"a": 2})
        variant(default={"b": 1})(lambda rng: {"b": 2})

    with pytest.raises(ValueError, match="more than one @variant"):
        collect_declared(declare)


def test_validate_names_a_bad_draw_and_an_unknown_placeholder(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    good = make_tiny_exercise(tmp_path, "good", cases=VARIANT_CASES)
    (good / "statement.md").write_text(
        "Write `count_above(x, threshold)`; your threshold is {{ variant.threshold }}.\n",
        encoding="utf-8",
    )
    result = validate_folder(good, sandbox)
    assert not [p for p in result.problems if "variant" in p], result.problems
    assert any("threshold = 1.5 by default; 3 different ones" in n for n in result.notes)

    bad = make_tiny_exercise(
        tmp_path, "bad", cases=VARIANT_CASES.replace("float(rng.choice", "str(rng.choice")
    )
    (bad / "statement.md").write_text(
        "Write `count_above(x, threshold)` above {{ variant.limit }}.\n", encoding="utf-8"
    )
    problems = validate_folder(bad, sandbox).problems
    assert any("{{ variant.limit }} is not a placeholder" in p for p in problems), problems
    assert any("@variant: variant 'threshold' must be a number" in p for p in problems), problems


def test_validate_names_a_malformed_placeholder_and_one_without_a_variant(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    malformed = make_tiny_exercise(tmp_path, "malformed", cases=VARIANT_CASES)
    (malformed / "statement.md").write_text(
        "Write `count_above(x, threshold)` above {{ variant.thres-hold }}.\n", encoding="utf-8"
    )
    problems = validate_folder(malformed, sandbox).problems
    assert any(
        "{{ variant.thres-hold }} is not a placeholder" in p and "{{ variant.threshold }}" in p
        for p in problems
    ), problems
    plain = make_tiny_exercise(tmp_path, "plain")
    (plain / "statement.md").write_text(
        "Write `count_above(x, threshold)` above {{ variant.threshold }}.\n", encoding="utf-8"
    )
    problems = validate_folder(plain, sandbox).problems
    assert any("there is no @variant in cases.py" in p for p in problems), problems


def test_validate_runs_the_reference_on_each_drawn_variant(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_tiny_exercise(tmp_path, cases=VARIANT_CASES)
    # Right on the default (1.5) and the other draws, but not for a learner drawing 0.5.
    (folder / "solution.py").write_text(
        "import numpy as np\n\n\ndef count_above(x, threshold):\n"
        "    return int(np.sum(x > threshold)) + int(0 / (threshold - 0.5))\n",
        encoding="utf-8",
    )
    problems = validate_folder(folder, sandbox).problems
    assert any(
        "on case 'example' with the drawn variant threshold = 0.5, raises ZeroDivisionError" in p
        for p in problems
    ), problems
    assert not any("threshold = 2.5" in p for p in problems), problems


def test_a_worked_example_of_a_case_taking_the_variant_is_refused(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_tiny_exercise(tmp_path, cases=VARIANT_CASES)
    # Right for the default threshold only: another learner's numbers differ.
    (folder / "statement.md").write_text(
        "Write `count_above(x, threshold)`.\n\n"
        "[//]: # (worked example: example)\n\n"
        "With x = [1.0, 2.0, 3.0] and threshold 1.5 the count is 2.\n\n"
        "[//]: # (end of worked example)\n",
        encoding="utf-8",
    )
    problems = validate_folder(folder, sandbox).problems
    assert any(
        "case 'example' takes the learner's variant, so its numbers differ per learner" in p
        for p in problems
    ), problems
