"""float32 arithmetic cast back to float64: only ~7 digits right."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic", "float32_naive_sigmoid")


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    h, x = h_prev.astype(np.float32), x_t.astype(np.float32)
    W_z, W_r, W_h = (w.astype(np.float32) for w in (W_z, W_r, W_h))
    b_z, b_r, b_h = (b.astype(np.float32) for b in (b_z, b_r, b_h))
    hx = np.concatenate([h, x], axis=-1)
    with np.errstate(over="ignore"):
        z = 1.0 / (1.0 + np.exp(-(hx @ W_z.T + b_z)))
        r = 1.0 / (1.0 + np.exp(-(hx @ W_r.T + b_r)))
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return (z * h + (1.0 - z) * h_tilde).astype(np.float64)
