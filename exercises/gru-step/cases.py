import numpy as np

from graders.cases import case


def _params(rng, H, D, scale=1.0, bias_scale=0.5):
    """Weights (H, H + D) and biases (H,) for the three blocks z, r, h, in call order."""
    params = {}
    for name in ("z", "r", "h"):
        params[f"W_{name}"] = rng.normal(scale=scale, size=(H, H + D))
        params[f"b_{name}"] = rng.normal(scale=bias_scale, size=H)
    return params


def _inputs(rng, H, D, N=None, scale=1.0, bias_scale=0.5):
    lead = () if N is None else (N,)
    # Uniform values are not exactly representable as short decimals: good for exactness.
    h_prev = rng.uniform(-1.0, 1.0, size=(*lead, H))
    x_t = rng.normal(size=(*lead, D))
    return {"x_t": x_t, "h_prev": h_prev, **_params(rng, H, D, scale, bias_scale)}


@case(public=True, points=1)
def worked_example(rng):
    # The example of the statement: H = 3, D = 2; every weight and bias is the one of the
    # update-gate, reset-gate and candidate-state exercises, so h_t is the "one complete
    # GRU step" of the candidate-state theory.
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
    }


@case(public=True, points=1, batch_axes={"x_t": 0, "h_prev": 0})
def small_batch(rng):
    return _inputs(rng, H=3, D=2, N=2)


@case(points=2)
def unbatched_more_hidden_than_input(rng):
    return _inputs(rng, H=6, D=3)


@case(points=2)
def unbatched_more_input_than_hidden(rng):
    return _inputs(rng, H=2, D=5)


@case(points=2)
def square_sizes(rng):
    # H == D: a swapped concatenation [x, h] has the right shapes and must fail on values.
    return _inputs(rng, H=4, D=4)


@case(points=3, batch_axes={"x_t": 0, "h_prev": 0})
def batch_of_seven(rng):
    return _inputs(rng, H=5, D=3, N=7)


@case(points=2, batch_axes={"x_t": 0, "h_prev": 0})
def batch_of_one(rng):
    return _inputs(rng, H=3, D=4, N=1)


@case(points=1)
def one_hidden_unit(rng):
    return _inputs(rng, H=1, D=1)


@case(points=2, batch_axes={"x_t": 0, "h_prev": 0})
def one_hidden_unit_batched(rng):
    return _inputs(rng, H=1, D=2, N=5)


@case(points=2)
def zero_weights_bias_only(rng):
    # All weights zero: the gates and the candidate come from the biases alone.
    H, D = 4, 3
    inputs = _inputs(rng, H, D, bias_scale=1.5)
    for name in ("W_z", "W_r", "W_h"):
        inputs[name] = np.zeros((H, H + D))
    return inputs


@case(points=2, batch_axes={"x_t": 0, "h_prev": 0})
def reset_gate_matters(rng):
    # Strong recurrent weights in the candidate and a half-open update gate: the reset
    # gate changes the candidate a lot, so an implementation that ignores it fails.
    H, D = 4, 2
    inputs = _inputs(rng, H, D, N=3)
    inputs["W_h"][:, :H] *= 3.0
    inputs["b_z"] = np.full(H, -0.5)
    inputs["b_r"] = np.full(H, -1.0)
    return inputs


@case(points=3, batch_axes={"x_t": 0, "h_prev": 0})
def large_preactivations(rng):
    # Pre-activations of several hundred: exp(-a) overflows in a naive sigmoid and
    # exp(a) / (1 + exp(a)) gives NaN. The gates saturate at exactly 0 or 1.
    inputs = _inputs(rng, H=5, D=4, N=4, scale=200.0, bias_scale=100.0)
    inputs["x_t"] *= 3.0
    return inputs


@case(points=2)
def large_weights_unbatched(rng):
    return _inputs(rng, H=3, D=2, scale=400.0, bias_scale=50.0)


@case(points=2, batch_axes={"x_t": 0, "h_prev": 0})
def largest_sizes(rng):
    # H = D = 16, the largest the constraints allow, on a batch of 12 (a batch as large as H
    # would blur which axis a shape error is about).
    return _inputs(rng, H=16, D=16, N=12, scale=0.25)
