import numpy as np


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """GRU セルの 1 ステップ。

    引数：
        x_t：現在の入力、形状 (D,) または (N, D)。
        h_prev：一つ前の隠れ状態、形状 (H,) または (N, H)。
        W_z, W_r, W_h：更新ゲート、リセットゲート、候補状態の重み。どれも形状
            (H, H + D) で、[h, x]（隠れ状態の部分が先）にかかる。
        b_z, b_r, b_h：それぞれのバイアス、どれも形状 (H,)。

    戻り値：
        新しい隠れ状態 h_t、float64、h_prev と同じ形状。
    """
    # ここを書く：更新ゲート z、リセットゲート r、候補状態 h_tilde（その中で h_prev に
    # リセットをかける）、そして旧状態と候補状態を混ぜる。
    return np.zeros_like(h_prev, dtype=np.float64)
