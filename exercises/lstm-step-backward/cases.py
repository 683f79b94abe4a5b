import numpy as np

from graders.cases import case

# Gradients are sums over the rows of a batch and over the H + D columns of W: a correct
# solution that sums in another order differs from the reference by rounding; rtol=1e-6
# leaves room for that, while every conceptual mistake is off by far more.
RTOL = 1e-6
# Where the gradients are of order one (every case but the wide and the saturated ones), the
# correct alternatives agree with the reference to 1e-13; central differences, even per gate
# block at their best step (about 6e-6), are off by 1e-10 or more: these cases ask for that.
EXACT = {"rtol": 1e-11, "atol": 1e-12}
BATCH = {"x_t": 0, "h_prev": 0, "c_prev": 0, "dh": 0, "dc": 0}


def _inputs(rng, H, D, N=None, scale=1.0, bias_scale=0.5):
    lead = () if N is None else (N,)
    return {
        "x_t": rng.normal(size=(*lead, D)),
        "h_prev": rng.uniform(-1.0, 1.0, size=(*lead, H)),
        # The cell state is not squashed: it can leave (-1, 1), so tanh(c) matters.
        "c_prev": rng.normal(scale=1.5, size=(*lead, H)),
        "W": rng.normal(scale=scale, size=(4 * H, H + D)),
        "b": rng.normal(scale=bias_scale, size=4 * H),
        "dh": rng.normal(size=(*lead, H)),
        "dc": rng.normal(size=(*lead, H)),
    }


@case(public=True, points=1, **EXACT)
def worked_example(rng):
    # lstm-step's worked example (H = 2, D = 1, row blocks i, f, g, o, forget bias 1), with
    # upstream gradients of its own
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
        "dh": np.array([1.0, -0.5]),
        "dc": np.array([0.5, 0.25]),
    }


@case(public=True, points=1, **EXACT, batch_axes=BATCH)
def small_batch(rng):
    return _inputs(rng, H=2, D=3, N=2)


@case(points=3, rtol=RTOL, time_s=1)
def wide_layer(rng):
    # 128 units, 64 inputs, 32 rows: 98816 parameters, so central differences need about
    # 200000 forward steps (far more than the limit) where the exact gradients take a few
    # milliseconds. The first hidden case: code stopped at its limit runs none of the others.
    # (Not batch-checked: 32 single-row calls would each return the whole dW.)
    return _inputs(rng, H=128, D=64, N=32, scale=0.1, bias_scale=0.3)


@case(points=2, **EXACT)
def unbatched_more_hidden_than_input(rng):
    return _inputs(rng, H=5, D=2)


@case(points=2, **EXACT)
def unbatched_more_input_than_hidden(rng):
    return _inputs(rng, H=2, D=6)


@case(points=2, **EXACT, batch_axes=BATCH)
def batch_of_six(rng):
    return _inputs(rng, H=4, D=3, N=6)


@case(points=1, **EXACT, batch_axes=BATCH)
def batch_of_one(rng):
    return _inputs(rng, H=3, D=2, N=1)


@case(points=1, **EXACT)
def one_hidden_unit(rng):
    return _inputs(rng, H=1, D=1)


@case(points=2, **EXACT, batch_axes=BATCH)
def no_gradient_from_later_steps(rng):
    # the last step of a sequence: dc = 0, so everything reaches the cell through h_t
    p = _inputs(rng, H=3, D=2, N=3)
    p["dc"] = np.zeros_like(p["dc"])
    return p


@case(points=2, rtol=RTOL, batch_axes=BATCH)
def saturated_gates(rng):
    # gate pre-activations in the hundreds: exp(a) / (1 + exp(a)) gives NaN here
    p = _inputs(rng, H=3, D=2, N=4)
    p["W"] = 200.0 * p["W"]
    return p
