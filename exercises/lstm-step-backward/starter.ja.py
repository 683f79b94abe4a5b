import numpy as np


def lstm_step_backward(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
                       W: np.ndarray, b: np.ndarray,
                       dh: np.ndarray, dc: np.ndarray) -> tuple[np.ndarray, ...]:
    """lstm_step が計算する LSTM の 1 ステップの勾配。dL/dh_t = dh と dL/dc_t = dc
    （後のステップから来るセルの勾配）が与えられる。

    x_t：(D,) または (N, D)；  h_prev, c_prev, dh, dc：(H,) または (N, H)
    W：(4H, H + D)、[h_prev, x_t] にかかり、行のブロックは i, f, g, o；  b：(4H,)

    float64 のタプル (dx_t, dh_prev, dc_prev, dW, db) を返す。それぞれ、勾配をとる引数と
    同じ形状（dW と db はバッチの行について和をとる）。
    """
    # ここを書く：順方向のステップをもう一度計算して i、f、g、o、c_t と tanh(c_t) を残し、
    # h_t = o * tanh(c_t) と c_t = f * c_prev + i * g からさかのぼる
    return (np.zeros_like(x_t), np.zeros_like(h_prev), np.zeros_like(c_prev),
            np.zeros_like(W), np.zeros_like(b))
