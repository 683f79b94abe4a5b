# expect: verdict=passed score=13 diagnosis=none
"""Moments in one pair of arrays per key, updated with numpy's in-place operations, and the
bias correction folded into the step size."""

import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.betas, self.eps = lr, (beta1, beta2), eps
        self.t = 0
        self.moments = {}

    def step(self, params, grads):
        self.t += 1
        beta1, beta2 = self.betas
        for key in params:
            g = grads[key]
            m, v = self.moments.setdefault(key, (np.zeros_like(g), np.zeros_like(g)))
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            root = np.sqrt(1 - beta2**self.t)
            params[key] -= self.lr * root / (1 - beta1**self.t) * m / (np.sqrt(v) + self.eps * root)
