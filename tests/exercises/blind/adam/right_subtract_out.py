"""Correct: the moments kept as an (m, v) pair per key, the update subtracted with np.subtract(out=)."""

import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.t = 0
        self._moments = {}

    def step(self, params, grads):
        self.t += 1
        c1 = 1.0 - self.beta1**self.t
        c2 = 1.0 - self.beta2**self.t
        for key in params:
            g = np.asarray(grads[key], dtype=np.float64)
            m, v = self._moments.get(key, (0.0, 0.0))
            m = self.beta1 * m + (1.0 - self.beta1) * g
            v = self.beta2 * v + (1.0 - self.beta2) * np.square(g)
            self._moments[key] = (m, v)
            update = self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)
            np.subtract(params[key], update, out=params[key])
