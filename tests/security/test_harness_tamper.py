"""Submitted code that rewrites the harness's own functions, from inside the sandbox process, to
pass a check judged there: where a generator was left, an update in place, an input changed in
place, repeated work. The harness runs on copies bound before the code ran, and the engine's
modules are out of ``sys.modules`` (graders/sandbox/sealed.py): each rewrite changes nothing,
and the code is graded as it would be without it (docs/security.md, "The harness's own
functions")."""

from __future__ import annotations

import pytest

from graders.api import ExerciseCatalog, Sandbox, Status, Verdict, grade
from tests.graders.helpers import EXERCISES

# The tester's H5: a copy of the generator draws the mask, and generator_state is rewritten
# to report the copy's state as the caller's.
H5 = """
import numpy as np, copy, sys
def dropout(x, p, rng):
    c = copy.deepcopy(rng); mask = c.random(x.shape) >= p
    for m in list(sys.modules.values()):
        g = getattr(m, 'generator_state', None)
        if callable(g):
            m.generator_state = lambda v, g=g, rng=rng, c=c: g(c) if v is rng else g(v)
    return x * mask / (1 - p), mask
"""
H5_PLAIN = """
import numpy as np, copy
def dropout(x, p, rng):
    c = copy.deepcopy(rng); mask = c.random(x.shape) >= p
    return x * mask / (1 - p), mask
"""
ADAM_REPLACING = """
import sys
import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self.m, self.v = {}, {}

    def step(self, params, grads):
        self.t += 1
        for key in params:
            g = grads[key]
            self.m[key] = self.beta1 * self.m.get(key, np.zeros_like(g)) + (1 - self.beta1) * g
            self.v[key] = self.beta2 * self.v.get(key, np.zeros_like(g)) + (1 - self.beta2) * g**2
            m_hat = self.m[key] / (1 - self.beta1**self.t)
            v_hat = self.v[key] / (1 - self.beta2**self.t)
            u = self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
            params[key] = params[key] - u
        PATCH
"""
# The tester's H6: an update that replaces the dict's arrays, and as_the_caller_sees rewritten
# to show the caller the new ones.
H6_PATCH = """for m in list(sys.modules.values()):
            if hasattr(m, 'as_the_caller_sees'):
                m.as_the_caller_sees = lambda value, held: value"""
SHIFTED_IN_PLACE = """
import sys
import numpy as np


def softmax_cross_entropy(logits, labels):
    logits -= logits.max(axis=-1, keepdims=True)  # the caller's logits, changed in place
    log_probs = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    onehot = np.eye(logits.shape[-1])[labels]
    count = np.size(labels)
    PATCH
    return float(-np.sum(onehot * log_probs) / count), (np.exp(log_probs) - onehot) / count
"""
UNCHANGED_PATCH = """for m in list(sys.modules.values()):
        if hasattr(m, 'changed_inputs'):
            m.changed_inputs = lambda names, args, pristine: []
        if hasattr(m, 'unchanged'):
            m.unchanged = lambda now, before: True"""
RECURSIVE = """
import sys
import numpy as np


def rows(step, joined, W_h, b_h):  # a loop the syntax tree does not see: the tracer does
    if len(joined) == 0:
        return []
    return [np.tanh(joined[0] @ W_h.T + b_h)] + step(step, joined[1:], W_h, b_h)


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1).astype(np.float64)
    PATCH
    if joined.ndim == 1:
        return np.tanh(joined @ W_h.T + b_h)
    return np.stack(rows(rows, joined, W_h, b_h))
"""
# The repeats tracer's verdict and what it counts, rewritten to find nothing (by the modules'
# names: a loop over sys.modules would be refused on the tree).
REPEATS_PATCH = """harness = sys.modules.get("graders.sandbox.harness")
    repeats = sys.modules.get("graders.sandbox.repeats")
    if harness is not None:
        harness.growth = lambda calls: None
    if repeats is not None:
        repeats.SUBMISSION_FILES = frozenset()"""

ATTACKS = {
    "H5-generator_state": ("dropout", H5, H5_PLAIN),
    "H6-as_the_caller_sees": (
        "adam",
        ADAM_REPLACING.replace("PATCH", H6_PATCH),
        ADAM_REPLACING.replace("PATCH", "pass"),
    ),
    "changed_inputs-unchanged": (
        "softmax-cross-entropy",
        SHIFTED_IN_PLACE.replace("PATCH", UNCHANGED_PATCH),
        SHIFTED_IN_PLACE.replace("PATCH", "pass"),
    ),
    "repeats-tracer": (
        "gru-candidate-state",
        RECURSIVE.replace("PATCH", REPEATS_PATCH),
        RECURSIVE.replace("PATCH", "pass"),
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "attack", "plain"), ATTACKS.values(), ids=ATTACKS.keys())
def test_rewriting_the_harness_changes_nothing_it_judges(
    sandbox: Sandbox, slug: str, attack: str, plain: str
) -> None:
    prepared = ExerciseCatalog(EXERCISES).prepared(slug)
    without = grade(prepared, plain, sandbox)
    assert without.verdict is Verdict.FAILED
    failed = [(t.name, t.failure) for t in without.tests if t.status is not Status.PASSED]
    assert failed, without.tests
    report = grade(prepared, attack, sandbox)
    assert report.verdict is Verdict.FAILED, report.tests
    assert [(t.name, t.failure) for t in report.tests if t.status is not Status.PASSED] == failed
    assert report.message == without.message
