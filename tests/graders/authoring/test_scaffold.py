"""graders/authoring/scaffold.py: ``numjudge new`` makes a folder that loads and says what is
missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.api import ExerciseError, Sandbox, load_exercise
from graders.authoring.scaffold import (
    PLACEHOLDERS,
    TEMPLATES,
    ScaffoldKind,
    create_exercise,
    placeholder_title,
)
from graders.authoring.validation import validate_folder


def test_new_folder_has_every_template_file(tmp_path: Path) -> None:
    folder = create_exercise(tmp_path, "gru-reset-gate")
    assert folder == tmp_path / "gru-reset-gate"
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert files == sorted(TEMPLATES)
    assert files == [
        "cases.py",
        "exercise.toml",
        "mistakes/forgot_something.py",
        "solution.py",
        "starter.py",
        "statement.md",
    ]
    assert (folder / "statement.md").read_text().startswith("# Gru reset gate\n")


def test_new_folder_loads(tmp_path: Path) -> None:
    exercise = load_exercise(create_exercise(tmp_path, "softmax-2"))
    assert (exercise.id, exercise.title, exercise.difficulty, exercise.entry) == (
        "softmax-2",
        "Softmax 2",
        "easy",
        "solve",
    )
    assert (exercise.tags, exercise.order, exercise.languages) == ((), 1000, ("en",))
    assert [m.name for m in exercise.mistakes] == ["forgot_something"]
    assert exercise.mistakes[0].hint.startswith("Describe what the learner should reconsider")


def test_validate_says_the_solution_is_missing(tmp_path: Path, sandbox: Sandbox) -> None:
    result = validate_folder(create_exercise(tmp_path, "new-one"), sandbox)
    assert not result.ok
    assert result.problems == [
        "exercise.toml: the title is still the placeholder 'New one'; write what the exercise "
        "is about",
        "exercise.toml: 'tags' is empty; add at least one tag",
        "statement.md: still has the template's placeholder text '(say what to compute, with "
        "the math'…; write the statement",
        "new-one/solution.py: raised NotImplementedError on case 'small example': write the "
        "reference solution",
    ]


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "Gru",
        "gru_gate",
        "gru gate",
        "-gru",
        "gru-",
        "gru--gate",
        "../escape",
        "a/b",
        "gru.gate",
        "gate\n",
        "ünï",
    ],
)
def test_bad_ids_are_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ExerciseError) as raised:
        create_exercise(tmp_path, bad)
    assert str(raised.value) == (
        f"{bad!r}: an id is lowercase words joined by hyphens, e.g. gru-reset-gate"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("good", ["a", "gru2", "lstm-step", "x-1-y"])
def test_good_ids(tmp_path: Path, good: str) -> None:
    assert create_exercise(tmp_path, good).is_dir()


def test_an_existing_folder_is_refused_and_kept(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.md").write_text("mine\n")
    with pytest.raises(FileExistsError):
        create_exercise(tmp_path, "taken")
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.md"]
    assert (tmp_path / "taken" / "notes.md").read_text() == "mine\n"


def test_root_is_created_when_missing(tmp_path: Path) -> None:
    folder = create_exercise(tmp_path / "new" / "catalog", "first")
    assert (folder / "exercise.toml").is_file()


def written(folder: Path) -> None:
    """What an author writes first in any scaffold: the title, a tag and the statement's
    words (the code of a running example is left as it is)."""
    toml = folder / "exercise.toml"
    text = toml.read_text()
    toml.write_text(
        text.replace(f'title = "{placeholder_title(folder.name)}"', 'title = "Written"').replace(
            "tags = []", 'tags = ["example"]'
        )
    )
    statement = folder / "statement.md"
    words = statement.read_text()
    for placeholder in PLACEHOLDERS:
        words = words.replace(placeholder, "(the author's words")
    statement.write_text(words)


@pytest.mark.parametrize(
    ("kind", "entries"),
    [
        (ScaffoldKind.SCENARIO, ("scale_forward", "scale_backward")),
        (ScaffoldKind.CLASS, ("RunningMean",)),
        (ScaffoldKind.PROPERTY, ("orthogonal_unit",)),
    ],
)
def test_each_kind_scaffolds_an_exercise_that_validates_once_its_words_are_written(
    tmp_path: Path, sandbox: Sandbox, kind: ScaffoldKind, entries: tuple[str, ...]
) -> None:
    folder = create_exercise(tmp_path, f"new-{kind.value}", kind)
    exercise = load_exercise(folder)
    assert (exercise.names, exercise.draft) == (entries, True)
    # Unwritten, validate names the words left to write and nothing in the code.
    assert [p.split(":")[0] for p in validate_folder(folder, sandbox).problems] == [
        "exercise.toml",
        "exercise.toml",
        "statement.md",
    ]
    written(folder)
    result = validate_folder(folder, sandbox)
    assert result.problems == []
    assert "1 mistakes" in result.notes[0]


def test_the_function_kind_is_the_default(tmp_path: Path) -> None:
    default = create_exercise(tmp_path / "a", "same")
    function = create_exercise(tmp_path / "b", "same", ScaffoldKind.FUNCTION)
    assert [p.read_text() for p in sorted(default.rglob("*.*"))] == [
        p.read_text() for p in sorted(function.rglob("*.*"))
    ]
