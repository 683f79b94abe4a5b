"""``numjudge new``: a fresh exercise folder whose gaps ``numjudge validate`` points out.

``--kind`` chooses the shape of the code: one function (the default, every code file a gap to
fill), or a running example of another kind whose code is complete and validates once the
title, tags and statement are written: two functions passing the learner's own cache
(``scenario``), a class whose methods keep state (``class``), or a function any of whose
many right answers passes its checks (``property``). The author replaces the example by the
exercise, keeping the shape.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

from graders.errors import ExerciseError

ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# The template's words that an author must replace (``numjudge validate`` looks for them).
PLACEHOLDERS = (
    "(say what to compute, with the math",
    "(a worked example whose numbers come from your solution)",
)


class ScaffoldKind(Enum):
    """The shape of the code ``numjudge new --kind`` writes."""

    FUNCTION = "function"
    SCENARIO = "scenario"
    CLASS = "class"
    PROPERTY = "property"


EXERCISE_TOML = """id = "{id}"
title = "{title}"
difficulty = "easy"
tags = []
%s
order = 1000
# Only instructors see a draft; remove this line to publish the exercise.
draft = true

[limits]
time_s = 5
memory_mb = 512
"""

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


SCENARIO_TEMPLATES = {
    "exercise.toml": EXERCISE_TOML % 'entries = ["scale_forward", "scale_backward"]',
    "statement.md": """# {title}

Write `scale_forward(x, w)` and `scale_backward(dout, cache)` ...
(say what to compute, with the math: $y = x \\odot w$, each row of `x` scaled by `w`).

`scale_forward` returns `(out, cache)`: `cache` is yours, whatever `scale_backward` needs.
`scale_backward` returns `(dx, dw)`, the gradients of the loss with respect to `x` and `w`.

| argument | shape | dtype |
|---|---|---|
| `x`, `dout` | `(N, D)` | float64 |
| `w` | `(D,)` | float64 |

## Example
(a worked example whose numbers come from your solution)
""",
    "starter.py": """import numpy as np


def scale_forward(x, w):
    return np.zeros_like(x), None  # TODO


def scale_backward(dout, cache):
    return np.zeros_like(dout), None  # TODO
""",
    "solution.py": """def scale_forward(x, w):
    return x * w, (x, w)


def scale_backward(dout, cache):
    x, w = cache
    return dout * w, (dout * x).sum(axis=0)
""",
    "cases.py": """import numpy as np

from graders.scenarios import call, keep, ref, scenario


def forward_backward(rng, n, d):
    x, w = rng.normal(size=(n, d)), rng.normal(size=d)
    return [
        call("scale_forward", x=x, w=w, returns=("out", keep("cache"))),
        call("scale_backward", dout=rng.normal(size=(n, d)), cache=ref("cache"),
             returns=("dx", "dw")),
    ]


@scenario(public=True)
def three_rows(rng):
    return forward_backward(rng, 3, 4)


@scenario(points=2)
def one_row(rng):
    return forward_backward(rng, 1, 5)


@scenario(points=2)
def two_layers_backward_in_reverse(rng):
    # Each cache belongs to its own call: a cache kept in a global is overwritten.
    x, w1, w2 = rng.normal(size=(4, 3)), rng.normal(size=3), rng.normal(size=3)
    return [
        call("scale_forward", x=x, w=w1, returns=("hidden", keep("first"))),
        call("scale_forward", x=x * w1, w=w2, returns=("out", keep("second"))),
        call("scale_backward", dout=rng.normal(size=(4, 3)), cache=ref("second"),
             returns=("dhidden", "dw2")),
        call("scale_backward", dout=rng.normal(size=(4, 3)), cache=ref("first"),
             returns=("dx", "dw1")),
    ]
""",
    "mistakes/forgot_something.py": """HINT = (
    "w is shared by every row: its gradient sums the rows' contributions over the batch."
)


def scale_forward(x, w):
    return x * w, (x, w)


def scale_backward(dout, cache):
    x, w = cache
    return dout * w, (dout * x).mean(axis=0)
""",
}

CLASS_TEMPLATES = {
    "exercise.toml": EXERCISE_TOML % 'entries = ["RunningMean"]',
    "statement.md": """# {title}

Write the class `RunningMean(size)` ...
(say what to compute, with the math: the mean of every vector given since the last reset).
`update(x)` adds the vector `x` of shape `(size,)` and returns the mean so far; `reset()`
forgets every vector; the attribute `count` is how many vectors were given since.

## Example
(a worked example whose numbers come from your solution)
""",
    "starter.py": """import numpy as np


class RunningMean:
    def __init__(self, size):
        self.count = 0

    def update(self, x):
        return np.zeros_like(x)  # TODO

    def reset(self):
        pass  # TODO
""",
    "solution.py": """import numpy as np


class RunningMean:
    def __init__(self, size):
        self.total = np.zeros(size)
        self.count = 0

    def update(self, x):
        self.total = self.total + x
        self.count += 1
        return self.total / self.count

    def reset(self):
        self.total = np.zeros_like(self.total)
        self.count = 0
""",
    "cases.py": """import numpy as np

from graders.scenarios import construct, method, scenario, state


def updates(rng, size, count, first):
    return [
        method("mean", "update", x=rng.normal(size=size), returns=f"mean {first + number}")
        for number in range(count)
    ]


@scenario(public=True)
def three_updates(rng):
    return [
        construct("RunningMean", "mean", size=2),
        *updates(rng, 2, 3, 1),
        state("mean", "count"),
    ]


@scenario(points=2)
def reset_between_two_runs(rng):
    return [
        construct("RunningMean", "mean", size=4),
        *updates(rng, 4, 2, 1),
        method("mean", "reset"),
        *updates(rng, 4, 3, 3),
        state("mean", "count"),
    ]


@scenario(points=2)
def two_objects(rng):
    # Each object keeps its own state: one kept on the class is shared by both.
    return [
        construct("RunningMean", "one", size=3),
        construct("RunningMean", "two", size=3),
        method("one", "update", x=rng.normal(size=3), returns="first of one"),
        method("two", "update", x=rng.normal(size=3), returns="first of two"),
        method("one", "update", x=rng.normal(size=3), returns="second of one"),
    ]
""",
    "mistakes/forgot_something.py": """import numpy as np

HINT = "reset() starts again from nothing: every piece of state, the count included."


class RunningMean:
    def __init__(self, size):
        self.total = np.zeros(size)
        self.count = 0

    def update(self, x):
        self.total = self.total + x
        self.count += 1
        return self.total / self.count

    def reset(self):
        self.total = np.zeros_like(self.total)
""",
}

PROPERTY_TEMPLATES = {
    "exercise.toml": EXERCISE_TOML % 'entry = "orthogonal_unit"',
    "statement.md": """# {title}

Write `orthogonal_unit(x)` ...
(say what to compute, with the math: any vector $u$ with $\\lVert u \\rVert = 1$ and
$u \\cdot x = 0$; many are right, and any of them passes).

| argument | shape | dtype |
|---|---|---|
| `x` | `(D,)`, `D >= 2`, not all zero | float64 |

## Example
(a worked example whose numbers come from your solution)
""",
    "starter.py": """import numpy as np


def orthogonal_unit(x):
    return np.zeros_like(x)  # TODO
""",
    "solution.py": """import numpy as np


def orthogonal_unit(x):
    # The axis least aligned with x, minus its part along x, normalised.
    axis = np.zeros_like(x)
    axis[np.argmin(np.abs(x))] = 1.0
    u = axis - (axis @ x) / (x @ x) * x
    return u / np.linalg.norm(u)
""",
    "cases.py": """import numpy as np

from graders.cases import property_case


def a_vector_of_the_size_of_x(inputs, got):
    # Nothing compares the output with a reference: the checks read its type and shape.
    x = inputs["x"]
    if not isinstance(got, np.ndarray) or got.shape != x.shape or got.dtype != np.float64:
        shape, dtype = getattr(got, "shape", None), getattr(got, "dtype", None)
        what = f"{type(got).__name__} {shape} {dtype}"
        return f"expected a float64 array of shape {x.shape}, got {what}"
    return None


def unit_length(inputs, got):
    problem = a_vector_of_the_size_of_x(inputs, got)
    if problem:
        return problem
    length = float(np.linalg.norm(got))
    return None if abs(length - 1.0) <= 1e-9 else f"its length is {length:.6g}, not 1"


def orthogonal_to_x(inputs, got):
    problem = a_vector_of_the_size_of_x(inputs, got)
    if problem:
        return problem
    x = inputs["x"]
    cosine = float(abs(got @ x) / (np.linalg.norm(got) * np.linalg.norm(x) or 1.0))
    return None if cosine <= 1e-9 else f"its cosine with x is {cosine:.3g}, not 0"


CHECKS = [a_vector_of_the_size_of_x, unit_length, orthogonal_to_x]


@property_case(checks=CHECKS, public=True)
def in_the_plane(rng):
    return {"x": np.array([3.0, 4.0])}


@property_case(checks=CHECKS, points=2)
def random_direction(rng):
    return {"x": rng.normal(size=6) * 10}


@property_case(checks=CHECKS, points=2)
def along_an_axis(rng):
    return {"x": np.array([0.0, 0.0, 2.0])}
""",
    "mistakes/forgot_something.py": """import numpy as np

HINT = "Removing the part along x leaves a vector shorter than 1: divide it by its length."


def orthogonal_unit(x):
    axis = np.zeros_like(x)
    axis[np.argmin(np.abs(x))] = 1.0
    return axis - (axis @ x) / (x @ x) * x
""",
}

KIND_TEMPLATES = {
    ScaffoldKind.FUNCTION: TEMPLATES,
    ScaffoldKind.SCENARIO: SCENARIO_TEMPLATES,
    ScaffoldKind.CLASS: CLASS_TEMPLATES,
    ScaffoldKind.PROPERTY: PROPERTY_TEMPLATES,
}


def placeholder_title(exercise_id: str) -> str:
    """The title ``numjudge new`` writes: the id in words (``my-ex`` -> ``My ex``)."""
    return exercise_id.replace("-", " ").capitalize()


def create_exercise(
    root: Path, exercise_id: str, kind: ScaffoldKind = ScaffoldKind.FUNCTION
) -> Path:
    """Write the template files of ``kind`` into ``root/exercise_id``; refuses to
    overwrite."""
    if not ID_PATTERN.fullmatch(exercise_id):
        raise ExerciseError(
            f"{exercise_id!r}: an id is lowercase words joined by hyphens, e.g. gru-reset-gate"
        )
    folder = root / exercise_id
    folder.mkdir(parents=True)
    title = placeholder_title(exercise_id)
    for name, text in KIND_TEMPLATES[kind].items():
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(
            text.format(id=exercise_id, title=title) if name.endswith((".toml", ".md")) else text,
            encoding="utf-8",
        )
    return folder
