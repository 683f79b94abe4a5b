"""Mistake: casts everything to float32 "for speed", losing precision and returning float32."""
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float32)
    q = joined @ W_z.astype(np.float32).T + b_z.astype(np.float32)
    return (1.0 / (1.0 + np.exp(-q))).astype(np.float32)


RIGHT_DIAGNOSES = ("float32_arithmetic",)
