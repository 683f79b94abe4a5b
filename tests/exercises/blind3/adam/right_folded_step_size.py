"""Adam with the bias corrections folded into the step size and eps, updating through np.subtract(out=)."""
import math

import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = lr, beta1, beta2, eps
        self.t = 0
        self.moments = {}

    def step(self, params, grads):
        self.t += 1
        c1 = 1 - self.beta1**self.t
        c2 = 1 - self.beta2**self.t
        step_size = self.lr * math.sqrt(c2) / c1
        eps_hat = self.eps * math.sqrt(c2)
        for key, p in params.items():
            g = np.asarray(grads[key], dtype=float)
            m, v = self.moments.setdefault(key, (np.zeros(g.shape), np.zeros(g.shape)))
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * np.square(g)
            np.subtract(p, step_size * m / (np.sqrt(v) + eps_hat), out=p)
