"""graders/sandbox/repeats.py: the submission's Python work counted as it runs, so that a
loop the syntax tree cannot see (a function passed to itself, a callback, code compiled at
run time) is refused when its work grows with the input, and vectorised code is let be."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from graders.sandbox import scenario
from graders.sandbox.repeats import ALWAYS_A_LOOP, RepeatCounter, elements, growth
from graders.values import Growth, Measured, Repeat, RepeatKind


def loaded(code: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent(code), "submission.py", "exec"), namespace)
    return namespace["f"]  # type: ignore[no-any-return]


def measured(code: str, rows: tuple[int, ...] = (2, 6)) -> list[Measured]:
    function = loaded(code)
    calls = []
    for n in rows:
        x = np.ones((n, 3))
        with RepeatCounter() as counter:
            function(x)
        calls.append(Measured(elements([x]), counter.most))
    return calls


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (
            """
            import numpy as np
            def f(x):
                return np.array(list(map(lambda r: r.sum(), x)))
            """,
            "line 4: <lambda> was called 6 times in one call on 18 input elements, 2 on 6",
        ),
        (
            """
            import numpy as np
            def f(x):
                return np.vectorize(lambda a: a * 2)(x)
            """,
            "line 4: <lambda> was called back 18 times in one call on 18 input elements, 6 on 6",
        ),
        (
            """
            def f(x):
                exec("s = 0\\nfor r in x:\\n    s = s + r\\n")
                return x
            """,
            "line 2: this line ran 7 times in one call on 18 input elements, 3 on 6",
        ),
        (
            """
            def rows(step, x):
                return x if len(x) == 0 else step(step, x[1:])
            def f(x):
                return rows(rows, x)
            """,
            "line 2: rows recursed 7 deep in one call on 18 input elements, 3 on 6",
        ),
        (
            """
            def f(x):
                return sorted(range(len(x)), key=lambda i: -x[i].sum())
            """,
            "line 3: <lambda> was called 6 times in one call on 18 input elements, 2 on 6",
        ),
    ],
)
def test_work_that_grows_with_the_input_is_found_where_it_repeats(code: str, message: str) -> None:
    found = growth(measured(code))
    assert found is not None
    assert found.message == message


@pytest.mark.parametrize(
    "code",
    [
        """
        import numpy as np
        def norms(x):
            return np.sqrt((x * x).sum(axis=-1))
        def f(x):
            if x.ndim == 1:
                return norms(x[None])[0]
            return norms(x) + norms(x)
        """,
        # A callback called a fixed number of times whatever the input is no growth.
        """
        def f(x):
            return max(x[0], x[1], key=lambda row: row.sum())
        """,
    ],
)
def test_work_that_does_not_grow_is_let_be(code: str) -> None:
    assert growth(measured(code)) is None


@pytest.mark.parametrize(
    "code",
    [
        # Three hidden units in every public case: a loop over them repeats as often on each
        # input (a hostile tester's recursion through an argument passed gru-candidate-state).
        """
        import numpy as np
        def unit(step, j, x):
            if j == 3:
                return []
            return [np.tanh(x.sum(axis=-1) + j)] + step(step, j + 1, x)
        def f(x):
            return np.stack(unit(unit, 0, x), axis=-1)
        """,
        """
        def f(x):
            return max(x[0], x[1], x[0], key=lambda row: row.sum())
        """,
    ],
)
def test_work_repeated_three_times_in_a_call_is_a_loop_whatever_the_sizes(code: str) -> None:
    calls = measured(code)
    assert calls[0].repeat.count == calls[1].repeat.count >= ALWAYS_A_LOOP
    assert growth(calls) is not None


def test_vectorised_code_repeats_nothing() -> None:
    calls = measured("import numpy as np\ndef f(x):\n    return np.tanh(x @ x.T)\n")
    assert [call.repeat for call in calls] == [Repeat(1, 0)] * 2


def test_only_the_submissions_code_is_counted_and_the_tracer_is_put_back() -> None:
    before = sys.gettrace()
    with RepeatCounter() as counter:
        np.apply_along_axis(np.sum, 1, np.ones((50, 2)))  # numpy's own loop, not the learner's
    assert counter.most == Repeat(1, 0)
    assert sys.gettrace() is before


def test_elements_are_those_of_every_array_in_the_inputs() -> None:
    assert elements([np.ones((2, 3)), [np.ones(4), {"a": np.ones(5)}], 7, "text"]) == 15


def test_what_a_sandbox_sends_is_read_back_or_refused() -> None:
    found = Growth(Measured(30, Repeat(9, 4, RepeatKind.CALLBACK, "g")), Measured(10, Repeat(3, 4)))
    assert Growth.from_dict(found.to_dict()) == found
    for hostile in (
        found.to_dict() | {"count": -1},
        found.to_dict() | {"elements": 1 << 80},
        found.to_dict() | {"kind": "loop"},
        {"line": 1},
    ):
        with pytest.raises((ValueError, KeyError)):
            Growth.from_dict(hostile)
    long_name = Growth.from_dict(found.to_dict() | {"name": "n" * 10_000})
    assert len(long_name.large.repeat.name) == 40


def test_the_harness_calling_the_code_once_per_step_is_not_the_codes_repetition() -> None:
    # A scenario's steps call the learner's method from one line of graders/sandbox/scenario.py.
    step = loaded("def f(x):\n    return x\n")
    runner: dict[str, Any] = {}
    exec(
        compile(
            "def steps(f, n):\n    for i in range(n):\n        f(i)\n", scenario.__file__, "exec"
        ),
        runner,
    )
    with RepeatCounter() as counter:
        runner["steps"](step, 20)
    assert counter.most == Repeat(1, 0)
