import numpy as np


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LSTM セルの 1 ステップ。

    引数：
        x_t：現在の入力、形状 (D,) または (N, D)。
        h_prev：一つ前の隠れ状態、形状 (H,) または (N, H)。
        c_prev：一つ前のセル状態、形状 (H,) または (N, H)。
        W：積み重ねた重み、形状 (4H, H + D)。[h_prev, x_t]（隠れ状態の部分が先）にかかる。
            H 行ずつの行のブロック：入力ゲート i、忘却ゲート f、候補 g、出力ゲート o。
        b：積み重ねたバイアス、形状 (4H,)、ブロックの順は同じ。

    戻り値：
        タプル (h_t, c_t)。どちらも float64 で、h_prev と同じ形状。
    """
    # ここを書く：四つのブロックすべてに一回のアフィン変換をかけて切り分け、活性化関数を
    # 適用し、セル状態を更新し、そこから新しい隠れ状態を計算する。
    h_t = np.zeros_like(h_prev, dtype=np.float64)
    c_t = np.zeros_like(c_prev, dtype=np.float64)
    return h_t, c_t
