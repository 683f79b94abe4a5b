import numpy as np


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """GRU の候補状態 tanh(W_h [r_t * h_prev, x_t] + b_h) を返す。

    引数：
        x_t：現在の入力、形状 (D,) またはバッチで (N, D)。
        h_prev：一つ前の隠れ状態、形状 (H,) またはバッチで (N, H)。
        r_t：[0, 1] のリセットゲートの値、h_prev と同じ形状。
        W_h：重み、形状 (H, H + D)。最初の H 列がリセットした状態にかかる。
        b_h：バイアス、形状 (H,)。

    戻り値：
        [-1, 1] の候補状態の値の float64 配列、形状 (H,) または (N, H)。
    """
    # ここを書く：一つ前の状態にゲートをかけ、入力と連結し、アフィン変換して tanh をとる。
    return np.zeros(np.shape(h_prev))
