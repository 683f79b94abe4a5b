import numpy as np

HINT = ("Close, but the reset gate acts at the wrong place. In this course's GRU (Cho et al.) "
        "the gate scales the previous state itself, unit by unit, before any weight sees it; "
        "scaling the product W_hh h_prev afterwards is a different function (it is the variant "
        "used by cuDNN and PyTorch).")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    H = h_prev.shape[-1]
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(x_t @ W_h[:, H:].T + r * (h_prev @ W_h[:, :H].T) + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
