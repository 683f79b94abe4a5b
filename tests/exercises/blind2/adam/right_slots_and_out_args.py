"""Correct: per-key state as [m, v] pairs updated with ufunc out= arguments."""
import numpy as np


class Adam:
    __slots__ = ("_state", "beta1", "beta2", "eps", "lr", "t")

    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self._state = {}

    def step(self, params, grads):
        self.t += 1
        c1 = 1.0 - self.beta1**self.t
        c2 = 1.0 - self.beta2**self.t
        for key in sorted(params):
            g = np.asarray(grads[key], dtype=float)
            m, v = self._state.setdefault(key, [np.zeros(g.shape), np.zeros(g.shape)])
            np.multiply(m, self.beta1, out=m)
            m += (1.0 - self.beta1) * g
            np.multiply(v, self.beta2, out=v)
            v += (1.0 - self.beta2) * np.square(g)
            denom = np.sqrt(v / c2)
            denom += self.eps
            np.subtract(params[key], self.lr * (m / c1) / denom, out=params[key])
