"""graders/samples.py: reading a sample's header."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.errors import ExerciseError
from graders.results import Diagnosis, DiagnosisSource, GradeReport, Verdict
from graders.samples import Expectation, read_expectation, read_samples
from tests.graders.helpers import write


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
