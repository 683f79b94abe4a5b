"""graders/authoring/samples.py: reading a sample's header."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.authoring.samples import Expectation, read_expectation, read_samples
from graders.errors import ExerciseError
from graders.results import Diagnosis, DiagnosisSource, GradeReport, Verdict
from tests.graders.helpers import REPO, write


def sample(tmp_path: Path, text: str) -> Path:
    file = tmp_path / "gate" / "samples" / "s.py"
    write(file, text)
    return file


def test_a_header_anywhere_in_the_file(tmp_path: Path) -> None:
    file = sample(
        tmp_path,
        '"""doc"""\n#  expect: score=2.5 diagnosis=one_minus_z verdict=failed\ndef f(): pass\n',
    )
    assert read_expectation(file) == Expectation(Verdict.FAILED, 2.5, "one_minus_z")


def test_diagnosis_none(tmp_path: Path) -> None:
    file = sample(tmp_path, "# expect: verdict=passed score=26 diagnosis=none\n")
    assert read_expectation(file) == Expectation(Verdict.PASSED, 26.0, None)
    assert read_expectation(file).describe() == "verdict=passed score=26 diagnosis=none"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "def f(): pass\n",
            "needs exactly one header line '# expect: verdict=... score=... "
            "diagnosis=...', found 0",
        ),
        (
            "# expect: verdict=passed score=1 diagnosis=none\n# expect: verdict=passed\n",
            "needs exactly one header line "
            "'# expect: verdict=... score=... diagnosis=...', found 2",
        ),
        ("# expect: verdict=passed score=1\n", "the header lacks diagnosis"),
        (
            "# expect: verdict=passed score=1 diagnosis=none points=2\n",
            "'points=2' in the header is not one of "
            "verdict=..., score=..., diagnosis=... (each once)",
        ),
        (
            "# expect: verdict=passed verdict=failed score=1 diagnosis=none\n",
            "'verdict=failed' in the header is not one of verdict=..., score=..., diagnosis=... "
            "(each once)",
        ),
        (
            "# expect: verdict=ok score=1 diagnosis=none\n",
            "verdict must be one of passed, failed, error, timeout, memory_limit, not 'ok'",
        ),
        (
            "# expect: verdict=passed score=all diagnosis=none\n",
            "score must be a number, not 'all'",
        ),
    ],
)
def test_a_malformed_header_is_named(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(ExerciseError) as raised:
        read_expectation(sample(tmp_path, text))
    assert str(raised.value) == f"gate/samples/s.py: {problem}"


def test_samples_in_name_order(tmp_path: Path) -> None:
    for name in ("b.py", "a.py"):
        write(tmp_path / "samples" / name, "# expect: verdict=error score=0 diagnosis=none\n")
    write(tmp_path / "samples" / "notes.txt", "not a sample")
    assert [s.name for s in read_samples(tmp_path)] == ["a.py", "b.py"]
    assert read_samples(tmp_path / "nothing") == ()


def test_what_a_report_got() -> None:
    report = GradeReport(
        "gate",
        "v1",
        Verdict.FAILED,
        diagnosis=Diagnosis("hint", ("a",), DiagnosisSource.MISTAKE, "one_minus_z"),
    )
    got = Expectation.of(report)
    assert got == Expectation(Verdict.FAILED, 0.0, "one_minus_z")
    assert got.matches(Expectation(Verdict.FAILED, 1e-9, "one_minus_z"))
    assert not got.matches(Expectation(Verdict.FAILED, 1.0, "one_minus_z"))
    assert not got.matches(Expectation(Verdict.ERROR, 0.0, "one_minus_z"))
    assert not got.matches(Expectation(Verdict.FAILED, 0.0, None))


def test_the_authoring_guides_finite_difference_sample_differentiates_its_layer(
    tmp_path: Path,
) -> None:
    # docs/authoring.md shows a generic finite-difference sample for a backward function that
    # takes the upstream gradient: its header must read, and its values must be the gradients
    # of sum(dout * tanh(x @ W + b)), so that it fails a gradient exercise by time alone.
    guide = (REPO / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = guide.split("### Gradient exercises: finite differences must fail")[1]
    code = re.findall(r"```python\n# samples/finite_differences.py\n(.*?)```", section, re.S)[0]
    file = sample(tmp_path, code)
    assert read_expectation(file) == Expectation(Verdict.TIMEOUT, 1, None)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(file), "exec"), namespace)
    rng = np.random.default_rng(3)
    x, w, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 2)), rng.normal(size=2)
    dout = rng.normal(size=(3, 2))
    da = dout * (1 - np.tanh(x @ w + b) ** 2)
    exact = (da @ w.T, x.T @ da, da.sum(axis=0))
    for got, expected in zip(namespace["tanh_layer_backward"](x, w, b, dout), exact, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8)
