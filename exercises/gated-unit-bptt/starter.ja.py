import numpy as np


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    """L = 1/2 * （すべてのステップ（と行）についての (h_t - y_t)**2 の和）の勾配。

    x：(T, D) または (N, T, D) の入力；  h0：(H,) または (N, H) の初期状態
    W_ux, W_uh, b_u：更新ゲートのブロック、形状 (H, D)、(H, H)、(H,)
    W_ax, W_ah, b_a：候補値のブロック、形状 (H, D)、(H, H)、(H,)
    y：(T, H) または (N, T, H)、状態 h_1..h_T の目標値

    float64 のタプル (dh0, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a) を返す。それぞれ、
    勾配をとる引数と同じ形状。
    """
    # ここを書く：u_t、a_t、h_{t-1} を残しながら順伝播し、t = T からさかのぼる
    return (np.zeros_like(h0), np.zeros_like(W_ux), np.zeros_like(W_uh), np.zeros_like(b_u),
            np.zeros_like(W_ax), np.zeros_like(W_ah), np.zeros_like(b_a))
