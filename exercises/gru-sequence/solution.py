import numpy as np


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # sigma(a) = exp(-log(1 + exp(-a))): no overflow for any finite a.
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """Run a GRU over xs, (T, D) or (N, T, D), from h0, (H,) or (N, H).

    Returns the states h_1 .. h_T, shape (T, H) or (N, T, H).
    """
    H = h0.shape[-1]
    # The input halves of the three affine maps do not depend on the state: compute them
    # for every step at once; only the recurrent halves stay inside the loop.
    xz = xs @ W_z[:, H:].T + b_z
    xr = xs @ W_r[:, H:].T + b_r
    xh = xs @ W_h[:, H:].T + b_h
    U_z, U_r, U_h = W_z[:, :H].T, W_r[:, :H].T, W_h[:, :H].T

    states = np.empty((*xs.shape[:-1], H), dtype=np.float64)
    h = np.asarray(h0, dtype=np.float64)
    for t in range(xs.shape[-2]):
        z = _sigmoid(h @ U_z + xz[..., t, :])
        r = _sigmoid(h @ U_r + xr[..., t, :])
        h_tilde = np.tanh((r * h) @ U_h + xh[..., t, :])
        h = z * h + (1.0 - z) * h_tilde
        states[..., t, :] = h
    return states
