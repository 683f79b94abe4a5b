"""Layer norm that centres and scales x in place (x -= mu, x /= std) before applying gamma and beta."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    x -= mu
    var = (x**2).mean(axis=-1, keepdims=True)
    x /= np.sqrt(var + eps)
    return gamma * x + beta


RIGHT_DIAGNOSES = ("changed_input",)
