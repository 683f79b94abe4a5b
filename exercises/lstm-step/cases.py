import numpy as np

from graders.cases import case

BATCH = {"x_t": 0, "h_prev": 0, "c_prev": 0}


def _inputs(rng, H, D, N=None, scale=1.0, bias_scale=0.5, cell_scale=1.0):
    lead = () if N is None else (N,)
    return {
        "x_t": rng.normal(size=(*lead, D)),
        "h_prev": rng.uniform(-1.0, 1.0, size=(*lead, H)),
        # The cell state is not squashed: it can leave (-1, 1), so tanh(c) matters.
        "c_prev": cell_scale * rng.normal(scale=1.5, size=(*lead, H)),
        "W": rng.normal(scale=scale, size=(4 * H, H + D)),
        "b": rng.normal(scale=bias_scale, size=4 * H),
    }


@case(public=True, points=1)
def worked_example(rng):
    # The example of the statement: H = 2, D = 1; row blocks i, f, g, o; forget bias 1.
    return {
        "x_t": np.array([1.0]),
        "h_prev": np.array([0.2, -0.4]),
        "c_prev": np.array([0.5, -1.0]),
        "W": np.array([[0.4, -0.2, 0.5],
                       [0.1, 0.3, -0.6],
                       [0.2, 0.1, 0.8],
                       [-0.3, 0.5, 0.2],
                       [0.6, -0.5, 0.9],
                       [0.3, 0.2, -0.7],
                       [-0.1, 0.4, 0.3],
                       [0.5, -0.2, 0.6]]),
        "b": np.array([0.0, 0.1, 1.0, 1.0, 0.0, -0.1, 0.2, 0.0]),
    }


@case(public=True, points=1, batch_axes=BATCH)
def small_batch(rng):
    return _inputs(rng, H=2, D=3, N=2)


@case(points=2)
def unbatched_more_hidden_than_input(rng):
    return _inputs(rng, H=5, D=2)


@case(points=2)
def unbatched_more_input_than_hidden(rng):
    return _inputs(rng, H=2, D=6)


@case(points=2)
def square_sizes(rng):
    # H == D: a swapped concatenation [x, h] has the right shapes and must fail on values.
    return _inputs(rng, H=3, D=3)


@case(points=3, batch_axes=BATCH)
def batch_of_six(rng):
    return _inputs(rng, H=4, D=3, N=6)


@case(points=2, batch_axes=BATCH)
def batch_of_one(rng):
    return _inputs(rng, H=3, D=2, N=1)


@case(points=1)
def one_hidden_unit(rng):
    return _inputs(rng, H=1, D=1)


@case(points=2, batch_axes=BATCH)
def one_hidden_unit_batched(rng):
    # H = 1: the four blocks are single rows of W.
    return _inputs(rng, H=1, D=3, N=4)


@case(points=2, batch_axes=BATCH)
def large_cell_state(rng):
    # A cell state of tens: it is the memory, and only tanh(c) keeps h_t in (-1, 1).
    return _inputs(rng, H=3, D=2, N=3, cell_scale=20.0)


@case(points=2)
def zero_weights_bias_only(rng):
    # All weights zero: every gate and the candidate come from the bias alone.
    H, D = 3, 2
    inputs = _inputs(rng, H, D, bias_scale=1.5)
    inputs["W"] = np.zeros((4 * H, H + D))
    return inputs


@case(points=3, batch_axes=BATCH)
def large_preactivations(rng):
    # Pre-activations of several hundred: a naive sigmoid overflows and
    # exp(a) / (1 + exp(a)) gives NaN. Gates saturate at exactly 0 or 1.
    return _inputs(rng, H=4, D=3, N=3, scale=200.0, bias_scale=100.0)


@case(points=2)
def large_weights_unbatched(rng):
    return _inputs(rng, H=2, D=2, scale=400.0, bias_scale=50.0)


@case(points=2, batch_axes=BATCH)
def candidate_beyond_exp_overflow(rng):
    # Pre-activations beyond 709, where exp overflows in float64: a tanh written with
    # exponentials divides inf by inf, while np.tanh saturates at exactly -1 or 1.
    return _inputs(rng, H=3, D=2, N=2, scale=800.0, bias_scale=400.0)


@case(points=2, batch_axes=BATCH)
def largest_sizes(rng):
    # H = D = 16, the largest the constraints allow (W is (64, 32)), on a batch of 12 (a
    # batch as large as H would blur which axis a shape error is about).
    return _inputs(rng, H=16, D=16, N=12, scale=0.25)
