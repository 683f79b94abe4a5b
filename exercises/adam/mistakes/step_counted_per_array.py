"""The step count incremented once per array of the dict instead of once per call."""

import numpy as np

HINT = (
    "Your updates are right for a single array but not when the dict holds several: the "
    "step count grows once per array instead of once per call of step, so the bias "
    "corrections of the later arrays use a count too large. Count one step per call, before "
    "the loop over the arrays."
)


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.t = 0
        self.m = {}
        self.v = {}

    def step(self, params, grads):
        for key, grad in grads.items():
            self.t += 1
            self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * grad
            self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * grad**2
            m_hat = self.m[key] / (1 - self.beta1**self.t)
            v_hat = self.v[key] / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
