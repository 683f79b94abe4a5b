"""A case's ``limit_hint``: the author's advice added to the message of a test the code ran
out of memory or time on (docs/authoring.md, "Time limits per case"), in the learner's
language (``[limit_hints]`` of translation.<lang>.toml)."""

from __future__ import annotations

from pathlib import Path

from graders.api import (
    Exercise,
    Failure,
    Sandbox,
    Status,
    grade,
    load_exercise,
    prepare_exercise,
)
from graders.exercises.words import translation_problems, words_in
from graders.grading.plan import Audience
from graders.messages import is_known, translate_message
from tests.graders.helpers import make_tiny_exercise, write

HINT = "building the (N, N, 100) array needs N*N*100*8 bytes; count without it"

CASES = f"""
import numpy as np
from graders.cases import case


@case(public=True)
def small(rng):
    return {{"x": np.array([1.0, 2.0, 3.0]), "threshold": 1.5}}


@case(public=True, limit_hint={HINT!r})
def large(rng):
    return {{"x": rng.normal(size=3000), "threshold": 0.0}}


@case(limit_hint={HINT!r})
def hidden_large(rng):
    return {{"x": rng.normal(size=3000), "threshold": 0.5}}
"""

# Right, but through an (N, N, 100) array: 7.2 GB for N = 3000, far over the memory limit.
WASTEFUL = """
import numpy as np


def count_above(x, threshold):
    cube = np.zeros((x.size, x.size, 100)) if x.size > 100 else None
    return int(np.sum(x > threshold))
"""


def test_a_case_run_out_of_memory_on_gives_its_hint(tmp_path: Path, sandbox: Sandbox) -> None:
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path, cases=CASES)))
    small, large, hidden = grade(prepared, WASTEFUL, sandbox).tests
    assert small.status is Status.PASSED
    assert large.failure is Failure.MEMORY_LIMIT
    assert large.message.endswith(f"; hint: {HINT}"), large.message
    # A hidden test keeps its category's fixed text; the author reads the hint.
    assert hidden.failure is Failure.MEMORY_LIMIT and HINT not in hidden.message
    author = grade(prepared, WASTEFUL, sandbox, audience=Audience.AUTHOR).tests[2]
    assert author.message.endswith(f"; hint: {HINT}"), author.message


def test_a_case_without_trouble_never_shows_the_hint(tmp_path: Path, sandbox: Sandbox) -> None:
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path, cases=CASES)))
    wrong = "def count_above(x, threshold):\n    return -1\n"
    assert all(HINT not in test.message for test in grade(prepared, wrong, sandbox).tests)


TIMED_CASES = """
import numpy as np
from graders.cases import case


@case(public=True, time_s=0.2, limit_hint="one comparison of the whole array is enough")
def long(rng):
    return {"x": rng.normal(size=1000), "threshold": 0.0}


@case()
def hidden(rng):
    return {"x": rng.normal(size=10), "threshold": 0.0}
"""

SPINNING = """
def count_above(x, threshold):
    total = 0
    for _ in range(10**9):
        total += 1
    return total
"""


def test_a_case_stopped_at_its_own_time_limit_gives_its_hint(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_tiny_exercise(tmp_path, cases=TIMED_CASES)
    prepared = prepare_exercise(load_exercise(folder))
    long, hidden = grade(prepared, SPINNING, sandbox).tests
    assert long.failure is Failure.TIME_LIMIT
    assert long.message.endswith("; hint: one comparison of the whole array is enough")
    assert "hint" not in hidden.message


def japanese(folder: Path, limit_hints: str) -> Exercise:
    """The folder with a Japanese statement, and a translation whose ``[limit_hints]`` table
    is ``limit_hints``."""
    write(folder / "statement.ja.md", "`count_above(x, threshold)` を書いてください。\n")
    write(folder / "starter.ja.py", (folder / "starter.py").read_text(encoding="utf-8"))
    write(
        folder / "translation.ja.toml",
        'title = "しきい値を超える値"\n\n[cases]\nsmall = "小"\nlarge = "大"\n'
        '"hidden large" = "非公開の大"\n\n[tags]\ncounting = "数える"\n\n' + limit_hints,
    )
    return load_exercise(folder)


JA_HINT = "形状 (N, N, 100) の配列には N*N*100*8 バイトが要ります。それなしで数えてください"


def test_a_limit_hint_reads_in_the_learners_language(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_tiny_exercise(tmp_path, cases=CASES)
    exercise = japanese(folder, f"[limit_hints]\n{HINT!r} = {JA_HINT!r}\n")
    assert translation_problems(exercise, ["small", "large", "hidden large"], (), [HINT]) == []
    large = grade(prepare_exercise(exercise), WASTEFUL, sandbox).tests[1]
    words = words_in(exercise, "ja")
    assert words.message(large.message).endswith(f"。ヒント：{JA_HINT}"), large.message
    # Without the exercise's words the hint stays as the author wrote it, the rest translated.
    assert translate_message(large.message, "ja").endswith(f"。ヒント：{HINT}")
    assert not is_known(large.message, "ja")


def test_validate_asks_for_every_limit_hint_in_every_language(tmp_path: Path) -> None:
    exercise = japanese(make_tiny_exercise(tmp_path, cases=CASES), "")
    names = ["small", "large", "hidden large"]
    assert translation_problems(exercise, names, (), [HINT]) == [
        f"translation.ja.toml: [limit_hints] has no text for limit hint(s) {HINT!r}"
    ]
    stale = japanese(exercise.path, f'[limit_hints]\n"gone" = "消えた"\n{HINT!r} = "ok"\n')
    assert translation_problems(stale, names, (), [HINT]) == [
        "translation.ja.toml: [limit_hints] names limit hint(s) that do not exist: 'gone' "
        "(renamed or removed?)"
    ]
