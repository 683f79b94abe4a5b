"""Right: stacks W_z and W_r into one (2H, H + D) matrix, one product for both gates, then splits."""
import numpy as np


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    H = h_prev.shape[-1]
    gates = np.vstack([W_z, W_r])
    q = np.concatenate([h_prev, x_t], axis=-1) @ gates.T + np.concatenate([b_z, b_r])
    zr = np.exp(-np.logaddexp(0.0, -q))
    z, r = zr[..., :H], zr[..., H:]
    cand = np.tanh((r * h_prev) @ W_h[:, :H].T + x_t @ W_h[:, H:].T + b_h)
    return h_prev + (1.0 - z) * (cand - h_prev)
