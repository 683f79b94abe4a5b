"""beta2 used for the first moment and beta1 for the second, in the averages and their
corrections."""

import numpy as np

HINT = (
    "Your updates use each decay rate for the other moment: the first moment (the mean of "
    "the gradients) decays with beta1 and the second (the mean of their squares) with "
    "beta2, in the averages and in the bias corrections alike."
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
            self.m[key] = self.beta2 * self.m.get(key, 0.0) + (1 - self.beta2) * grad
            self.v[key] = self.beta1 * self.v.get(key, 0.0) + (1 - self.beta1) * grad**2
            m_hat = self.m[key] / (1 - self.beta2**self.t)
            v_hat = self.v[key] / (1 - self.beta1**self.t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
