import numpy as np


def orthonormal_basis(a: np.ndarray) -> np.ndarray:
    """a の列空間の正規直交基底を返す。

    引数：
        a：形状 (m, n)、階数 r の float64 行列（r は min(m, n) より小さくても、0 でもよい）。

    戻り値：
        q：形状 (m, r) の float64。列は長さ 1 で互いに直交し、a の列と同じ空間を張る。
        そのような基底ならどれでも受け付ける。
    """
    # ここを書く：階数と基底を求める（たとえば np.linalg.svd から）。
    return np.zeros((np.shape(a)[0], 0))
