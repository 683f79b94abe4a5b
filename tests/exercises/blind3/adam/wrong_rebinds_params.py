"""Adam that puts a new array into the dict (params[key] = params[key] - ...) instead of updating in place."""
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
        for key in params:
            g = grads[key]
            m = self.m.get(key, 0.0)
            v = self.v.get(key, 0.0)
            m = self.beta1 * m + (1 - self.beta1) * g
            v = self.beta2 * v + (1 - self.beta2) * g**2
            self.m[key] = m
            self.v[key] = v
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            params[key] = params[key] - self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


RIGHT_DIAGNOSES = ("new_arrays_in_the_dict",)
