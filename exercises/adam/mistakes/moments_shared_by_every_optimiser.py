"""The moments kept on the class, so that every optimiser (and every call's arrays) share one
pair of dicts."""

import numpy as np

HINT = (
    "Your moments are shared by every optimiser: they are kept where all instances see them "
    "(on the class, or in a module variable), so a new optimiser starts from the moments an "
    "earlier one left (whose shapes may not even fit), and two optimisers move each "
    "other's. Create the moment dicts in __init__, on self, so that each optimiser has its "
    "own, starting empty."
)


class Adam:
    # The mistake: one pair of dicts for every instance.
    m = {}  # noqa: RUF012
    v = {}  # noqa: RUF012

    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        for key, grad in grads.items():
            Adam.m[key] = self.beta1 * Adam.m.get(key, 0.0) + (1 - self.beta1) * grad
            Adam.v[key] = self.beta2 * Adam.v.get(key, 0.0) + (1 - self.beta2) * grad**2
            m_hat = Adam.m[key] / (1 - self.beta1**self.t)
            v_hat = Adam.v[key] / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
