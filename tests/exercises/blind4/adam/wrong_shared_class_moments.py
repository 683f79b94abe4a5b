"""Mistake: the moments live in class-level dicts, so two optimisers share (and corrupt) each other's state."""
import numpy as np


class Adam:
    m = {}
    v = {}

    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        for key in params:
            grad = grads[key]
            m = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * grad
            v = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * grad**2
            self.m[key], self.v[key] = m, v
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


RIGHT_DIAGNOSES = ("moments_shared_by_every_optimiser",)
