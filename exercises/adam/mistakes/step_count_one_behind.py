"""The bias correction computed with the step count before it is incremented (at least 1)."""

import numpy as np

HINT = (
    "Your first step is right but the later ones are not: the bias corrections use a step "
    "count one behind (1 on the first two steps, then t - 1). Count the step first, so that "
    "step t (counting from 1) corrects with 1 - beta1**t and 1 - beta2**t."
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
        t = max(self.t, 1)
        for key, grad in grads.items():
            self.m[key] = self.beta1 * self.m.get(key, 0.0) + (1 - self.beta1) * grad
            self.v[key] = self.beta2 * self.v.get(key, 0.0) + (1 - self.beta2) * grad**2
            m_hat = self.m[key] / (1 - self.beta1**t)
            v_hat = self.v[key] / (1 - self.beta2**t)
            params[key] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)
        self.t += 1
