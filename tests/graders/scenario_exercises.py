"""Exercise folders whose cases are scenarios (graders/scenarios.py): an affine layer's forward
and backward functions passing the learner's own cache, and an Adam optimiser class whose
``step`` updates dicts of arrays in place (docs/authoring.md, "Scenarios")."""

from __future__ import annotations

from pathlib import Path

from tests.graders.helpers import write

AFFINE_SOLUTION = """
import numpy as np


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
"""

AFFINE_CASES = """
from graders.scenarios import call, keep, ref, scenario


def forward_backward(rng, n, d, m):
    x, w, b = rng.normal(size=(n, d)), rng.normal(size=(d, m)), rng.normal(size=m)
    return [
        call("affine_forward", x=x, w=w, b=b, returns=("out", keep("cache"))),
        call(
            "affine_backward",
            dout=rng.normal(size=(n, m)),
            cache=ref("cache"),
            returns=("dx", "dw", "db"),
        ),
    ]


@scenario(public=True)
def four_examples(rng):
    return forward_backward(rng, 4, 5, 3)


@scenario(points=2)
def one_example(rng):
    return forward_backward(rng, 1, 6, 2)


@scenario(points=2)
def two_layers_backward_in_reverse(rng):
    # Each cache belongs to its own call: one kept in a global is overwritten by the second.
    x, w1, w2 = rng.normal(size=(3, 4)), rng.normal(size=(4, 5)), rng.normal(size=(5, 2))
    b1, b2 = rng.normal(size=5), rng.normal(size=2)
    return [
        call("affine_forward", x=x, w=w1, b=b1, returns=("hidden", keep("first"))),
        call("affine_forward", x=x @ w1 + b1, w=w2, b=b2, returns=("out", keep("second"))),
        call(
            "affine_backward",
            dout=rng.normal(size=(3, 2)),
            cache=ref("second"),
            returns=("dhidden", "dw2", "db2"),
        ),
        call(
            "affine_backward",
            dout=rng.normal(size=(3, 5)),
            cache=ref("first"),
            returns=("dx", "dw1", "db1"),
        ),
    ]
"""

AFFINE_MISTAKES = {
    "transposed_dw": (
        "The gradient of w has the shape of w: x.T @ dout, not dout.T @ x.",
        "return dout @ w.T, x.T @ dout, dout.sum(axis=0)",
        "return dout @ w.T, dout.T @ x, dout.sum(axis=0)",
    ),
    "mean_db": (
        "b is added to every row of the batch, so its gradient sums dout over the rows; "
        "a mean divides it by the batch size.",
        "return dout @ w.T, x.T @ dout, dout.sum(axis=0)",
        "return dout @ w.T, x.T @ dout, dout.mean(axis=0)",
    ),
}

ADAM_SOLUTION = """
import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self.m = {}
        self.v = {}

    def step(self, params, grads):
        self.t += 1
        for key, grad in grads.items():
            self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * grad
            self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * grad**2
            m_hat = self.m[key] / (1 - self.beta1**self.t)
            v_hat = self.v[key] / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
"""

ADAM_CASES = """
from graders.scenarios import construct, keep, method, ref, scenario, state


def gradients(rng):
    return {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}


def steps(rng, count, **options):
    params = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}
    made = [construct("Adam", "opt", **options)]
    for number in range(count):
        given = keep("params", params) if number == 0 else ref("params")
        made.append(method("opt", "step", params=given, grads=gradients(rng), updates=["params"]))
    return [*made, state("opt", "t")]


@scenario(public=True)
def two_steps(rng):
    return steps(rng, 2, lr=0.1)


@scenario(points=2)
def five_steps(rng):
    return steps(rng, 5, lr=0.01, beta1=0.8)


@scenario(points=2)
def two_optimisers(rng):
    # Each object keeps its own moments: state shared between instances shows here.
    first = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}
    second = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}
    return [
        construct("Adam", "one", lr=0.1),
        construct("Adam", "two", lr=0.1),
        method(
            "one", "step", params=keep("first", first), grads=gradients(rng), updates=["params"]
        ),
        method(
            "two", "step", params=keep("second", second), grads=gradients(rng), updates=["params"]
        ),
        method("one", "step", params=ref("first"), grads=gradients(rng), updates=["params"]),
        state("one", "t"),
        state("two", "t"),
    ]
"""

ADAM_MISTAKES = {
    "no_bias_correction": (
        "The moments start at zero, so early on they are too small: divide m by "
        "1 - beta1**t and v by 1 - beta2**t before the update.",
        "            m_hat = self.m[key] / (1 - self.beta1**self.t)\n"
        "            v_hat = self.v[key] / (1 - self.beta2**self.t)\n",
        "            m_hat = self.m[key]\n            v_hat = self.v[key]\n",
    ),
    "not_in_place": (
        "step must change the arrays of params in place (params[key] -= ...): the caller "
        "keeps its own dict, and a new dict, or a name rebound inside step, never reaches it.",
        "            params[key] -= ",
        "            params = {**params, key: params[key]} ; params[key] = params[key] - ",
    ),
}


AFFINE_SAMPLES = {
    # Another way to the same numbers: a dict as the cache, einsum for the products.
    "einsum_dict_cache": """
        # expect: verdict=passed score=5 diagnosis=none
        import numpy as np


        def affine_forward(x, w, b):
            return np.einsum("nd,dm->nm", x, w) + b, {"input": x, "weights": w}


        def affine_backward(dout, cache):
            x, w = cache["input"], cache["weights"]
            return (
                np.einsum("nm,dm->nd", dout, w),
                np.einsum("nd,nm->dm", x, dout),
                np.einsum("nm->m", dout),
            )
        """,
    "dw_the_wrong_way_round": """
        # expect: verdict=failed score=0 diagnosis=transposed_dw
        import numpy as np


        def affine_forward(x, w, b):
            out = x.dot(w) + b
            return out, (x, w, b)


        def affine_backward(dout, cache):
            x, w, b = cache
            dx = dout.dot(w.T)
            dw = dout.T.dot(x)
            db = np.sum(dout, axis=0)
            return dx, dw, db
        """,
}

ADAM_SAMPLES = {
    # Moments in one dict per key, updated with numpy's in-place operations.
    "moments_per_key": """
        # expect: verdict=passed score=5 diagnosis=none
        import numpy as np


        class Adam:
            def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
                self.lr, self.betas, self.eps = lr, (beta1, beta2), eps
                self.t = 0
                self.moments = {}

            def step(self, params, grads):
                self.t += 1
                beta1, beta2 = self.betas
                for key in params:
                    g = grads[key]
                    m, v = self.moments.setdefault(key, (np.zeros_like(g), np.zeros_like(g)))
                    m *= beta1
                    m += (1 - beta1) * g
                    v *= beta2
                    v += (1 - beta2) * g * g
                    step = self.lr * np.sqrt(1 - beta2**self.t) / (1 - beta1**self.t)
                    params[key] -= step * m / (np.sqrt(v) + self.eps * np.sqrt(1 - beta2**self.t))
        """,
    "new_dict_returned": """
        # expect: verdict=failed score=0 diagnosis=not_in_place
        import numpy as np


        class Adam:
            def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
                self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
                self.t = 0
                self.m, self.v = {}, {}

            def step(self, params, grads):
                self.t += 1
                new = {}
                for key, grad in grads.items():
                    self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * grad
                    self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * grad**2
                    m_hat = self.m[key] / (1 - self.beta1**self.t)
                    v_hat = self.v[key] / (1 - self.beta2**self.t)
                    new[key] = params[key] - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
                return new
        """,
}


def make_scenario_folder(
    root: Path,
    exercise_id: str,
    entries: list[str],
    solution: str,
    cases: str,
    mistakes: dict[str, tuple[str, str, str]],
    starter: str,
    samples: dict[str, str],
) -> Path:
    folder = root / exercise_id
    names = ", ".join(f'"{name}"' for name in entries)
    write(
        folder / "exercise.toml",
        f"""
        id = "{exercise_id}"
        title = "Scenario: {exercise_id}"
        difficulty = "medium"
        tags = ["scenario"]
        entries = [{names}]
        """,
    )
    write(folder / "statement.md", "Write " + " and ".join(f"`{n}`" for n in entries) + ".\n")
    write(folder / "starter.py", starter)
    write(folder / "solution.py", solution)
    write(folder / "cases.py", cases)
    for name, (hint, right, wrong) in mistakes.items():
        assert right in solution, name
        write(
            folder / "mistakes" / f"{name}.py",
            f"HINT = {hint!r}\n" + solution.replace(right, wrong),
        )
    for name, text in samples.items():
        write(folder / "samples" / f"{name}.py", text)
    return folder


def make_affine_layer(root: Path) -> Path:
    """``affine_forward(x, w, b) -> (out, cache)`` and ``affine_backward(dout, cache) -> (dx,
    dw, db)``, the cache the learner's own."""
    return make_scenario_folder(
        root,
        "affine-layer",
        ["affine_forward", "affine_backward"],
        AFFINE_SOLUTION,
        AFFINE_CASES,
        AFFINE_MISTAKES,
        "def affine_forward(x, w, b):\n    return None, None\n\n\n"
        "def affine_backward(dout, cache):\n    return None, None, None\n",
        AFFINE_SAMPLES,
    )


def make_adam(root: Path) -> Path:
    """``class Adam`` whose ``step(params, grads)`` updates the dict ``params`` in place."""
    return make_scenario_folder(
        root,
        "adam",
        ["Adam"],
        ADAM_SOLUTION,
        ADAM_CASES,
        ADAM_MISTAKES,
        "class Adam:\n    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):\n"
        "        pass\n\n    def step(self, params, grads):\n        pass\n",
        ADAM_SAMPLES,
    )


SGD_SOLUTION = """
import numpy as np


def init_params(d, m):
    return np.zeros((d, m)), np.zeros(m)


def sgd_step(params, grads, lr):
    for key, grad in grads.items():
        params[key] -= lr * grad
"""

SGD_CASES = """
from graders.scenarios import call, keep, ref, scenario


def run(rng, d, m, count):
    made = [call("init_params", d=d, m=m, returns=(keep("w"), keep("b")))]
    for _ in range(count):
        grads = {"w": rng.normal(size=(d, m)), "b": rng.normal(size=m)}
        made.append(
            call(
                "sgd_step",
                params={"w": ref("w"), "b": ref("b")},
                grads=grads,
                lr=0.1,
                updates=["params"],
            )
        )
    return made


@scenario(public=True)
def two_steps(rng):
    return run(rng, 3, 2, 2)


@scenario(points=2)
def five_steps(rng):
    return run(rng, 4, 1, 5)
"""

SGD_SAMPLES = {
    "in_place_by_key": "# expect: verdict=passed score=3 diagnosis=none\n"
    + SGD_SOLUTION.replace("for key, grad in grads.items():", "for key in params:").replace(
        "lr * grad", "lr * grads[key]"
    ),
    "rebinds_entries": "# expect: verdict=failed score=0 diagnosis=none\n"
    + SGD_SOLUTION.replace("params[key] -= lr * grad", "params[key] = params[key] - lr * grad"),
}


def make_sgd(root: Path) -> Path:
    """``init_params(d, m) -> (w, b)``, each kept on its own, and ``sgd_step(params, grads, lr)``
    given them in a dict of refs, to update in place."""
    return make_scenario_folder(
        root,
        "sgd",
        ["init_params", "sgd_step"],
        SGD_SOLUTION,
        SGD_CASES,
        {},
        "def init_params(d, m):\n    pass\n\n\ndef sgd_step(params, grads, lr):\n    pass\n",
        SGD_SAMPLES,
    )
