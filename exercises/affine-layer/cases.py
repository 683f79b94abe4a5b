import numpy as np

from graders.scenarios import call, keep, ref, scenario


def forward_backward(x, w, b, dout):
    return [
        call("affine_forward", x=x, w=w, b=b, returns=("out", keep("cache"))),
        call("affine_backward", dout=dout, cache=ref("cache"), returns=("dx", "dw", "db")),
    ]


def random_layer(rng, n, d, m):
    x, w, b = rng.normal(size=(n, d)), rng.normal(size=(d, m)), rng.normal(size=m)
    return forward_backward(x, w, b, rng.normal(size=(n, m)))


@scenario(public=True)
def two_examples(rng):
    x = np.array([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
    w = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]])
    b = np.array([0.5, -0.5])
    dout = np.array([[1.0, 0.0], [0.0, 2.0]])
    return forward_backward(x, w, b, dout)


@scenario(public=True)
def four_examples(rng):
    return random_layer(rng, 4, 5, 3)


@scenario(points=3)
def large_layer(rng):
    # 256 examples, 512 inputs, 256 outputs: finite differences need two forward passes per
    # entry of x, w and b (262400 entries of 34 MFLOP each), far beyond the submission's limit,
    # where the formulas take milliseconds. The first hidden scenario.
    return random_layer(rng, 256, 512, 256)


@scenario(points=2)
def one_example(rng):
    return random_layer(rng, 1, 6, 2)


@scenario(points=2)
def wide_batch(rng):
    return random_layer(rng, 7, 3, 4)


@scenario(points=2)
def square_weights(rng):
    # D = M: a transposed weight matrix has the right shape, only its values tell.
    return random_layer(rng, 5, 4, 4)


@scenario(points=3)
def two_layers_backward_in_reverse(rng):
    # Each cache belongs to its own call: one kept in a global is overwritten by the second.
    x, w1, w2 = rng.normal(size=(3, 4)), rng.normal(size=(4, 5)), rng.normal(size=(5, 2))
    b1, b2 = rng.normal(size=5), rng.normal(size=2)
    return [
        call("affine_forward", x=x, w=w1, b=b1, returns=("hidden", keep("first"))),
        call("affine_forward", x=x @ w1 + b1, w=w2, b=b2, returns=("out", keep("second"))),
        call(
            "affine_backward",
            dout=rng.normal(size=(3, 2)),
            cache=ref("second"),
            returns=("dhidden", "dw2", "db2"),
        ),
        call(
            "affine_backward",
            dout=rng.normal(size=(3, 5)),
            cache=ref("first"),
            returns=("dx", "dw1", "db1"),
        ),
    ]


@scenario(points=2)
def one_input_one_output(rng):
    # D = M = 1: w is (1, 1) and b (1,); a sum without its axis gives db the shape () and a
    # squeeze drops an axis the gradients must keep.
    return random_layer(rng, 5, 1, 1)
