"""Keeps the moments in class attributes (m = {} on the class), so two optimisers share them."""
import numpy as np


class Adam:
    m = {}
    v = {}

    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.t = 0

    def step(self, params, grads):
        self.t += 1
        for key, grad in grads.items():
            m = self.m.get(key, 0.0)
            v = self.v.get(key, 0.0)
            m = self.beta1 * m + (1 - self.beta1) * grad
            v = self.beta2 * v + (1 - self.beta2) * grad**2
            self.m[key] = m
            self.v[key] = v
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)

RIGHT_DIAGNOSES = ("moments_shared_by_every_optimiser",)
