"""The first and second moments of a parameter kept in one array object, so that every update
of one is also an update of the other."""

import numpy as np

HINT = (
    "Your first and second moments are one array: both names refer to the same object, so "
    "each in-place update of m also changes v and the reverse. v then mixes in the gradient "
    "itself, can turn negative and its square root NaN. Give each moment its own zeros array "
    "(two calls to np.zeros_like), or build new arrays instead of updating in place."
)


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
        for key, grad in grads.items():
            if key not in self.m:
                moments = np.zeros_like(params[key])
                self.m[key] = moments  # the mistake: v is the same array
                self.v[key] = moments
            np.multiply(self.m[key], self.beta1, out=self.m[key])
            np.add(self.m[key], (1 - self.beta1) * grad, out=self.m[key])
            np.multiply(self.v[key], self.beta2, out=self.v[key])
            np.add(self.v[key], (1 - self.beta2) * grad * grad, out=self.v[key])
            m_hat = self.m[key] / (1 - self.beta1**self.t)
            v_hat = self.v[key] / (1 - self.beta2**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
