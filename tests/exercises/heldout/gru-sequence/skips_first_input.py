"""Loops over range(1, T), skipping x_1 and returning only T - 1 states."""

import numpy as np

RIGHT_DIAGNOSES = ("skips_first_input", "skips_first_input_array_of_list")


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    T = xs.shape[-2]
    h = np.array(h0, dtype=np.float64)
    out = []
    for t in range(1, T):
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h = z * h + (1 - z) * h_tilde
        out.append(h)
    result = np.array(out)
    # batch-first: the steps were gathered along axis 0, the batch goes in front
    return result if result.ndim < 3 else result.swapaxes(0, 1)
