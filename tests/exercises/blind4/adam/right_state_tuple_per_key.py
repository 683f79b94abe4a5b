"""Right: one (m, v) tuple per key in a dict made in __init__, with the update written via np.subtract(out=)."""
import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.settings = (lr, beta1, beta2, eps)
        self.t = 0
        self.state = {}

    def step(self, params, grads):
        lr, b1, b2, eps = self.settings
        self.t += 1
        for key, p in params.items():
            g = np.asarray(grads[key])
            m, v = self.state.get(key, (np.zeros_like(p), np.zeros_like(p)))
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * np.square(g)
            self.state[key] = (m, v)
            step = lr * (m / (1 - b1**self.t)) / (np.sqrt(v / (1 - b2**self.t)) + eps)
            np.subtract(p, step, out=p)
