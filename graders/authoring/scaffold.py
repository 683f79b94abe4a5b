"""``numjudge new``: a fresh exercise folder whose gaps ``numjudge validate`` points out."""

from __future__ import annotations

import re
from pathlib import Path

from graders.errors import ExerciseError

ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# The template's words that an author must replace (``numjudge validate`` looks for them).
PLACEHOLDERS = (
    "(say what to compute, with the math",
    "(a worked example whose numbers come from your solution)",
)

TEMPLATES = {
    "exercise.toml": """id = "{id}"
title = "{title}"
difficulty = "easy"
tags = []
entry = "solve"
order = 1000
# Only instructors see a draft; remove this line to publish the exercise.
draft = true

[limits]
time_s = 5
memory_mb = 512
""",
    "statement.md": """# {title}

Write `solve(x)` that ... (say what to compute, with the math: $y = f(x)$).

| argument | shape | dtype |
|---|---|---|
| `x` | `(N,)` | float64 |

## Example
(a worked example whose numbers come from your solution)
""",
    "starter.py": '''import numpy as np


def solve(x: np.ndarray) -> np.ndarray:
    """Return ... for the input ``x``."""
    return np.zeros_like(x)  # TODO
''',
    "solution.py": """import numpy as np


def solve(x: np.ndarray) -> np.ndarray:
    raise NotImplementedError("write the reference solution")
""",
    "cases.py": """import numpy as np

from graders.cases import case


@case(public=True, points=1)
def small_example(rng):
    return {"x": np.array([1.0, 2.0, 3.0])}


@case(points=2)
def random_vector(rng):
    return {"x": rng.normal(size=7)}
""",
    "mistakes/forgot_something.py": """import numpy as np

HINT = "Describe what the learner should reconsider, without giving the answer away."


def solve(x: np.ndarray) -> np.ndarray:
    raise NotImplementedError("write a plausible wrong solution")
""",
}


def placeholder_title(exercise_id: str) -> str:
    """The title ``numjudge new`` writes: the id in words (``my-ex`` -> ``My ex``)."""
    return exercise_id.replace("-", " ").capitalize()


def create_exercise(root: Path, exercise_id: str) -> Path:
    """Write the template files into ``root/exercise_id``; refuses to overwrite."""
    if not ID_PATTERN.fullmatch(exercise_id):
        raise ExerciseError(
            f"{exercise_id!r}: an id is lowercase words joined by hyphens, e.g. gru-reset-gate"
        )
    folder = root / exercise_id
    folder.mkdir(parents=True)
    title = placeholder_title(exercise_id)
    for name, text in TEMPLATES.items():
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(
            text.format(id=exercise_id, title=title) if name.endswith((".toml", ".md")) else text,
            encoding="utf-8",
        )
    return folder
