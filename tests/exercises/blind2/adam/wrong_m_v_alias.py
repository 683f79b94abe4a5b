"""Starts m and v as one shared zeros array (m = v = zeros) and updates both in place, so they alias."""
import numpy as np


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
            if key not in self.m:
                self.m[key] = self.v[key] = np.zeros_like(params[key])
            m, v = self.m[key], self.v[key]
            m *= self.beta1
            m += (1 - self.beta1) * grad
            v *= self.beta2
            v += (1 - self.beta2) * grad**2
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


RIGHT_DIAGNOSES = ("moments_in_one_array",)
