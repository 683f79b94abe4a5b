"""Puts a new array into the dict (params[key] = params[key] - ...) instead of updating it in place."""

import numpy as np

RIGHT_DIAGNOSES = ("new_arrays_in_the_dict",)


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
            params[key] = params[key] - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
