"""A case's ``limit_hint``: the author's advice added to the message of a test the code ran
out of memory or time on (docs/authoring.md, "Time limits per case")."""

from __future__ import annotations

from pathlib import Path

from graders.api import Failure, Sandbox, Status, grade, load_exercise, prepare_exercise
from graders.authoring.texts import limit_hint_texts
from graders.exercises import translation_problems
from graders.grading.plan import Audience
from graders.messages import author_templates, translate_message
from tests.graders.helpers import make_tiny_exercise

HINT = "building the (N, N, 100) array needs N*N*100*8 bytes; count without it"
HINT_JA = "(N, N, 100) の配列は N*N*100*8 バイト要ります。作らずに数えてください"

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
    # In Japanese the hint is the author's own words, from [checks] of translation.ja.toml.
    assert limit_hint_texts(prepared) == [HINT]
    japanese = translate_message(large.message, "ja", author_templates({HINT: HINT_JA}))
    assert japanese.endswith(f"ヒント：{HINT_JA}"), japanese
    assert "ran out" not in japanese and "hint" not in japanese
    # Untranslated, the author's words stay whole: no piece of them is read as the engine's.
    untranslated = translate_message(large.message, "ja")
    assert untranslated.endswith(f"ヒント：{HINT}"), untranslated


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


def test_validate_asks_for_the_hint_in_each_language_of_the_statement(tmp_path: Path) -> None:
    folder = make_tiny_exercise(tmp_path, cases=CASES)
    (folder / "statement.ja.md").write_text("`count_above(x, threshold)` を書いてください。\n")
    (folder / "starter.ja.py").write_text((folder / "starter.py").read_text())
    names = '"small" = "小"\n"large" = "大"\n"hidden large" = "隠れた大"\n'
    translation = folder / "translation.ja.toml"
    tags = '[tags]\ncounting = "数える"\n'
    translation.write_text(f'title = "しきい値より上"\n{tags}[cases]\n{names}')
    prepared = prepare_exercise(load_exercise(folder))
    cases = [case.name for case in prepared.cases]
    missing = translation_problems(prepared.exercise, cases, limit_hint_texts(prepared))
    assert [problem for problem in missing if HINT in problem] != [], missing
    translation.write_text(translation.read_text() + f"[checks]\n{HINT!r} = {HINT_JA!r}\n")
    done = translation_problems(load_exercise(folder), cases, limit_hint_texts(prepared))
    assert done == [], done
