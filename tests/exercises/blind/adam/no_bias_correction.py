"""Forgets the bias correction: steps with m / (sqrt(v) + eps) directly."""

import numpy as np

RIGHT_DIAGNOSES = ("no_bias_correction",)


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self.m = {}
        self.v = {}

    def step(self, params, grads):
        self.t += 1
        for key, g in grads.items():
            self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * g
            self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * g * g
            params[key] -= self.lr * self.m[key] / (np.sqrt(self.v[key]) + self.eps)
