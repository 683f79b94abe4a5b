class Adam:
    def __init__(self, lr=0.001, beta1=0.9, beta2=0.999, eps=1e-8):
        self.t = 0  # the number of steps taken

    def step(self, params, grads):
        """params and grads: dicts of arrays with the same keys. Update the arrays of params
        in place; return nothing."""
