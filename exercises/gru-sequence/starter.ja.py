import numpy as np


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """GRU セルを系列全体に走らせる。

    引数：
        xs：入力 x_1 .. x_T、形状 (T, D) またはバッチで (N, T, D)（バッチが先頭）。
        h0：初期の隠れ状態、形状 (H,) またはバッチで (N, H)。
        W_z, W_r, W_h：更新ゲート、リセットゲート、候補状態の重み。どれも形状
            (H, H + D) で、[h, x]（隠れ状態の部分が先）にかかる。
        b_z, b_r, b_h：それぞれのバイアス、どれも形状 (H,)。

    戻り値：
        状態 h_1 .. h_T（h0 は含めない）の float64 配列、形状 (T, H) または (N, T, H)。
    """
    T = xs.shape[-2]
    H = h0.shape[-1]
    # ここを書く：時刻ごとに GRU を 1 ステップ進め、新しい状態を次のステップに渡す。
    return np.zeros((*h0.shape[:-1], T, H))
