import numpy as np


def gru_step_backward(x_t: np.ndarray, h_prev: np.ndarray,
                      W_z: np.ndarray, b_z: np.ndarray,
                      W_r: np.ndarray, b_r: np.ndarray,
                      W_h: np.ndarray, b_h: np.ndarray,
                      dh: np.ndarray) -> tuple[np.ndarray, ...]:
    """gru_step が計算する GRU の 1 ステップの勾配。dL/dh_t = dh が与えられる。

    x_t：(D,) または (N, D)；  h_prev：(H,) または (N, H)；  dh：h_prev と同じ形状
    W_z, W_r, W_h：(H, H + D)、[h, x] にかかる；  b_z, b_r, b_h：(H,)

    float64 のタプル (dx_t, dh_prev, dW_z, db_z, dW_r, db_r, dW_h, db_h) を返す。それぞれ、
    勾配をとる引数と同じ形状（パラメータの勾配はバッチの行について和をとる）。
    """
    # ここを書く：順方向のステップをもう一度計算して z、r、r * h_prev と候補状態を残し、
    # h_t = z * h_prev + (1 - z) * candidate からさかのぼる
    return (np.zeros_like(x_t), np.zeros_like(h_prev), np.zeros_like(W_z), np.zeros_like(b_z),
            np.zeros_like(W_r), np.zeros_like(b_r), np.zeros_like(W_h), np.zeros_like(b_h))
