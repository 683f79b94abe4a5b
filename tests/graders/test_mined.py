"""graders/authoring/mined.py: a mined mistake is written into the folder only when it validates
there, and runs only in the sandbox."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import ClassVar

import pytest

from graders.api import (
    ExerciseError,
    Sandbox,
    SandboxLimits,
    SandboxStarved,
    add_mistake,
    grade,
    load_exercise,
    prepare_exercise,
)
from graders.authoring.mined import mistake_source
from graders.exercises import preparation

HALVED = """import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1 / (1 + np.exp(-0.5 * (joined @ W_z.T + b_z)))
"""
HINT = "The pre-activation is halved before the sigmoid."
JA = {"ja": "シグモイドの前で前活性化が半分になっています。"}


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_mistake_that_validates_is_written_with_its_hints(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    outcome = add_mistake(gate_copy, "halved_preactivation", HALVED, HINT, JA, sandbox)
    assert outcome.written, outcome.problems
    assert outcome.path == gate_copy / "mistakes" / "mined" / "halved_preactivation.py"
    mistake = next(m for m in load_exercise(gate_copy).mistakes if m.name == "halved_preactivation")
    assert mistake.hint == HINT
    translation = tomllib.loads((gate_copy / "translation.ja.toml").read_text(encoding="utf-8"))
    assert translation["hints"]["halved_preactivation"] == JA["ja"]
    assert translation["title"]  # the rest of the file is kept


def test_an_ambiguous_mistake_is_refused_and_the_folder_left_alone(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    assert add_mistake(gate_copy, "halved", HALVED, HINT, JA, sandbox).written
    before = files(gate_copy)
    spelled_otherwise = HALVED.replace(
        "-0.5 * (joined @ W_z.T + b_z)", "-(joined @ W_z.T + b_z) / 2"
    )
    outcome = add_mistake(
        gate_copy, "halved_again", spelled_otherwise, "Another hint.", JA, sandbox
    )
    assert not outcome.written
    assert any(
        "halved_again.py: its hint is not the diagnosis of its own output" in p
        and "same outputs as halved.py" in p
        for p in outcome.problems
    ), outcome.problems
    assert files(gate_copy) == before


def test_a_mistake_no_hidden_case_catches_is_refused(gate_copy: Path, sandbox: Sandbox) -> None:
    reference = (gate_copy / "solution.py").read_text(encoding="utf-8")
    outcome = add_mistake(gate_copy, "right_after_all", reference, HINT, JA, sandbox)
    assert outcome.problems == (
        "mistakes/mined/right_after_all.py: fails no hidden case; add a hidden case it gets wrong",
    )
    assert not (gate_copy / "mistakes" / "mined" / "right_after_all.py").exists()


def test_a_name_an_empty_hint_or_a_missing_translation_is_refused(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    before = files(gate_copy)
    taken = add_mistake(gate_copy, "missing_bias", HALVED, HINT, JA, sandbox)
    assert taken.problems == ("mistakes/missing_bias.py already exists; choose another name",)
    assert (
        "lower-case letters"
        in add_mistake(gate_copy, "Bad-Name", HALVED, HINT, JA, sandbox).problems[0]
    )
    assert add_mistake(gate_copy, "halved", HALVED, "  ", JA, sandbox).problems == (
        "the hint is empty; write what the learner should fix",
    )
    untranslated = add_mistake(gate_copy, "halved", HALVED, HINT, {"ja": ""}, sandbox)
    assert any("[hints] has no text for mistake(s) 'halved'" in p for p in untranslated.problems)
    assert files(gate_copy) == before


def test_the_hint_follows_the_code_so_future_imports_stay_first() -> None:
    source = mistake_source("from __future__ import annotations\n\nX = 1\n", 'say "why"')
    assert source.startswith("from __future__ import annotations")
    assert source.endswith('\n\nHINT = "say \\"why\\""\n')


def test_a_mined_mistake_runs_only_in_the_sandbox(
    gate_copy: Path, sandbox: Sandbox, tmp_path: Path
) -> None:
    """Preparing the exercise never runs a mined mistake's code in the preparing process (it
    is a learner's code), yet its outputs are known: the same code submitted gets its hint."""
    marker = tmp_path / "ran-on-the-trusted-side"
    escaping = (
        f"import pathlib\n\ntry:\n    pathlib.Path({str(marker)!r}).write_text('here')\n"
        f"except OSError:\n    pass\n\n{HALVED}"
    )
    outcome = add_mistake(gate_copy, "halved_escaping", escaping, HINT, JA, sandbox)
    assert outcome.written, outcome.problems
    mistake = next(m for m in load_exercise(gate_copy).mistakes if m.name == "halved_escaping")
    assert mistake.mined
    prepared = prepare_exercise(load_exercise(gate_copy))
    assert not marker.exists()
    assert any("halved_escaping" in case.table.wrong for case in prepared.cases)
    report = grade(prepared, escaping, sandbox)
    assert report.diagnosis is not None
    assert (report.diagnosis.key, report.diagnosis.hint) == ("halved_escaping", HINT)
    assert not marker.exists()


def test_an_author_and_a_mined_mistake_cannot_share_a_name(gate_copy: Path) -> None:
    mined = gate_copy / "mistakes" / "mined"
    mined.mkdir()
    (mined / "missing_bias.py").write_text(mistake_source(HALVED, HINT), encoding="utf-8")
    with pytest.raises(ExerciseError, match="a mistake named 'missing_bias' exists already"):
        load_exercise(gate_copy)


class StarvedSandbox:
    """A sandbox on a host too busy to run anything: records the limits it was given."""

    limits_seen: ClassVar[list[SandboxLimits]] = []

    def __init__(self, workers: int, limits: SandboxLimits) -> None:
        self.limits_seen.append(limits)

    def __enter__(self) -> StarvedSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def run(self, *args: object) -> None:
        raise SandboxStarved("the host gave the run too little CPU")


def test_a_mined_mistake_the_sandbox_cannot_run_is_left_out_and_the_rest_prepared(
    gate_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mined = gate_copy / "mistakes" / "mined"
    mined.mkdir()
    (mined / "halved").with_suffix(".py").write_text(mistake_source(HALVED, HINT), "utf-8")
    monkeypatch.setattr(preparation, "Sandbox", StarvedSandbox)
    limits = SandboxLimits(strict=False, uid_base=62000)
    prepared = prepare_exercise(load_exercise(gate_copy), sandbox_limits=limits)
    assert "halved" not in prepared.candidates
    assert "missing_bias" in prepared.candidates  # the author's mistakes are all there
    (seen,) = StarvedSandbox.limits_seen
    assert (seen.strict, seen.uid_base) == (False, 62000)  # the caller's, not the defaults
    assert seen.time_s == load_exercise(gate_copy).limits.time_s
