import numpy as np


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    """ゲート付きユニットを系列全体に走らせる。

    x：(T, D) または (N, T, D) の入力 x_1..x_T
    h0：(H,) または (N, H) の初期状態
    W_ux, W_uh, b_u：更新ゲートのブロック、形状 (H, D)、(H, H)、(H,)
    W_ax, W_ah, b_a：候補値のブロック、形状 (H, D)、(H, H)、(H,)

    float64 の状態 h_1..h_T を返す。形状は (T, H) または (N, T, H)。
    """
    T = x.shape[-2]
    H = h0.shape[-1]
    # ここを書く：各ステップで x_t と h_{t-1} から u_t と a_t を計算し、混ぜて h_t を保存する
    return np.zeros(x.shape[:-2] + (T, H))
