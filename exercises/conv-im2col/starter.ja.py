import numpy as np


def conv_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, pad: int
                 ) -> np.ndarray:
    """2 次元畳み込み層の順伝播を、im2col と一回の行列積で計算する。

    引数：
        x：入力画像、形状 (N, C, H, W)。
        w：フィルタ、形状 (F, C, HH, WW)。
        b：フィルタごとのバイアス、形状 (F,)。
        stride：二つの窓の間隔、縦横とも同じ（1 以上の int）。
        pad：各画像の四辺に足すゼロの行と列の数（0 以上）。

    戻り値：
        out：形状 (N, F, H_out, W_out) の float64 配列。
            H_out = 1 + (H + 2 * pad - HH) // stride、W_out = 1 + (W + 2 * pad - WW) // stride。
    """
    N, F = x.shape[0], w.shape[0]
    H_out = 1 + (x.shape[2] + 2 * pad - w.shape[2]) // stride
    W_out = 1 + (x.shape[3] + 2 * pad - w.shape[3]) // stride
    return np.zeros((N, F, H_out, W_out))  # ここを書く：im2col、次に一回の行列積
