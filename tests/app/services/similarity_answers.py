"""A synthetic class's answers to ``layer-norm``: honest ones, each built from its own choice of
ways to write each step, a planted copy of one of them (names, comments and blank lines
changed, as a learner hiding a copy would), and hostile ones written to make the report slow.
Used by the similarity tests and bench/similarity.py."""

from __future__ import annotations

import random
import re
from enum import Enum

# Each step of a layer norm, written the ways learners write it; an answer takes one of each.
PREAMBLES = (
    "",
    "    x = np.asarray(x, dtype=float)\n",
    "    if x.shape[-1] != gamma.shape[0]:\n        raise ValueError('feature sizes differ')\n",
    "    x = np.array(x, dtype=np.float64, copy=True)\n    assert gamma.ndim == 1\n",
    "    features = x.shape[-1]\n    assert beta.shape == (features,)\n",
    "    x = x.astype(np.float64)\n    width = x.shape[x.ndim - 1]\n",
    "    if eps <= 0:\n        raise ValueError('eps must be positive')\n",
    "    squeeze = x.ndim == 1\n    x = np.atleast_2d(x)\n",
)
MEANS = (
    "    mu = x.mean(axis=-1, keepdims=True)\n",
    "    mu = np.mean(x, axis=-1)[..., None]\n",
    "    mu = np.sum(x, axis=x.ndim - 1, keepdims=True) / x.shape[-1]\n",
    "    mu = np.expand_dims(np.average(x, axis=-1), -1)\n",
    "    total = np.zeros(x.shape[:-1] + (1,))\n    for i in range(x.shape[-1]):\n"
    "        total[..., 0] += x[..., i]\n    mu = total / x.shape[-1]\n",
    "    mu = x.sum(-1, keepdims=True) * (1.0 / x.shape[-1])\n",
    "    mu = np.einsum('...i->...', x)[..., np.newaxis] / x.shape[-1]\n",
    "    mu = np.apply_along_axis(np.mean, -1, x)[..., None]\n",
)
VARIANCES = (
    "    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)\n",
    "    diff = x - mu\n    var = np.mean(diff * diff, axis=-1, keepdims=True)\n",
    "    var = np.var(x, axis=-1, keepdims=True)\n",
    "    var = np.square(x - mu).sum(axis=-1, keepdims=True) / x.shape[-1]\n",
    "    sq = np.zeros_like(mu)\n    for j in range(x.shape[-1]):\n"
    "        sq[..., 0] += (x[..., j] - mu[..., 0]) ** 2\n    var = sq / x.shape[-1]\n",
    "    var = np.einsum('...i,...i->...', x - mu, x - mu)[..., None] / x.shape[-1]\n",
    "    var = np.expand_dims(np.std(x, axis=-1) ** 2, axis=-1)\n",
    "    c = x - mu\n"
    "    var = (c @ np.ones(c.shape[-1]))[..., None] * 0 + (c * c).mean(-1)[..., None]\n",
)
NORMALISATIONS = (
    "    xhat = (x - mu) / np.sqrt(var + eps)\n",
    "    inv = 1.0 / np.sqrt(var + eps)\n    xhat = (x - mu) * inv\n",
    "    std = np.sqrt(var + eps)\n    xhat = np.divide(x - mu, std)\n",
    "    xhat = (x - mu) * (var + eps) ** -0.5\n",
    "    denom = np.power(var + eps, 0.5)\n    xhat = np.subtract(x, mu) / denom\n",
    "    xhat = (x - mu) / (var + eps) ** 0.5\n",
)
OUTPUTS = (
    "    return gamma * xhat + beta\n",
    "    out = xhat * gamma\n    out = out + beta\n    return out\n",
    "    return np.add(np.multiply(xhat, gamma), beta)\n",
    "    y = gamma[None, :] * xhat.reshape(-1, xhat.shape[-1]) + beta\n"
    "    return y.reshape(x.shape)\n",
    "    result = beta + xhat * gamma\n    return result.astype(np.float64)\n",
    "    y = np.empty_like(xhat)\n    y[...] = xhat * gamma + beta\n    return y\n",
)
HEADER = (
    "import numpy as np\n\n\n"
    "def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float)"
    " -> np.ndarray:\n"
)
STEPS = (PREAMBLES, MEANS, VARIANCES, NORMALISATIONS, OUTPUTS)


def honest_answers(count: int, seed: int = 0, shared_steps: int = len(STEPS) - 1) -> list[str]:
    """``count`` answers, no two making the same choice at more than ``shared_steps`` steps
    (at most 1: a class of independent answers; the default: only no two alike)."""
    rng = random.Random(seed)
    seen: list[tuple[int, ...]] = []
    answers: list[str] = []
    while len(answers) < count:
        choice = tuple(rng.randrange(len(step)) for step in STEPS)
        if any(sum(a == b for a, b in zip(choice, c, strict=True)) > shared_steps for c in seen):
            continue
        seen.append(choice)
        body = "".join(step[i] for step, i in zip(STEPS, choice, strict=True))
        answers.append(HEADER + f"    # answer {len(answers)}\n" + body)
    return answers


RENAMES = {"mu": "centre", "var": "spread", "xhat": "normed", "out": "res", "inv": "scale"}


def disguised_copy(code: str) -> str:
    """``code`` with its names and comments changed and blank lines added: the same tokens."""
    for old, new in RENAMES.items():
        code = re.sub(rf"\b{old}\b", new, code)
    code = re.sub(r"# answer \d+", "# my own work", code)
    return code.replace("\n    return", "\n\n    # done\n    return")


class Hostile(Enum):
    """What makes the report slow, one answer of each kind. copydetect's cost grows with the
    tokens left once names, strings and comments are taken out (one character each), and a
    pair costs in proportion to the positions of the fingerprints it shares; the structure's
    with the statements of a block it orders (the square of their number), the calls of
    helpers it inlines, and the nesting it walks."""

    MANY_TOKENS = "many-tokens"  # one long line, an operator and a digit per token
    REPEATED = "repeated"  # one short statement again and again: few fingerprints, each everywhere
    DISTINCT = "distinct"  # a list of random numbers: every fingerprint a new one
    BLOCKS = "blocks"  # functions of 300 distinct statements each, every one reading the last
    HELPERS = "helpers"  # helpers each calling the one before twice: inlined, 2^n nodes
    NESTED = "nested"  # one expression nested as deep as the parser takes


HOSTILE_BYTES = 100_000
"""The largest submission the service accepts (``NUMJUDGE_MAX_CODE_BYTES``)."""


PARSED_CHARS = 9_900
"""The hostile answers that aim at the structure are valid Python within the characters
compared (10 000): the rest is comment."""


def _parsed_hostile(kind: Hostile, rng: random.Random) -> str:
    lines: list[str] = []
    if kind is Hostile.BLOCKS:
        block = 0
        while sum(map(len, lines)) < PARSED_CHARS:
            lines.append(f"def f{block}(a):\n    v0 = a\n")
            for i in range(1, 300):
                lines.append(f"    v{i} = v{i - 1} * {rng.randrange(10**3)}\n")
            lines.append("    return v299\n")
            block += 1
    elif kind is Hostile.HELPERS:
        lines.append("def h0(a):\n    return a + 1\n")
        level = 1
        while sum(map(len, lines)) < PARSED_CHARS:
            lines.append(f"def h{level}(a):\n    return h{level - 1}(h{level - 1}(a)) * 2\n")
            level += 1
        lines.append(f"x = h{level - 1}(1)\n")
    else:
        lines.append("x = " + "-" * (PARSED_CHARS - 10) + "1\n")
    code = ""
    for line in lines:
        if len(code) + len(line) > PARSED_CHARS:
            break
        code += line
    return code


def hostile_answer(kind: Hostile, size: int = HOSTILE_BYTES, seed: int = 0) -> str:
    """An answer of ``size`` characters built to cost the report most (copydetect does not mind
    that the cut may break its syntax; the structure's kinds parse up to the cut)."""
    rng = random.Random(seed)
    if kind in (Hostile.BLOCKS, Hostile.HELPERS, Hostile.NESTED):
        code = _parsed_hostile(kind, rng)
        return code + ("#" * 79 + "\n") * ((size - len(code)) // 80)
    if kind is Hostile.MANY_TOKENS:
        body = "x = 1" + "".join(
            rng.choice("+-*/%&|^") + rng.choice("123456789") for _ in range(size)
        )
    elif kind is Hostile.REPEATED:
        body = "import numpy as np\n" + "a=b+c;" * (size // 6)
    else:
        body = "x = [" + ",".join(str(rng.randrange(10**6)) for _ in range(size // 6)) + "]"
    return body[: size - 1] + "\n"
