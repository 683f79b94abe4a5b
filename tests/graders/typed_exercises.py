"""Exercise folders whose inputs and outputs are more than float arrays: a mean loss and its
gradient (declared outputs with batch rules), an optimiser step on dicts of arrays, and a
dropout drawing from a ``numpy.random.Generator`` input."""

from __future__ import annotations

from pathlib import Path

from tests.graders.helpers import write


def make_folder(
    root: Path, exercise_id: str, entry: str, toml_tail: str, solution: str, cases: str
) -> Path:
    folder = root / exercise_id
    write(
        folder / "exercise.toml",
        f"""
        id = "{exercise_id}"
        title = "Typed inputs and outputs: {exercise_id}"
        difficulty = "easy"
        tags = ["typed"]
        entry = "{entry}"
        """
        + toml_tail,
    )
    write(folder / "statement.md", f"Write `{entry}`.\n")
    write(folder / "starter.py", f"def {entry}(*args):\n    return None\n")
    write(folder / "solution.py", solution)
    write(folder / "cases.py", cases)
    return folder


SOFTMAX_SOLUTION = """
import numpy as np


def softmax_loss(logits, labels):
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    n = labels.size
    return float(-(onehot * log_p).sum() / n), (np.exp(log_p) - onehot) / n
"""


def make_softmax_loss(root: Path) -> Path:
    """``softmax_loss(logits, labels) -> (loss, dlogits)``: the mean cross-entropy over the
    batch and its gradient, declared ``batch = "mean"`` and ``batch = "stack/n"``; one
    example alone is part of its contract (``unbatched``)."""
    return make_folder(
        root,
        "softmax-loss",
        "softmax_loss",
        """
        [checks]
        unbatched = true

        [[outputs]]
        name = "loss"
        batch = "mean"

        [[outputs]]
        name = "dlogits"
        batch = "stack/n"
        """,
        SOFTMAX_SOLUTION,
        """
        import numpy as np

        from graders.cases import case


        @case(public=True, batch_axes={"logits": 0, "labels": 0})
        def four_examples(rng):
            return {"logits": rng.normal(size=(4, 3)), "labels": np.array([0, 2, 1, 2])}


        @case(points=2, batch_axes={"logits": 0, "labels": 0})
        def large_logits(rng):
            return {"logits": 1000 * rng.normal(size=(5, 4)), "labels": rng.integers(0, 4, 5)}


        @case(points=2)
        def one_example(rng):
            return {"logits": rng.normal(size=6), "labels": np.int64(3)}
        """,
    )


SGD_SOLUTION = """
def sgd_step(params, grads, lr):
    return {name: value - lr * grads[name] for name, value in params.items()}
"""


def make_sgd_step(root: Path) -> Path:
    """``sgd_step(params, grads, lr) -> params``: dicts of arrays in and out."""
    return make_folder(
        root,
        "sgd-step",
        "sgd_step",
        """
        [[outputs]]
        name = "params"
        """,
        SGD_SOLUTION,
        """
        from graders.cases import case


        def layer(rng, n_in, n_out):
            return {"w": rng.normal(size=(n_in, n_out)), "b": rng.normal(size=n_out)}


        @case(public=True)
        def small_layer(rng):
            return {"params": layer(rng, 3, 2), "grads": layer(rng, 3, 2), "lr": 0.1}


        @case(points=2)
        def wide_layer(rng):
            return {"params": layer(rng, 5, 7), "grads": layer(rng, 5, 7), "lr": 0.01}
        """,
    )


DROPOUT_SOLUTION = """
def dropout(x, p, rng):
    keep = rng.random(x.shape) >= p
    return x * keep / (1 - p)
"""


def make_dropout(root: Path) -> Path:
    """``dropout(x, p, rng)``: draws from the case's own generator, compared exactly."""
    return make_folder(
        root,
        "dropout",
        "dropout",
        """
        [[outputs]]
        name = "out"
        rtol = 0
        atol = 0
        """,
        DROPOUT_SOLUTION,
        """
        import numpy as np

        from graders.cases import case


        @case(public=True)
        def half(rng):
            return {"x": rng.normal(size=(3, 4)), "p": 0.5, "rng": rng}


        @case(points=2)
        def a_fifth(rng):
            return {"x": rng.normal(size=(6, 5)), "p": 0.2, "rng": np.random.default_rng(7)}
        """,
    )
