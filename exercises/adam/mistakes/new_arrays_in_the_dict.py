"""New arrays put into params (params[key] = params[key] - ...) instead of the arrays it holds
changed: whatever holds those arrays (a layer, the caller) never sees the update."""

import numpy as np

HINT = (
    "step puts new arrays into params (params[key] = params[key] - ...) instead of changing "
    "the arrays params holds: whatever holds those arrays (a layer, the caller) never sees "
    "the update. Change them in place: params[key] -= ..."
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
        self.t += 1
        for key, grad in grads.items():
            self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * grad
            self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * grad**2
            m_hat = self.m[key] / (1 - self.beta1**self.t)
            v_hat = self.v[key] / (1 - self.beta2**self.t)
            params[key] = params[key] - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
