"""Increments the step count inside the loop over keys, so t grows by the number of arrays per step."""

import numpy as np

RIGHT_DIAGNOSES = ("step_counted_per_array",)


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self.m, self.v = {}, {}

    def step(self, params, grads):
        for key, g in grads.items():
            self.t += 1
            self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * g
            self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * g**2
            m_hat = self.m[key] / (1 - self.beta1**self.t)
            v_hat = self.v[key] / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
