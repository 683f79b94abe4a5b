"""Drops eps and guards zero variance by dividing by 1 instead, so every non-constant row misses the eps."""
import numpy as np


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(axis=-1, keepdims=True)
    std = np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True))
    std = np.where(std == 0, 1.0, std)
    return gamma * (x - mu) / std + beta


RIGHT_DIAGNOSES = ("eps_replaced_by_a_guard",)
