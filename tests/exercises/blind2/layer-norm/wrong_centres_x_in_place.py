"""Centres x in place (x -= mean), which changes the caller's array."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    x -= x.mean(axis=-1, keepdims=True)
    var = (x**2).mean(axis=-1, keepdims=True)
    return gamma * x / np.sqrt(var + eps) + beta


RIGHT_DIAGNOSES = ("changed_input",)
