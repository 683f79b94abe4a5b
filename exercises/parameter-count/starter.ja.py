def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    """再帰層一つの学習可能なパラメータの数に、あれば読み出し層の分を加えたもの。

    引数：
        kind："plain"、"gated"、"gru" または "lstm"。
        input_size：D、各入力ベクトル x_t の長さ。
        hidden_size：H、隠れ状態 h_t の長さ。
        output_size：O、最後の隠れ状態にかける全結合の読み出し層の出力の数。
            0 なら読み出し層はない。

    戻り値：
        重みとバイアスの総数、Python の int で。
    """
    # ここを書く：ユニットのアフィン変換のブロックと、その重みとバイアスを数える。
    return 0
