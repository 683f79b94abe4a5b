"""Overwrites h with u_t * h_{t-1} first, so the candidate reads that product, not h_{t-1}."""

import numpy as np

RIGHT_DIAGNOSES = ("candidate_reads_gated_state",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    h = np.array(h0, dtype=np.float64)
    out = np.empty(x.shape[:-1] + h.shape[-1:])
    for t in range(x.shape[-2]):
        xt = x[..., t, :]
        u = _sigmoid(xt @ W_ux.T + h @ W_uh.T + b_u)
        h = u * h                                   # keep the share u of the old state
        a = np.tanh(xt @ W_ax.T + h @ W_ah.T + b_a)
        h = h + (1 - u) * a                         # and write the rest from the candidate
        out[..., t, :] = h
    return out
