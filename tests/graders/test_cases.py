"""graders/cases.py: the @case decorator and collect_cases, the exercise author's API."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from graders.api import case as exported_case
from graders.cases import DEFAULT_ATOL, DEFAULT_RTOL, CaseSpec, _registry, case, collect_cases


def inputs(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {"x": rng.normal(size=3)}


def check_positive(inputs: object, got: object) -> str | None:
    return None


def test_bare_decorator_declares_a_case_with_the_defaults() -> None:
    def declare() -> None:
        @case
        def small_random_vector(rng: np.random.Generator) -> dict[str, np.ndarray]:
            return inputs(rng)

    (spec,) = collect_cases(declare)
    assert spec.name == "small random vector"
    assert (spec.public, spec.points, spec.rtol, spec.atol, spec.seed) == (
        False,
        1.0,
        1e-7,
        1e-9,
        None,
    )
    assert (DEFAULT_RTOL, DEFAULT_ATOL) == (1e-7, 1e-9)
    assert dict(spec.batch_axes) == {}
    assert spec.output_batch_axis == 0
    assert spec.checks == ()
    assert not spec.batched
    assert spec.make_inputs.__name__ == "small_random_vector"


def test_decorator_with_options() -> None:
    def declare() -> None:
        @case(
            name="Worked example",
            public=True,
            points=3,
            rtol=1e-3,
            atol=0.0,
            seed=7,
            batch_axes={"x": 1},
            output_batch_axis=1,
            checks=[check_positive],
        )
        def example(rng: np.random.Generator) -> dict[str, np.ndarray]:
            return inputs(rng)

    (spec,) = collect_cases(declare)
    assert spec == CaseSpec(
        name="Worked example",
        make_inputs=spec.make_inputs,
        public=True,
        points=3.0,
        rtol=1e-3,
        atol=0.0,
        seed=7,
        batch_axes={"x": 1},
        output_batch_axis=1,
        checks=(check_positive,),
    )
    assert isinstance(spec.points, float)
    assert spec.batched
    assert spec.rng_seed == 7


def test_decorator_returns_the_function_unchanged() -> None:
    made: list[object] = []

    def declare() -> None:
        def bare(rng: np.random.Generator) -> dict[str, np.ndarray]:
            return inputs(rng)

        def optioned(rng: np.random.Generator) -> dict[str, np.ndarray]:
            return inputs(rng)

        made.extend([case(bare) is bare, case(points=2)(optioned) is optioned])

    assert len(collect_cases(declare)) == 2
    assert made == [True, True]


def test_cases_keep_declaration_order() -> None:
    def declare() -> None:
        for name in ("c", "a", "b"):
            case(name=name)(inputs)

    assert [s.name for s in collect_cases(declare)] == ["c", "a", "b"]


@pytest.mark.slow
def test_seed_derived_from_the_name_is_stable_across_processes() -> None:
    def declare() -> None:
        case(name="numerical example")(inputs)
        case(name="batched")(inputs)

    first, second = collect_cases(declare)
    # Literal values: the seed must not depend on PYTHONHASHSEED or the process.
    assert first.rng_seed == 4339662681123364345
    assert second.rng_seed == 4521245358822073732
    script = (
        "from graders.cases import CaseSpec; print(CaseSpec('numerical example', None).rng_seed)"
    )
    other = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin:/bin"},
    )
    assert other.stdout.strip() == "4339662681123364345"


def test_seed_gives_the_same_inputs_on_every_run() -> None:
    def declare() -> None:
        case(name="numerical example")(inputs)

    (spec,) = collect_cases(declare)
    a = spec.inputs(np.random.default_rng(spec.rng_seed), {})["x"]
    b = spec.inputs(np.random.default_rng(spec.rng_seed), {})["x"]
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(a[:2], [-0.8773137104716479, -0.22185894533582848], rtol=0)


def test_explicit_seed_overrides_the_name_and_zero_is_a_seed() -> None:
    def declare() -> None:
        case(name="one", seed=0)(inputs)
        case(name="two", seed=0)(inputs)
        case(name="three")(inputs)

    one, two, three = collect_cases(declare)
    assert one.rng_seed == two.rng_seed == 0
    assert three.rng_seed != 0


def test_collect_cases_returns_only_the_cases_declared_by_its_module() -> None:
    before = len(_registry)

    def first() -> None:
        case(name="first a")(inputs)
        case(name="first b")(inputs)

    def second() -> None:
        case(name="second")(inputs)

    assert [s.name for s in collect_cases(first)] == ["first a", "first b"]
    assert [s.name for s in collect_cases(second)] == ["second"]
    assert len(_registry) == before


def test_collect_cases_cleans_up_when_the_module_raises() -> None:
    before = len(_registry)

    def broken() -> None:
        case(name="declared before the error")(inputs)
        raise RuntimeError("cases.py is broken")

    with pytest.raises(RuntimeError, match=r"cases\.py is broken"):
        collect_cases(broken)
    assert len(_registry) == before

    def fine() -> None:
        case(name="after")(inputs)

    assert [s.name for s in collect_cases(fine)] == ["after"]


def test_negative_points_are_refused_with_the_case_name() -> None:
    def declare() -> None:
        @case(points=-1)
        def bad_points(rng: np.random.Generator) -> dict[str, np.ndarray]:
            return inputs(rng)

    with pytest.raises(ValueError) as raised:
        collect_cases(declare)
    assert str(raised.value) == "case 'bad_points': points must be >= 0"


def test_zero_points_are_allowed() -> None:
    def declare() -> None:
        case(points=0)(inputs)

    (spec,) = collect_cases(declare)
    assert spec.points == 0.0


def test_case_is_exported_by_the_package() -> None:
    assert exported_case is case
