"""The exercises waiting under ``incoming/`` for their course (numpy foundations, built on its
own branch): scenario exercises that validate, samples included, with Japanese texts held to
the course's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders import Sandbox
from graders.validation import validate_folder
from tests.exercises.test_japanese_texts import THEORY_TITLE, half_width_in_prose, misused_terms

INCOMING = Path(__file__).resolve().parents[2] / "incoming"
FOLDERS = sorted(p.parent for p in INCOMING.glob("*/*/exercise.toml"))


def test_the_scenario_exercises_are_there() -> None:
    assert [folder.name for folder in FOLDERS] == ["adam", "affine-layer"]


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_validates_with_its_samples(folder: Path, sandbox: Sandbox) -> None:
    result = validate_folder(folder, sandbox)
    assert result.problems == []
    assert result.notes[1].startswith("mutation score 100% ("), result.notes
    assert result.notes[2] == "2 sample(s)"


@pytest.mark.parametrize(
    "path", sorted(INCOMING.glob("*/*/*.ja.md")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_japanese_texts_follow_the_glossary_and_punctuation(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert misused_terms(text) == []
    assert half_width_in_prose(text) == []
    if path.name.startswith("theory"):
        assert text.startswith(THEORY_TITLE)
