"""The exfiltration suite's exercise: hidden inputs whose digits a leak cannot hide.

Every hidden input number is drawn with ten significant digits from 5-9 only, public inputs
from 1-4 only, so that a run of four significant digits found in a report names the input it
came from (the needles). Zeros have no significant digits.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import numpy as np

from graders.api import PreparedExercise, load_exercise, prepare_exercise

EXERCISE = "vault"
HINT = "The gate squashes its product with tanh; did it get lost?"
CASES = '''
import numpy as np

from graders.cases import case


def vault(rng, shape):
    """Ten significant digits, each 5-9, and a random sign."""
    digits = rng.integers(5, 10, size=(*shape, 10))
    mantissa = (digits * 10.0 ** -np.arange(1, 11)).sum(-1)
    return np.where(rng.random(shape) < 0.5, -mantissa, mantissa)


@case(public=True)
def example(rng):
    return {"x": np.array([0.1234123412, -0.2341234123, 0.3412341234]),
            "w": np.array([0.4123412341, -0.1324132413, 0.2413241324])}


@case(points=2)
def hidden_single(rng):
    return {"x": vault(rng, (3,)), "w": vault(rng, (3,))}


@case(points=2, batch_axes={"x": 0})
def hidden_batch(rng):
    return {"x": vault(rng, (2, 3)), "w": vault(rng, (3,))}


@case(points=2)
def hidden_long(rng):
    # Long enough that an index or a size can carry four digits of an input.
    x, w = np.zeros(10_000), np.zeros(10_000)
    x[:3], w[:3] = vault(rng, (3,)), vault(rng, (3,))
    return {"x": x, "w": w}
'''


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")


def make_vault(root: Path) -> Path:
    """A catalog folder holding the exercise ``vault``: ``gate(x, w) = tanh(x * w)``."""
    folder = root / EXERCISE
    write(
        folder / "exercise.toml",
        f"""
        id = "{EXERCISE}"
        title = "Vault"
        difficulty = "easy"
        entry = "gate"
    """,
    )
    write(folder / "statement.md", "Write `gate(x, w)`: `tanh(x * w)` elementwise.\n")
    write(folder / "starter.py", "def gate(x, w):\n    return x\n")
    write(
        folder / "solution.py",
        "import numpy as np\n\n\ndef gate(x, w):\n    return np.tanh(x * w)\n",
    )
    write(
        folder / "mistakes" / "no_tanh.py",
        f'HINT = "{HINT}"\n\n\ndef gate(x, w):\n    return x * w\n',
    )
    (folder / "cases.py").write_text(CASES.lstrip(), encoding="utf-8")
    return root


def prepared_vault(root: Path) -> PreparedExercise:
    return prepare_exercise(load_exercise(root / EXERCISE))


def needles(prepared: PreparedExercise, *, public: bool) -> frozenset[str]:
    """Every run of four significant digits of the public or of the hidden input numbers."""
    found: set[str] = set()
    for case in prepared.cases:
        if case.spec.public != public:
            continue
        for value in case.inputs.values():
            for number in np.ravel(value):
                if number:
                    digits = f"{abs(float(number)):.10e}".replace(".", "")[:10]
                    found.update(digits[i : i + 4] for i in range(len(digits) - 3))
    return frozenset(found)


# What is not learner-controlled and carries digits by chance: timestamps and hashes or ids
# (hexadecimal with at least one letter).
NOISE = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\b(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b"
)
BETWEEN_DIGITS = re.compile(r"(?<=\d)[.,_ ](?=\d)")


def leaked(text: str, wanted: frozenset[str]) -> set[str]:
    """The needles found in ``text``; digits split by a decimal point still count."""
    plain = BETWEEN_DIGITS.sub("", NOISE.sub(" ", text))
    return {needle for needle in wanted if needle in plain}
