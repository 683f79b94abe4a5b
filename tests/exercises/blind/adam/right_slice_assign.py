"""Correct: settings in a tuple, moments as lists of arrays per key, params written back with p[...] = ."""

import numpy as np


class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.settings = (lr, beta1, beta2, eps)
        self.t = 0
        self.state = {}

    def step(self, params, grads):
        lr, b1, b2, eps = self.settings
        self.t = self.t + 1
        for key, p in params.items():
            g = grads[key]
            if key not in self.state:
                self.state[key] = [np.zeros(np.shape(g)), np.zeros(np.shape(g))]
            s = self.state[key]
            s[0] = b1 * s[0] + (1 - b1) * g
            s[1] = b2 * s[1] + (1 - b2) * g * g
            m_hat = s[0] / (1 - b1**self.t)
            v_hat = s[1] / (1 - b2**self.t)
            p[...] = p - lr * m_hat / (np.sqrt(v_hat) + eps)
