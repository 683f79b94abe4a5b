import numpy as np


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """GRU のリセットゲートと、リセットした（ゲートをかけた）一つ前の状態を返す。

    r_t = sigmoid(W_r [h_prev, x_t] + b_r)、リセットした状態は r_t * h_prev。

    引数：
        x_t：現在の入力、形状 (D,) またはバッチで (N, D)。
        h_prev：一つ前の隠れ状態、形状 (H,) またはバッチで (N, H)。
        W_r：重み、形状 (H, H + D)。最初の H 列が h_prev にかかる。
        b_r：バイアス、形状 (H,)。

    戻り値：
        二つの float64 配列のタプル (r_t, reset_state)。どちらも形状 (H,) または (N, H)。
    """
    # ここを書く：安定なシグモイドでゲートを計算し、一つ前の状態にゲートをかける。
    r_t = np.zeros(np.shape(h_prev))
    reset_state = np.zeros(np.shape(h_prev))
    return r_t, reset_state
