import numpy as np


def top_k_indices(x: np.ndarray, k: int) -> np.ndarray:
    """x の各行の大きいほうから k 個の値のインデックスを返す。

    引数：
        x：値、形状 (M,) または (N, M)。float64 か符号付き整数の dtype。
        k：行ごとのインデックスの数、1 <= k <= M。

    戻り値：
        形状 (k,) または (N, k) の整数配列。各行で最大の値のインデックスが先頭、次に 2 番目に
        大きい値、…。同値はインデックスの小さい順。
    """
    # ここを書く：各行を値の大きい順に並べる（同値はインデックスの小さいほうが先）。
    return np.zeros((*np.shape(x)[:-1], k), dtype=np.int64)
