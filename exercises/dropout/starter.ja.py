import numpy as np


def dropout(x: np.ndarray, p: float, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray]:
    """訓練モードでの逆ドロップアウト。

    引数：
        x：活性値、任意の形状の float64 配列。
        p：要素を落とす確率、0 <= p < 1。
        rng：乱数を引く生成器。rng.random(x.shape) をちょうど一回呼ぶこと。

    戻り値：
        out：x の形状の float64 配列。残した要素は 1 - p で割り、それ以外は 0。
        mask：x の形状の bool 配列。要素を残すところ（引いた値が p 以上）で True。
    """
    mask = np.ones(x.shape, dtype=bool)  # ここを書く：rng からマスクを引く
    out = x.copy()  # ここを書く：落として倍率をかけ直す
    return out, mask
