"""Mixes with the roles of z swapped: h_t = z * h_tilde + (1 - z) * h_{t-1}."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_update_gate",)


def sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    T = xs.shape[-2]
    hs = np.empty((*h0.shape[:-1], T, h0.shape[-1]))
    h = h0.copy()
    for t in range(T):
        joined = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = sig(joined @ W_z.T + b_z)
        r = sig(joined @ W_r.T + b_r)
        h_cand = np.tanh(np.concatenate([r * h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h = z * h_cand + (1 - z) * h
        hs[..., t, :] = h
    return hs
