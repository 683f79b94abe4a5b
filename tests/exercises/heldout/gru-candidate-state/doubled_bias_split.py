"""With split weights, adds b_h to both the hidden and the input product: bias twice."""

import numpy as np

RIGHT_DIAGNOSES = ("double_term",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    from_hidden = (r_t * h_prev) @ W_h[:, :H].T + b_h
    from_input = x_t @ W_h[:, H:].T + b_h
    return np.tanh(from_hidden + from_input)
