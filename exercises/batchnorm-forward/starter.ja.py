import numpy as np


def batchnorm_forward(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray,
                      running_mean: np.ndarray, running_var: np.ndarray,
                      momentum: float, eps: float
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """バッチ正規化の訓練モードでの順伝播。

    引数：
        x：N 個の例と D 個の特徴量のバッチ、形状 (N, D)。
        gamma, beta：各特徴量のスケールとシフト、形状 (D,)。
        running_mean, running_var：これまでの移動平均、形状 (D,)。その場で書き換えないこと。
        momentum：これまでの移動平均の重み、0 <= momentum < 1。
        eps：平方根の前に分散に足す数。

    戻り値：
        out：形状 (N, D)、gamma * (x - mean) / sqrt(var + eps) + beta。mean と var は
            バッチの各特徴量の平均と偏りのある分散（N で割る）。
        running_mean：momentum * running_mean + (1 - momentum) * mean、形状 (D,)。
        running_var：momentum * running_var + (1 - momentum) * var、形状 (D,)。
    """
    out = np.zeros_like(x)  # ここを書く
    return out, running_mean.copy(), running_var.copy()  # ここを書く
