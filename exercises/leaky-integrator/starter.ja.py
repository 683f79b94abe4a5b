import numpy as np


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    """系列の漏れ積分（指数移動平均）。

    s_t = alpha * s_{t-1} + (1 - alpha) * x_t   （t = 1, ..., T、s0 から始める）。

    引数：
        xs：入力 x_1..x_T、形状 (T, D)、または N 本の系列のバッチなら (N, T, D)。
        alpha：[0, 1) の保持率。float、または s0 の形状にブロードキャストできる配列
            （たとえば次元ごとに時定数を一つずつ持つなら (D,)）。
        s0：初期状態、形状 (D,)、またはバッチなら (N, D)。

    戻り値：
        states：xs と同じ形状の float64 配列で、s_1..s_T を持つ（s0 は含めない）。
        window：実効的な記憶の幅 1 / (1 - alpha)。alpha が float なら float、そうでなければ
            alpha と同じ形状の float64 配列。
    """
    states = np.zeros(np.shape(xs))  # ここを書く：時間の軸に沿って漸化式を回す
    window = 0.0 if np.ndim(alpha) == 0 else np.zeros(np.shape(alpha))  # ここを書く
    return states, window
