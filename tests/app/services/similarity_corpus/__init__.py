"""A planted corpus for the similarity report: for three exercises (``gru-update-gate``, the
short one, ``layer-norm`` and ``softmax-cross-entropy``) 30 honest answers, generated so that
each is written independently, and planted copies of five kinds.

An exercise is a sequence of steps, each written the ways learners write it (vectorised, with
a loop, through ``einsum``, in one statement or three). An honest answer chooses, on its own:
a way for each step (the steps two answers write alike hold at most half of either's lines:
what the exercise forces they may share, not most of their code), an order of the steps that
the data allows, its own names, whether a step becomes a helper function, and how it
comments. A planted copy starts from one honest
answer's choices and changes what a learner hiding a copy changes (:class:`CopyKind`).

The figures measured on it are in README.md beside this file (``bench/similarity.py
--corpus``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum


@dataclass(frozen=True)
class Variant:
    """One way to write a step: statements at the function's indentation, ``{name}`` where
    the answer's own name for a value goes."""

    code: str
    loop: bool = False


@dataclass(frozen=True)
class Step:
    writes: tuple[str, ...]  # the values it defines (placeholders); () for the return
    variants: tuple[Variant, ...]


@dataclass(frozen=True)
class ExerciseSpec:
    exercise_id: str
    header: str  # the imports and the ``def`` line, as the starter has them
    params: tuple[str, ...]
    steps: tuple[Step, ...]  # in one order the data allows; the return last
    names: Mapping[str, tuple[str, ...]]  # each placeholder: the names learners give it

    def reads(self, step: int, variant: int) -> tuple[str, ...]:
        """What a way of writing a step reads: placeholders and parameters, in order."""
        code = self.steps[step].variants[variant].code
        found = re.findall(r"\{(\w+)\}", code) + [
            p for p in self.params if re.search(rf"\b{p}\b", code)
        ]
        # A placeholder no step writes is the variant's own (``hx``, its helper value).
        shared = {w for s in self.steps for w in s.writes} | set(self.params)
        own = self.steps[step].writes
        return tuple(dict.fromkeys(n for n in found if n in shared and n not in own))


def v(code: str, loop: bool = False) -> Variant:
    return Variant(code, loop)


GRU_UPDATE_GATE = ExerciseSpec(
    "gru-update-gate",
    "import numpy as np\n\n\n"
    "def update_gate(x_t: np.ndarray, h_prev: np.ndarray,\n"
    "                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:\n",
    ("x_t", "h_prev", "W_z", "b_z"),
    (
        Step(
            ("x", "h"),
            (
                v(
                    "    {x} = np.asarray(x_t, dtype=float)\n"
                    "    {h} = np.asarray(h_prev, dtype=float)\n"
                ),
                v(
                    "    {x} = np.array(x_t, dtype=np.float64)\n"
                    "    {h} = np.array(h_prev, dtype=np.float64)\n"
                ),
                v("    {x}, {h} = x_t.astype(np.float64), h_prev.astype(np.float64)\n"),
                v("    {x} = x_t * 1.0\n    {h} = h_prev * 1.0\n"),
                v(
                    "    {h} = np.asarray(h_prev, np.float64)\n"
                    "    {x} = np.asarray(x_t, np.float64)\n"
                    "    if {x}.ndim != {h}.ndim:\n"
                    "        raise ValueError('x_t and h_prev must both be batched or not')\n"
                ),
                v(
                    "    {x} = x_t\n"
                    "    {h} = h_prev\n"
                    "    assert {x}.ndim in (1, 2) and {h}.ndim == {x}.ndim\n"
                ),
            ),
        ),
        Step(
            ("H",),
            (
                v("    {H} = b_z.shape[0]\n"),
                v("    {H} = W_z.shape[0]\n"),
                v("    {H} = len(b_z)\n"),
                v("    {H} = np.size(b_z)\n"),
                v("    {H} = W_z.shape[1] - x_t.shape[-1]\n"),
                v("    {H} = h_prev.shape[-1]\n"),
            ),
        ),
        Step(
            ("a",),
            (
                v("    {hx} = np.concatenate([{h}, {x}], axis=-1)\n    {a} = {hx} @ W_z.T + b_z\n"),
                v("    {a} = {h} @ W_z[:, :{H}].T + {x} @ W_z[:, {H}:].T + b_z\n"),
                v(
                    "    {hx} = np.concatenate(({h}, {x}), axis={h}.ndim - 1)\n"
                    "    {a} = np.einsum('hk,...k->...h', W_z, {hx}) + b_z\n"
                ),
                v("    {a} = np.dot(np.hstack([{h}, {x}]), W_z.T) + b_z\n"),
                v(
                    "    {Wh}, {Wx} = W_z[:, :{H}], W_z[:, {H}:]\n"
                    "    {a} = np.matmul({h}, {Wh}.T) + np.matmul({x}, {Wx}.T) + b_z\n"
                ),
                v(
                    "    {hx} = np.concatenate([{h}, {x}], axis=-1)\n"
                    "    {a} = np.empty({hx}.shape[:-1] + ({H},))\n"
                    "    for i in range({H}):\n"
                    "        {a}[..., i] = ({hx} * W_z[i]).sum(axis=-1) + b_z[i]\n",
                    loop=True,
                ),
                v(
                    "    {hx} = np.concatenate([{h}, {x}], axis=-1)\n"
                    "    {a} = np.zeros({hx}.shape[:-1] + ({H},)) + b_z\n"
                    "    for k in range({hx}.shape[-1]):\n"
                    "        {a} = {a} + {hx}[..., k:k + 1] * W_z[:, k]\n",
                    loop=True,
                ),
                v(
                    "    {Wh}, {Wx} = W_z[:, :{H}], W_z[:, {H}:]\n"
                    "    rows = []\n"
                    "    for j in range({H}):\n"
                    "        rows.append({h} @ {Wh}[j] + {x} @ {Wx}[j] + b_z[j])\n"
                    "    {a} = np.stack(rows, axis=-1)\n",
                    loop=True,
                ),
            ),
        ),
        Step(
            ("z",),
            (
                v("    {z} = np.exp(-np.logaddexp(0.0, -{a}))\n"),
                v(
                    "    {z} = np.where({a} >= 0, 1.0 / (1.0 + np.exp(-np.abs({a}))),\n"
                    "                   np.exp(-np.abs({a})) / (1.0 + np.exp(-np.abs({a}))))\n"
                ),
                v(
                    "    e = np.exp(-np.abs({a}))\n"
                    "    {z} = np.where({a} >= 0, 1 / (1 + e), e / (1 + e))\n"
                ),
                v("    {z} = 0.5 * (1.0 + np.tanh(0.5 * {a}))\n"),
                v(
                    "    {z} = np.empty_like({a})\n    pos = {a} >= 0\n"
                    "    {z}[pos] = 1.0 / (1.0 + np.exp(-{a}[pos]))\n"
                    "    {z}[~pos] = np.exp({a}[~pos]) / (1.0 + np.exp({a}[~pos]))\n"
                ),
                v("    {z} = np.exp(np.minimum({a}, 0)) / (1.0 + np.exp(-np.abs({a})))\n"),
                v(
                    "    flat = {a}.reshape(-1)\n    out = np.empty_like(flat)\n"
                    "    for n in range(flat.size):\n"
                    "        t = flat[n]\n"
                    "        out[n] = 1 / (1 + np.exp(-t)) if t >= 0 else np.exp(t) / (1 +"
                    " np.exp(t))\n"
                    "    {z} = out.reshape({a}.shape)\n",
                    loop=True,
                ),
            ),
        ),
        Step(
            (),
            (
                v("    return {z}\n"),
                v("    return {z}.astype(np.float64)\n"),
                v("    return np.asarray({z}, dtype=np.float64)\n"),
                v("    return np.clip({z}, 0.0, 1.0)\n"),
                v("    return {z}.reshape(np.shape(h_prev))\n"),
            ),
        ),
    ),
    {
        "x": ("x", "xt", "inp", "x_in", "xs", "u"),
        "h": ("h", "hp", "prev", "h0", "state", "hidden"),
        "H": ("H", "n_hidden", "hidden_size", "nh", "size", "dim_h"),
        "hx": ("hx", "joined", "concat", "stacked", "v", "xh"),
        "a": ("a", "pre", "logits", "s", "act", "preact"),
        "z": ("z", "gate", "z_t", "out_gate", "g", "sig"),
        "Wh": ("Wh", "W_hz", "w_h", "Uz", "W_rec", "A"),
        "Wx": ("Wx", "W_xz", "w_x", "Vz", "W_in", "B"),
    },
)

LAYER_NORM = ExerciseSpec(
    "layer-norm",
    "import numpy as np\n\n\n"
    "def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float)"
    " -> np.ndarray:\n",
    ("x", "gamma", "beta", "eps"),
    (
        Step(
            ("xs",),
            (
                v("    {xs} = np.asarray(x, dtype=float)\n"),
                v(
                    "    if x.shape[-1] != gamma.shape[0]:\n"
                    "        raise ValueError('feature sizes differ')\n"
                    "    {xs} = x\n"
                ),
                v(
                    "    {xs} = np.array(x, dtype=np.float64, copy=True)\n"
                    "    assert gamma.ndim == 1\n"
                ),
                v("    {xs} = x.astype(np.float64)\n"),
                v(
                    "    if eps <= 0:\n"
                    "        raise ValueError('eps must be positive')\n"
                    "    {xs} = x * 1.0\n"
                ),
                v("    {xs} = np.atleast_1d(x).astype(float)\n"),
            ),
        ),
        Step(
            ("g", "b"),
            (
                v("    {g}, {b} = np.asarray(gamma), np.asarray(beta)\n"),
                v(
                    "    {g} = gamma.reshape((1,) * (x.ndim - 1) + (-1,))\n"
                    "    {b} = beta.reshape({g}.shape)\n"
                ),
                v(
                    "    {g} = np.array(gamma, dtype=float)\n"
                    "    {b} = np.array(beta, dtype=float)\n"
                ),
                v(
                    "    {g} = gamma[np.newaxis, :] if x.ndim == 2 else gamma\n"
                    "    {b} = beta[np.newaxis, :] if x.ndim == 2 else beta\n"
                ),
                v("    {b} = beta.astype(np.float64)\n    {g} = gamma.astype(np.float64)\n"),
                v(
                    "    {g} = np.broadcast_to(gamma, x.shape)\n"
                    "    {b} = np.broadcast_to(beta, x.shape)\n"
                ),
            ),
        ),
        Step(
            ("mu",),
            (
                v("    {mu} = {xs}.mean(axis=-1, keepdims=True)\n"),
                v("    {mu} = np.mean({xs}, axis=-1)[..., None]\n"),
                v("    {mu} = np.sum({xs}, axis={xs}.ndim - 1, keepdims=True) / {xs}.shape[-1]\n"),
                v("    {mu} = np.expand_dims(np.average({xs}, axis=-1), -1)\n"),
                v(
                    "    total = np.zeros({xs}.shape[:-1] + (1,))\n"
                    "    for i in range({xs}.shape[-1]):\n"
                    "        total[..., 0] += {xs}[..., i]\n    {mu} = total / {xs}.shape[-1]\n",
                    loop=True,
                ),
                v("    {mu} = {xs}.sum(-1, keepdims=True) * (1.0 / {xs}.shape[-1])\n"),
                v("    {mu} = np.einsum('...i->...', {xs})[..., np.newaxis] / {xs}.shape[-1]\n"),
                v("    {mu} = np.apply_along_axis(np.mean, -1, {xs})[..., None]\n"),
            ),
        ),
        Step(
            ("var",),
            (
                v("    {var} = (({xs} - {mu}) ** 2).mean(axis=-1, keepdims=True)\n"),
                v(
                    "    diff = {xs} - {mu}\n"
                    "    {var} = np.mean(diff * diff, axis=-1, keepdims=True)\n"
                ),
                v("    {var} = np.var({xs}, axis=-1, keepdims=True)\n"),
                v(
                    "    {var} = np.square({xs} - {mu}).sum(axis=-1, keepdims=True) /"
                    " {xs}.shape[-1]\n"
                ),
                v(
                    "    sq = np.zeros_like({mu})\n    for j in range({xs}.shape[-1]):\n"
                    "        sq[..., 0] += ({xs}[..., j] - {mu}[..., 0]) ** 2\n"
                    "    {var} = sq / {xs}.shape[-1]\n",
                    loop=True,
                ),
                v(
                    "    {var} = np.einsum('...i,...i->...', {xs} - {mu}, {xs} - {mu})[...,"
                    " None] / {xs}.shape[-1]\n"
                ),
                v("    {var} = np.expand_dims(np.std({xs}, axis=-1) ** 2, axis=-1)\n"),
            ),
        ),
        Step(
            ("xhat",),
            (
                v("    {xhat} = ({xs} - {mu}) / np.sqrt({var} + eps)\n"),
                v("    inv = 1.0 / np.sqrt({var} + eps)\n    {xhat} = ({xs} - {mu}) * inv\n"),
                v("    std = np.sqrt({var} + eps)\n    {xhat} = np.divide({xs} - {mu}, std)\n"),
                v("    {xhat} = ({xs} - {mu}) * ({var} + eps) ** -0.5\n"),
                v(
                    "    denom = np.power({var} + eps, 0.5)\n"
                    "    {xhat} = np.subtract({xs}, {mu}) / denom\n"
                ),
                v(
                    "    {xhat} = np.empty_like({xs})\n    for k in range({xs}.shape[-1]):\n"
                    "        {xhat}[..., k] = ({xs}[..., k] - {mu}[..., 0]) /"
                    " np.sqrt({var}[..., 0] + eps)\n",
                    loop=True,
                ),
            ),
        ),
        Step(
            (),
            (
                v("    return {g} * {xhat} + {b}\n"),
                v("    out = {xhat} * {g}\n    out = out + {b}\n    return out\n"),
                v("    return np.add(np.multiply({xhat}, {g}), {b})\n"),
                v("    result = {b} + {xhat} * {g}\n    return result.astype(np.float64)\n"),
                v("    y = np.empty_like({xhat})\n    y[...] = {xhat} * {g} + {b}\n    return y\n"),
                v("    return np.einsum('...i,...i->...i', {xhat}, {g} + 0 * {xhat}) + {b}\n"),
            ),
        ),
    ),
    {
        "xs": ("x", "xf", "data", "arr", "v", "inp"),
        "g": ("g", "scale", "gam", "w", "weight", "G"),
        "b": ("b", "shift", "bet", "bias", "offset", "B"),
        "mu": ("mu", "mean", "m", "centre", "avg", "mean_"),
        "var": ("var", "variance", "v2", "s2", "sigma2", "spread"),
        "xhat": ("xhat", "normed", "x_norm", "z", "norm", "standard"),
    },
)

SOFTMAX_CROSS_ENTROPY = ExerciseSpec(
    "softmax-cross-entropy",
    "import numpy as np\n\n\n"
    "def softmax_cross_entropy(logits: np.ndarray, labels: np.ndarray) -> tuple[float,"
    " np.ndarray]:\n",
    ("logits", "labels"),
    (
        Step(
            ("s",),
            (
                v("    {s} = logits - logits.max(axis=-1, keepdims=True)\n"),
                v("    {s} = logits - np.max(logits, axis=-1)[..., None]\n"),
                v("    top = np.amax(logits, -1, keepdims=True)\n    {s} = logits - top\n"),
                v(
                    "    {s} = np.empty(logits.shape)\n    for r in range(logits.shape[0]):\n"
                    "        {s}[r] = logits[r] - logits[r].max()\n",
                    loop=True,
                ),
                v("    {s} = logits - np.sort(logits, axis=-1)[..., -1:]\n"),
                v("    {s} = np.subtract(logits, logits.max(-1)[:, np.newaxis])\n"),
            ),
        ),
        Step(
            ("lp",),
            (
                v("    {lp} = {s} - np.log(np.exp({s}).sum(axis=-1, keepdims=True))\n"),
                v(
                    "    lse = np.log(np.sum(np.exp({s}), axis=-1, keepdims=True))\n"
                    "    {lp} = {s} - lse\n"
                ),
                v("    e = np.exp({s})\n    {lp} = np.log(e / e.sum(-1, keepdims=True))\n"),
                v("    {lp} = {s} - np.log(np.einsum('...c->...', np.exp({s})))[..., None]\n"),
                v(
                    "    {lp} = np.empty_like({s})\n    for r in range({s}.shape[0]):\n"
                    "        {lp}[r] = {s}[r] - np.log(np.exp({s}[r]).sum())\n",
                    loop=True,
                ),
                v("    {lp} = {s} - np.logaddexp.reduce({s}, axis=-1, keepdims=True)\n"),
            ),
        ),
        Step(
            ("y",),
            (
                v("    {y} = np.eye(logits.shape[-1])[labels]\n"),
                v(
                    "    {y} = np.zeros_like(logits, dtype=float)\n"
                    "    np.put_along_axis({y}, labels[..., None], 1.0, axis=-1)\n"
                ),
                v("    {y} = (np.arange(logits.shape[-1]) == labels[..., None]).astype(float)\n"),
                v(
                    "    {y} = np.zeros(logits.shape)\n    for r, c in enumerate(labels):\n"
                    "        {y}[r, c] = 1.0\n",
                    loop=True,
                ),
                v(
                    "    {y} = np.identity(logits.shape[1],"
                    " dtype=np.float64)[labels.ravel()].reshape(logits.shape)\n"
                ),
                v(
                    "    {y} = np.zeros(logits.shape)\n"
                    "    {y}[np.arange(len(labels)), labels] = 1\n"
                ),
            ),
        ),
        Step(
            ("n",),
            (
                v("    {n} = labels.size\n"),
                v("    {n} = np.size(labels)\n"),
                v("    {n} = len(labels)\n"),
                v("    {n} = labels.shape[0]\n"),
                v("    {n} = int(np.prod(labels.shape))\n"),
                v("    {n} = float(logits.shape[0])\n"),
            ),
        ),
        Step(
            ("L",),
            (
                v("    {L} = -np.sum({y} * {lp}) / {n}\n"),
                v("    {L} = -({y} * {lp}).sum() / {n}\n"),
                v("    {L} = float(-np.einsum('...c,...c->', {y}, {lp}) / {n})\n"),
                v(
                    "    {L} = 0.0\n    for r in range({lp}.shape[0]):\n"
                    "        {L} -= {lp}[r, labels[r]]\n    {L} /= {n}\n",
                    loop=True,
                ),
                v("    {L} = -np.take_along_axis({lp}, labels[..., None], axis=-1).sum() / {n}\n"),
                v("    picked = {lp}[{y} == 1]\n    {L} = -picked.mean() if {n} else 0.0\n"),
            ),
        ),
        Step(
            ("gr",),
            (
                v("    {gr} = (np.exp({lp}) - {y}) / {n}\n"),
                v("    {gr} = np.exp({lp})\n    {gr} -= {y}\n    {gr} /= {n}\n"),
                v("    {gr} = (np.exp({lp}) - {y}) * (1.0 / {n})\n"),
                v("    {gr} = np.subtract(np.exp({lp}), {y}) / {n}\n"),
                v(
                    "    {gr} = np.exp({lp})\n    for r in range({gr}.shape[0]):\n"
                    "        {gr}[r, labels[r]] -= 1.0\n    {gr} = {gr} / {n}\n",
                    loop=True,
                ),
                v("    probs = np.exp({lp})\n    {gr} = (probs - {y}) / {n}\n"),
            ),
        ),
        Step(
            (),
            (
                v("    return float({L}), {gr}\n"),
                v("    return float({L}), {gr}.astype(np.float64)\n"),
                v("    result = (float({L}), {gr})\n    return result\n"),
                v("    return np.float64({L}).item(), np.asarray({gr})\n"),
            ),
        ),
    ),
    {
        "s": ("shifted", "z", "stable", "s", "centred", "sl"),
        "lp": ("log_probs", "logp", "lp", "log_softmax", "ls", "lsm"),
        "y": ("onehot", "one_hot", "target", "y", "t", "mask"),
        "n": ("count", "n", "batch", "N", "total", "m"),
        "L": ("loss", "L", "ce", "cost", "nll", "value"),
        "gr": ("grad", "dlogits", "g", "d", "gradient", "dz"),
    },
)

EXERCISES = (GRU_UPDATE_GATE, LAYER_NORM, SOFTMAX_CROSS_ENTROPY)
HONEST_ANSWERS = 30


@dataclass(frozen=True)
class Choices:
    """What one answer chose: a way per step, the steps' order, its names, the step it wrote
    as a helper function (if any) and how it comments."""

    variants: tuple[int, ...]
    order: tuple[int, ...]
    names: Mapping[str, str]
    helper: int | None
    comments: int


class CopyKind(Enum):
    """How a planted copy hides what it copied."""

    VERBATIM = "verbatim"
    RENAMED = "renamed identifiers"
    REORDERED_HELPER = "statements reordered and a helper extracted"
    LOOP_VECTORISED = "one loop vectorised"
    COMMENTS_WHITESPACE = "comments and whitespace changed"


@dataclass(frozen=True)
class PlantedCopy:
    kind: CopyKind
    original: int  # the index of the honest answer it copies
    code: str


@dataclass(frozen=True)
class Corpus:
    spec: ExerciseSpec
    honest: tuple[str, ...]
    copies: tuple[PlantedCopy, ...]


COMMENT_STYLES = 4


def _orders(spec: ExerciseSpec, variants: Sequence[int], rng: random.Random) -> tuple[int, ...]:
    """A random order of the steps in which each reads only what an earlier one wrote."""
    placed: list[int] = []
    written = set(spec.params)
    left = list(range(len(spec.steps) - 1))
    while left:
        ready = [s for s in left if set(spec.reads(s, variants[s])) <= written]
        step = rng.choice(ready)
        placed.append(step)
        left.remove(step)
        written |= set(spec.steps[step].writes)
    return (*placed, len(spec.steps) - 1)


def _rendered(spec: ExerciseSpec, step: int, variant: int, names: Mapping[str, str]) -> str:
    code = spec.steps[step].variants[variant].code
    return re.sub(r"\{(\w+)\}", lambda m: names[m.group(1)], code)


def render(spec: ExerciseSpec, choices: Choices) -> str:
    """The answer ``choices`` make."""
    names = {**choices.names, **{p: p for p in spec.params}}
    helpers, body = "", ""
    if choices.comments == 1:
        body += f'    """{spec.exercise_id.replace("-", " ")}, written for the exercise."""\n'
    for position, step in enumerate(choices.order):
        variant = choices.variants[step]
        code = _rendered(spec, step, variant, names)
        if choices.comments == 2:
            body += f"    # step {position + 1}\n"
        if step == choices.helper:
            reads = ", ".join(names[r] for r in spec.reads(step, variant))
            writes = ", ".join(names[w] for w in spec.steps[step].writes)
            helpers += f"def _step_{step}({reads}):\n{code}"
            helpers += f"    return {writes}\n\n\n"
            code = f"    {writes} = _step_{step}({reads})\n"
        if choices.comments == 3:
            code = code.replace("\n", "  # ok\n", 1)
        body += code
    head, definition = spec.header.split("def ", 1)
    return head + helpers + "def " + definition + body


def _random_choices(spec: ExerciseSpec, rng: random.Random) -> Choices:
    variants = tuple(rng.randrange(len(step.variants)) for step in spec.steps)
    names = {p: rng.choice(pool) for p, pool in spec.names.items()}
    if len(set(names.values()) | set(spec.params)) < len(names) + len(spec.params):
        return _random_choices(spec, rng)
    helper = rng.randrange(len(spec.steps) - 1) if rng.random() < 0.3 else None
    order = _orders(spec, variants, rng)
    return Choices(variants, order, names, helper, rng.randrange(COMMENT_STYLES))


def _lines(spec: ExerciseSpec, variants: Sequence[int], steps: Sequence[int]) -> int:
    return sum(spec.steps[s].variants[variants[s]].code.count("\n") for s in steps)


def independent(spec: ExerciseSpec, a: Choices, b: Choices) -> bool:
    """Whether the steps ``a`` and ``b`` write alike hold at most half of either answer's
    lines: independent answers may share what the exercise forces, not most of their code."""
    alike = [s for s, (i, j) in enumerate(zip(a.variants, b.variants, strict=True)) if i == j]
    every = range(len(spec.steps))
    shared = _lines(spec, a.variants, alike)
    return 2 * shared <= min(_lines(spec, a.variants, every), _lines(spec, b.variants, every))


def honest_choices(spec: ExerciseSpec, count: int, seed: int) -> list[Choices]:
    """``count`` answers' choices, each pair :func:`independent`."""
    rng = random.Random(seed)
    chosen: list[Choices] = []
    while len(chosen) < count:
        candidate = _random_choices(spec, rng)
        if all(independent(spec, candidate, c) for c in chosen):
            chosen.append(candidate)
    return chosen


def _other_names(
    spec: ExerciseSpec, names: Mapping[str, str], rng: random.Random
) -> dict[str, str]:
    others = {p: rng.choice([n for n in pool if n != names[p]]) for p, pool in spec.names.items()}
    if len(set(others.values()) | set(spec.params)) < len(others) + len(spec.params):
        return _other_names(spec, names, rng)
    return others


def _respaced(code: str) -> str:
    """Comments and blank lines added, spaces around ``=`` and after commas taken out."""
    lines = []
    for line in code.splitlines():
        if line.startswith("    ") and line.strip() and not line.strip().startswith("#"):
            lines.append("")
            lines.append(line[: len(line) - len(line.lstrip())] + "# my own reasoning here")
        lines.append(re.sub(r"(?<=\w) = (?=\S)", "=", line).replace(", ", ","))
    return "\n".join(lines) + "\n"


def planted_copy(
    spec: ExerciseSpec, kind: CopyKind, original: Choices, rng: random.Random
) -> Choices | str | None:
    """The copy's choices (or, for comments and whitespace, its code) or ``None`` if this
    answer cannot be copied that way (no loop to vectorise, no other order)."""
    if kind is CopyKind.VERBATIM:
        return render(spec, original)
    if kind is CopyKind.RENAMED:
        return replace(original, names=_other_names(spec, original.names, rng))
    if kind is CopyKind.COMMENTS_WHITESPACE:
        comments = (original.comments + 1) % COMMENT_STYLES
        return _respaced(render(spec, replace(original, comments=comments)))
    if kind is CopyKind.LOOP_VECTORISED:
        loops = [s for s, i in enumerate(original.variants) if spec.steps[s].variants[i].loop]
        if not loops:
            return None
        step = rng.choice(loops)
        vectorised = [i for i, w in enumerate(spec.steps[step].variants) if not w.loop]
        variants = list(original.variants)
        variants[step] = rng.choice(vectorised)
        return replace(original, variants=tuple(variants))
    others = {_orders(spec, original.variants, rng) for _ in range(50)} - {original.order}
    free = [s for s in range(len(spec.steps) - 1) if s != original.helper]
    if not others or not free:
        return None
    return replace(original, order=sorted(others)[0], helper=rng.choice(free))


def corpus(spec: ExerciseSpec, seed: int = 0) -> Corpus:
    """30 honest answers to ``spec`` and one planted copy of each kind, each of another
    honest answer."""
    rng = random.Random(seed)
    choices = honest_choices(spec, HONEST_ANSWERS, seed)
    honest = tuple(render(spec, c) for c in choices)
    copies: list[PlantedCopy] = []
    for kind in CopyKind:
        for original in rng.sample(range(len(choices)), len(choices)):
            if any(c.original == original for c in copies):
                continue
            made = planted_copy(spec, kind, choices[original], rng)
            if made is not None:
                code = made if isinstance(made, str) else render(spec, made)
                copies.append(PlantedCopy(kind, original, code))
                break
    return Corpus(spec, honest, tuple(copies))
