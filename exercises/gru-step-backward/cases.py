import numpy as np

from graders.cases import case

# The gradients are sums over the rows of a batch and over the H + D columns of each affine
# map: a correct solution that sums in another order differs from the reference by rounding.
# rtol=1e-6 leaves room for that; every conceptual mistake is off by far more.
RTOL = 1e-6
# Where the gradients are of order one (every case but the wide and the saturated ones), the
# correct alternatives agree with the reference to 1e-13; central differences, even per bias
# entry at their best step (about 6e-6), are off by 1e-9 or more: these cases ask for that.
EXACT = {"rtol": 1e-11, "atol": 1e-12}
BATCHED = {"x_t": 0, "h_prev": 0, "dh": 0}


def _params(rng, H, D, scale=1.0, bias_scale=0.5):
    """Weights (H, H + D) and biases (H,) for the three blocks z, r, h, in call order."""
    params = {}
    for name in ("z", "r", "h"):
        params[f"W_{name}"] = rng.normal(scale=scale, size=(H, H + D))
        params[f"b_{name}"] = rng.normal(scale=bias_scale, size=H)
    return params


def _inputs(rng, H, D, N=None, scale=1.0, bias_scale=0.5):
    lead = () if N is None else (N,)
    h_prev = rng.uniform(-1.0, 1.0, size=(*lead, H))
    x_t = rng.normal(size=(*lead, D))
    params = _params(rng, H, D, scale, bias_scale)
    return {"x_t": x_t, "h_prev": h_prev, **params, "dh": rng.normal(size=(*lead, H))}


@case(public=True, points=1, **EXACT)
def worked_example(rng):
    # gru-step's worked example (the weights of the update-gate, reset-gate and
    # candidate-state exercises), with an upstream gradient of its own
    return {
        "x_t": np.array([1.0, -0.5]),
        "h_prev": np.array([0.8, -0.3, 0.5]),
        "W_z": np.array([[0.3, -0.1, 0.4, 0.2, -0.3],
                         [0.1, 0.5, -0.2, 0.3, 0.1],
                         [-0.2, 0.3, 0.6, -0.1, 0.4]]),
        "b_z": np.array([0.1, -0.1, 0.0]),
        "W_r": np.array([[0.2, 0.4, -0.3, 0.1, 0.5],
                         [-0.5, 0.2, 0.1, -0.4, 0.3],
                         [0.3, -0.2, 0.2, 0.6, -0.1]]),
        "b_r": np.array([0.0, 0.2, -0.3]),
        "W_h": np.array([[0.4, -0.2, 0.1, 0.3, 0.2],
                         [0.1, 0.6, -0.3, -0.2, 0.5],
                         [-0.3, 0.2, 0.5, 0.4, -0.6]]),
        "b_h": np.array([0.05, -0.1, 0.2]),
        "dh": np.array([1.0, -0.5, 0.25]),
    }


@case(public=True, points=1, **EXACT, batch_axes=BATCHED)
def small_batch(rng):
    return _inputs(rng, H=3, D=2, N=2)


@case(points=3, rtol=RTOL, time_s=1)
def wide_layer(rng):
    # 128 units, 64 inputs, 32 rows: 74112 parameters, so central differences need about
    # 150000 forward steps (far more than the limit) where the exact gradients take a few
    # milliseconds. The first hidden case: code stopped at its limit runs none of the others.
    # (Not batch-checked: 32 single-row calls would each return every weight's gradient.)
    return _inputs(rng, H=128, D=64, N=32, scale=0.1, bias_scale=0.3)


@case(points=2, **EXACT)
def unbatched_more_hidden_than_input(rng):
    return _inputs(rng, H=6, D=3)


@case(points=2, **EXACT)
def unbatched_more_input_than_hidden(rng):
    return _inputs(rng, H=2, D=5)


@case(points=2, **EXACT, batch_axes=BATCHED)
def batch_of_five(rng):
    return _inputs(rng, H=4, D=3, N=5)


@case(points=1, **EXACT)
def single_unit(rng):
    return _inputs(rng, H=1, D=2)


@case(points=1, **EXACT, batch_axes=BATCHED)
def batch_of_one(rng):
    return _inputs(rng, H=3, D=4, N=1)


@case(points=2, rtol=RTOL, batch_axes=BATCHED)
def saturated_gates(rng):
    # gate pre-activations in the hundreds: exp(a) / (1 + exp(a)) gives NaN, a sigmoid
    # clipped to a narrow range a gradient that is not zero where the gate is saturated
    p = _inputs(rng, H=3, D=2, N=4, scale=1.0)
    p["W_z"] = 200.0 * p["W_z"]
    p["W_r"] = 200.0 * p["W_r"]
    return p


@case(points=2, **EXACT, batch_axes=BATCHED)
def gates_in_their_middle(rng):
    # small weights: every gate near 0.5, where a missing factor of z or r changes every entry
    return _inputs(rng, H=5, D=2, N=3, scale=0.3)


@case(points=1, **EXACT, batch_axes=BATCHED)
def one_input_feature(rng):
    # D = 1: x_t has one number per row, so dx_t is (N, 1) and the weights' last column alone
    # reads the input.
    return _inputs(rng, H=4, D=1, N=3)
