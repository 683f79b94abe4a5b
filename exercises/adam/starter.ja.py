class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.t = 0  # これまでに進めたステップ数

    def step(self, params, grads):
        """params と grads：同じキーを持つ配列の辞書。params の配列をその場で更新し、何も
        返さないこと。"""
