"""Keeps the moments in class attributes, so two optimisers share (and corrupt) each other's state."""

import numpy as np

RIGHT_DIAGNOSES = ("moments_shared_by_every_optimiser",)


class Adam:
    m = {}
    v = {}

    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        for key, g in grads.items():
            Adam.m[key] = self.beta1 * Adam.m.get(key, 0.0) + (1 - self.beta1) * g
            Adam.v[key] = self.beta2 * Adam.v.get(key, 0.0) + (1 - self.beta2) * g**2
            m_hat = Adam.m[key] / (1 - self.beta1**self.t)
            v_hat = Adam.v[key] / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
