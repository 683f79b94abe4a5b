"""Layout mix-ups told in words: a numpy shape error of a public call, explained.

A layout confusion (a time-first sequence read as batch-first, a weight matrix read as
(inputs, outputs)) shows up as numpy's complaint about shapes, in numpy's own terms ("mismatch
in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?)"). The learner reads
instead what does not fit, in the case's own inputs: each input's shape, where its batch axis
is, and which axes of which inputs have the sizes numpy names. Only public calls are
explained: of a hidden call the trusted side knows no exception type or message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from graders.values import InputFunction

# numpy's words when the shapes of two operands do not fit together.
SHAPE_ERRORS = (
    "mismatch in its core dimension",
    "could not be broadcast",
    "shapes",
    "not aligned",
    "must match exactly",
    "dimensions except for the concatenation",
    "cannot reshape",
    "out of bounds for axis",
)
# numpy's words, per operation, for operands that do not fit: a matrix product, a
# concatenation, a broadcast, a reshape, an axis or an index that does not exist.
OPERATIONS = (
    ("matmul", ("matmul:", "not aligned")),
    ("concatenate", ("concatenation axis", "input arrays must have the same shape")),
    ("broadcast", ("could not be broadcast",)),
    ("reshape", ("cannot reshape",)),
    ("axis", ("out of bounds for array of dimension",)),
    ("index", ("out of bounds for axis", "too many indices")),
)
# Where numpy names the two sizes that disagree: matmul, concatenate/stack, dot.
SIZES = (
    re.compile(r"size (\d+) is different from (\d+)"),
    re.compile(r"has size (\d+) and the array at index \d+ has size (\d+)"),
    re.compile(r"(\d+) \(dim \d+\) != (\d+) \(dim \d+\)"),
)


# A failed broadcast as numpy words it: "... together with shapes (9,2) (9,) ".
BROADCAST_SHAPES = re.compile(r"could not be broadcast together with shapes ((?:\([\d,]*\) ?)+)")


def failed_operation(message: str) -> str:
    """The kind of numpy operation an exception's message says failed; empty for another."""
    return next(
        (operation for operation, words in OPERATIONS if any(word in message for word in words)), ""
    )


def broadcast_mismatch(message: str) -> str:
    """For a broadcast that failed, the sizes that disagree, axis by axis as numpy aligns the
    shapes (from the last axis), in order ("2 9"); empty for another message.

    They say what was confused with what, whatever the order of the operands or the other
    axes: a product written ``W @ x`` meets the bias with the batch where the units belong
    ((9, 2) against (9,): 2 against 9), while gate blocks sliced on the batch axis leave an
    empty block beside the batch ((0, 9) against (2, 9): 0 against 2)."""
    found = BROADCAST_SHAPES.search(message)
    if found is None:
        return ""
    shapes = [
        tuple(int(size) for size in re.findall(r"\d+", shape))
        for shape in re.findall(r"\(([\d,]*)\)", found.group(1))
    ]
    disagreeing: set[int] = set()
    for axis in range(1, max(map(len, shapes), default=0) + 1):
        sizes = {shape[-axis] for shape in shapes if len(shape) >= axis} - {1}
        if len(sizes) > 1:
            disagreeing |= sizes
    return " ".join(map(str, sorted(disagreeing)))


def is_shape_error(error: Mapping[str, Any]) -> bool:
    message = str(error.get("message", ""))
    return error.get("type") in ("ValueError", "IndexError") and any(
        words in message for words in SHAPE_ERRORS
    )


def explain_shape_error(
    error: Mapping[str, Any], inputs: Mapping[str, Any], batch_axes: Mapping[str, int] | None = None
) -> str:
    """For an exception about shapes, what does not fit, in words; empty for other exceptions,
    and for a case with no array among its inputs (nothing to name).

    ``batch_axes`` (a batched case's) says where each batched input has its batch. Arrays held
    in a dict, list or tuple argument are named by their place in it (``params['w']``).
    """
    if not is_shape_error(error):
        return ""
    step = raising_step(error)
    if step is not None:
        return explain_step_shape_error(error, step, inputs)
    axes = batch_axes or {}
    arrays = dict(named_arrays(inputs))
    if not arrays:
        return ""
    shapes = ", ".join(
        f"{name} {tuple(value.shape)}"
        + (f" with the batch along axis {axes[name]}" if name in axes else "")
        for name, value in arrays.items()
    )
    # What to check names only what the case has: a weight matrix where an unbatched matrix is
    # among the inputs; no axis the exercise may not have (time, channels) is named.
    has_matrix = any(value.ndim == 2 and name not in axes for name, value in arrays.items())
    # An author's function among the inputs is named, never shown: its shapes are x's.
    functions = "".join(
        f", and the function {name} = {value!r}"
        for name, value in inputs.items()
        if isinstance(value, InputFunction)
    )
    return (
        "the arrays' shapes do not fit together, which usually means a layout mix-up: "
        f"this case's inputs have shapes {shapes}{functions}; {sizes_text(error, arrays)}"
        "check each against the statement's shapes: which axis holds the batch and what each "
        "other axis holds"
        + (", and whether a weight matrix is (outputs, inputs)" if has_matrix else "")
    )


# The note a scenario's runner adds to an exception, at the end of its message
# (graders/sandbox/scenario.py): "(in step 3, cell.step)", "(in cell = RNNCell(...))".
RAISED_IN_STEP = re.compile(r" \(in ([^()]*(?:\(\.\.\.\))?)\)$")


def raising_step(error: Mapping[str, Any]) -> str | None:
    """The label of the scenario step an exception was raised in; None outside a scenario (or
    when the message was cut before its note)."""
    found = RAISED_IN_STEP.search(str(error.get("message", "")))
    return found.group(1) if found else None


def explain_step_shape_error(error: Mapping[str, Any], step: str, inputs: Mapping[str, Any]) -> str:
    """A scenario step's shape error, in the words of that step alone: its own inputs (not
    every input of every step), and for a method, the object's state as the usual other
    operand (a state an earlier step left in the wrong shape, or never reset)."""
    prefix = f"{step}: "
    arrays = dict(
        named_arrays(
            {
                name.removeprefix(prefix): value
                for name, value in inputs.items()
                if name.startswith(prefix)
            }
        )
    )
    shapes = ", ".join(f"{name} {tuple(value.shape)}" for name, value in arrays.items())
    given = (
        f"its array arguments have shapes {shapes}; {sizes_text(error, arrays)}" if arrays else ""
    )
    held = ", ".join(part for part in step.split(", ")[1:2] if "." in part)
    if held:
        owner = held.split(".")[0]
        return (
            f"the arrays' shapes do not fit together in {step}: {given}the other arrays are "
            f"what {owner} holds from earlier steps; check that its state has the shapes the "
            "statement gives, and that every step that should set or reset it does"
        )
    return (
        f"the arrays' shapes do not fit together in {step}: {given}check each array it "
        "uses, kept values from earlier steps included, against the statement's shapes"
    )


def named_arrays(inputs: Mapping[str, Any]) -> Iterator[tuple[str, np.ndarray]]:
    """The inputs' arrays with their names, and those one level inside a container argument."""
    for name, value in inputs.items():
        if isinstance(value, np.ndarray):
            yield name, value
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if isinstance(item, np.ndarray):
                    yield f"{name}[{key!r}]", item
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                if isinstance(item, np.ndarray):
                    yield f"{name}[{index}]", item


def sizes_text(error: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> str:
    """Which inputs' axes have the two sizes numpy says disagree ("" when it names none)."""
    message = str(error.get("message", ""))
    found = next((pattern.search(message) for pattern in SIZES if pattern.search(message)), None)
    if found is None:
        return ""
    parts = []
    for size in dict.fromkeys(int(group) for group in found.groups()):
        where = [
            f"axis {axis} of {name}"
            for name, value in arrays.items()
            for axis, length in enumerate(value.shape)
            if length == size
        ]
        parts.append(
            f"{size} is the length of {', '.join(where)}"
            if where
            else f"{size} is the length of no input's axis (of an intermediate result)"
        )
    return f"the sizes that do not fit: {'; '.join(parts)}; "
