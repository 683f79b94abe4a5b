"""Scenario exercises under attack: a class whose attributes and results are tricks
(``__getattr__``, ``__eq__``, ``__array__``), a dict subclass as state, an opaque cache that is
a proxy gathering every array it can reach, methods returning the learner's objects where
arrays belong. The trusted side reads only what the wire decodes, kept objects never leave the
sandbox, no hidden input is in the process before its case, and a hidden scenario shows only
its name, points and a category, as a one-function case does (docs/security.md)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.api import Failure, PreparedExercise, Sandbox, Visibility, grade
from graders.checks.hidden import hidden_message
from graders.grading.plan import planned
from graders.scenarios import SCENARIO_INPUT
from graders.values import Foreign
from tests.security.test_containers import plain
from tests.security.vault import CASES, leaked, prepared_vault, write

# The vault's digit drawing (hidden numbers of digits 5-9, public ones of 1-4), its cases
# turned into scenarios over two functions and a class.
DRAW = CASES.split("@case(public=True)")[0].replace(
    "from graders.cases import case",
    "from graders.scenarios import call, construct, keep, method, ref, scenario, state",
)
SCENARIO_CASES = (
    DRAW
    + """
def steps(x, w, dout, params):
    return [
        call("forward", x=x, w=w, returns=("y", keep("cache"))),
        call("backward", dout=dout, cache=ref("cache"), returns="dx"),
        construct("Scaler", "s", factor=2.0),
        method("s", "apply", params=keep("params", params), updates=["params"], returns="n"),
        state("s", "count"),
    ]


@scenario(public=True)
def example(rng):
    return steps(
        np.array([0.1234123412, -0.2341234123, 0.3412341234]),
        np.array([0.4123412341, -0.1324132413, 0.2413241324]),
        np.array([0.3142314231, 0.2143214321, -0.1432143214]),
        {"a": np.array([0.2314231423, 0.4231423142])},
    )


@scenario(points=2)
def hidden_one(rng):
    return steps(vault(rng, (3,)), vault(rng, (3,)), vault(rng, (3,)), {"a": vault(rng, (2,))})


@scenario(points=2)
def hidden_two(rng):
    return steps(vault(rng, (4,)), vault(rng, (4,)), vault(rng, (4,)), {"b": vault(rng, (3,))})
"""
)
SOLUTION = """
import numpy as np


def forward(x, w):
    y = np.tanh(x * w)
    return y, (x, w, y)


def backward(dout, cache):
    x, w, y = cache
    return dout * (1 - y**2) * w


class Scaler:
    def __init__(self, factor):
        self.factor = factor
        self.count = 0

    def apply(self, params):
        self.count += 1
        for key in params:
            params[key] *= self.factor
        return len(params)
"""

TRICKS = """
import numpy as np


class Trick:
    # Equal to everything, an array of the right numbers when asked, any attribute at all.
    def __eq__(self, other):
        return True

    def __array__(self, dtype=None, copy=None):
        return np.zeros(3)

    def __getattr__(self, name):
        return Trick()

    def __len__(self):
        return 3

    def __iter__(self):
        return iter([Trick(), Trick(), Trick()])


def forward(x, w):
    return Trick(), Trick()


def backward(dout, cache):
    return Trick()


class Scaler:
    def __init__(self, factor):
        pass

    def __getattr__(self, name):
        return Trick()

    def apply(self, params):
        # Replacing params' arrays is refused before anything crosses (NotUpdatedInPlace,
        # tests/graders/checks/test_scenarios.py): the tricks here are what the steps return.
        return Trick()
"""

DICT_STATE = """
import numpy as np


class Lying(dict):
    def items(self):
        return [("a", np.zeros(2))]

    def __eq__(self, other):
        return True


def forward(x, w):
    y = np.tanh(x * w)
    return y, (x, w, y)


def backward(dout, cache):
    x, w, y = cache
    return dout * (1 - y**2) * w


class Scaler:
    def __init__(self, factor):
        self.factor, self.count = factor, Lying(value=1)

    def apply(self, params):
        for key in list(params):
            params[key] *= self.factor
        return Lying()
"""

# The cache is a proxy that, each time it is made, gathers every float array in the process;
# backward returns all it gathered so far. On the public case that shows all the process
# holds: public inputs, never a hidden one.
PROXY = """
import gc
import numpy as np

SEEN = []


class Proxy:
    def __init__(self, target):
        self._target = target
        for obj in gc.get_objects():
            if type(obj) is np.ndarray and obj.dtype == np.float64:
                SEEN.extend(float(v) for v in obj.ravel()[:50])
        del SEEN[5000:]

    def __getattr__(self, name):
        return getattr(self._target, name)

    def __getitem__(self, index):
        return self._target[index]

    def __reduce__(self):
        return (print, ("pickled",))


def forward(x, w):
    y = np.tanh(x * w)
    return y, Proxy((x, w, y))


def backward(dout, cache):
    return np.array(SEEN)


class Scaler:
    def __init__(self, factor):
        self.factor, self.count = factor, Proxy(None)

    def apply(self, params):
        return Proxy(params)
"""


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    root = tmp_path_factory.mktemp("catalog")
    folder = root / "vault"
    write(
        folder / "exercise.toml",
        """
        id = "vault"
        title = "Scenario vault"
        difficulty = "easy"
        entries = ["forward", "backward", "Scaler"]
        """,
    )
    write(folder / "statement.md", "Write `forward`, `backward` and `Scaler`.\n")
    write(folder / "starter.py", "def forward(x, w):\n    return x, None\n")
    write(folder / "solution.py", SOLUTION)
    (folder / "cases.py").write_text(SCENARIO_CASES.lstrip(), encoding="utf-8")
    return prepared_vault(Path(root))


def numbers(value: Any) -> list[float]:
    """Every number of the arrays in a value (in dicts, lists and tuples too)."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return [float(v) for v in value.ravel()]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return [number for item in value for number in numbers(item)]
    return []


def needles(prepared: PreparedExercise, *, public: bool) -> frozenset[str]:
    """Every run of four significant digits of the public or of the hidden input numbers."""
    found: set[str] = set()
    for case in prepared.cases:
        if case.spec.public != public:
            continue
        for name, value in case.inputs.items():
            for number in numbers(value) if name != SCENARIO_INPUT else []:
                if number:
                    digits = f"{abs(number):.10e}".replace(".", "")[:10]
                    found.update(digits[i : i + 4] for i in range(len(digits) - 3))
    return frozenset(found)


def hidden_messages(prepared: PreparedExercise, code: str, sandbox: Sandbox) -> list[str]:
    """The hidden tests' messages, once the whole report is checked for hidden digits."""
    report = grade(prepared, textwrap.dedent(code), sandbox)
    text = " ".join([report.message, report.output, *(test.message for test in report.tests)])
    if report.diagnosis is not None:
        text += report.diagnosis.hint
    assert not leaked(text, needles(prepared, public=False))
    return [test.message for test in report.tests if test.visibility is Visibility.HIDDEN]


def test_the_reference_passes(vault: PreparedExercise, sandbox: Sandbox) -> None:
    assert grade(vault, SOLUTION, sandbox).verdict.value == "passed"


@pytest.mark.parametrize("code", [TRICKS, DICT_STATE], ids=["tricks", "dict subclass"])
def test_tricks_cross_as_foreign_values_and_hidden_tests_show_a_category(
    vault: PreparedExercise, sandbox: Sandbox, code: str
) -> None:
    tasks, _plans = planned(vault, False)
    run = sandbox.run(code, vault.exercise.sandbox_entry, tasks)
    values = [outcome.value for outcome in run.outcomes.values() if outcome.ok]
    assert len(values) == 3, run.message
    assert all(plain(value) for value in values)
    assert any(isinstance(part, Foreign) for part in values[0])
    hidden = hidden_messages(vault, code, sandbox)
    assert hidden == [hidden_message(Failure.WRONG_TYPE)] * 2


def test_a_proxy_cache_stays_in_the_sandbox_and_finds_no_hidden_input_before_its_case(
    vault: PreparedExercise, sandbox: Sandbox
) -> None:
    tasks, plans = planned(vault, False)
    run = sandbox.run(PROXY, vault.exercise.sandbox_entry, tasks)
    # The control: on the public case the proxy gathered the public inputs...
    public = run.outcomes[plans[0].main]
    assert public.ok, public.error
    seen = " ".join(repr(number) for number in numbers(public.value))
    assert leaked(seen, needles(vault, public=True))
    # ... and no hidden one, which is not in the process yet.
    assert not leaked(seen, needles(vault, public=False))
    # Kept objects never cross: a value has a slot only where the case compares one; the
    # proxies the code chose to return or expose as state cross as a description.
    assert [type(part) for part in public.value] == [np.ndarray, np.ndarray, Foreign, dict, Foreign]
    assert all(plain(outcome.value) for outcome in run.outcomes.values())
    hidden = hidden_messages(vault, PROXY, sandbox)
    assert hidden == [hidden_message(Failure.WRONG_SHAPE)] * 2
