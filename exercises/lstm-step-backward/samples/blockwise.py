# expect: verdict=passed score=17 diagnosis=none
"""Another correct method: each gate's block of W on its own, the hidden and input columns
apart, the batch summed with einsum instead of a matrix product."""

import numpy as np


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    blocks = [(W[k * H:(k + 1) * H, :H], W[k * H:(k + 1) * H, H:], b[k * H:(k + 1) * H])
              for k in range(4)]
    pre = [h_prev @ U.T + x_t @ V.T + c for U, V, c in blocks]
    i, f, o = (0.5 * (1.0 + np.tanh(0.5 * pre[k])) for k in (0, 1, 3))
    g = np.tanh(pre[2])
    c_t = f * c_prev + i * g
    t = np.tanh(c_t)
    dcell = dc + dh * o * (1.0 - t * t)
    grads = [dcell * g * i * (1.0 - i), dcell * c_prev * f * (1.0 - f),
             dcell * i * (1.0 - g * g), dh * t * o * (1.0 - o)]
    dh_prev = sum(d @ U for d, (U, _, _) in zip(grads, blocks, strict=True))
    dx_t = sum(d @ V for d, (_, V, _) in zip(grads, blocks, strict=True))

    def outer(d, v):
        return np.einsum("ni,nj->ij", d, v) if d.ndim > 1 else np.outer(d, v)

    dW = np.concatenate([np.concatenate([outer(d, h_prev), outer(d, x_t)], axis=1)
                         for d in grads])
    db = np.concatenate([d.sum(axis=0) if d.ndim > 1 else d for d in grads])
    return dx_t, dh_prev, dcell * f, dW, db
