import numpy as np


def numerical_gradient(f, x, h=1e-5):
    """スカラー関数 f の x での勾配を中心差分で返す。

    引数：
        f：x と同じ形状の配列を 1 つ取り、数を返す関数。
        x：点。形状は任意の配列（整数も可）。
        h：刻み幅。

    戻り値：
        x と同じ形状の float64。要素 i は (f(x + h e_i) - f(x - h e_i)) / (2 h)。e_i は要素 i
        だけが 1 で残りが 0。呼び出しのあとも x は変わらない。
    """
    # ここを書く：x の（float64 の写しの）各要素を +h と -h だけ動かし、両方の点で f を呼び、
    # 次の要素に移る前にその要素を元に戻す。
    return np.zeros(np.shape(x))
