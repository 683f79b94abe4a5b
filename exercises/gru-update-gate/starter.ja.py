import numpy as np


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    """GRU の更新ゲート z_t = sigmoid(W_z [h_prev, x_t] + b_z) を返す。

    引数：
        x_t：現在の入力、形状 (D,) またはバッチで (N, D)。
        h_prev：一つ前の隠れ状態、形状 (H,) またはバッチで (N, H)。
        W_z：重み、形状 (H, H + D)。最初の H 列が h_prev にかかる。
        b_z：バイアス、形状 (H,)。

    戻り値：
        [0, 1] のゲートの値の float64 配列、形状 (H,) または (N, H)。
    """
    # ここを書く：h_prev と x_t を連結し、アフィン変換し、安定なシグモイドをとる。
    return np.zeros(np.shape(h_prev))
