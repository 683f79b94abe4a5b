import numpy as np

from graders.cases import case

BATCHED = {"x": 0, "h": 0}


def _inputs(rng, H, D, N=None, scale=1.0, bias_scale=0.5):
    lead = () if N is None else (N,)
    return {
        "x": rng.normal(size=(*lead, D)),
        "h": rng.uniform(-1.0, 1.0, size=(*lead, H)),
        "weight_ih": rng.normal(scale=scale, size=(3 * H, D)),
        "weight_hh": rng.normal(scale=scale, size=(3 * H, H)),
        "bias_ih": rng.normal(scale=bias_scale, size=3 * H),
        "bias_hh": rng.normal(scale=bias_scale, size=3 * H),
    }


@case(public=True, points=1)
def worked_example(rng):
    # H = 2, D = 1: each block is two rows; only bias_hh's new-gate block is not zero, so that
    # where it sits (inside the reset product or outside) changes the result
    return {
        "x": np.array([1.0]),
        "h": np.array([0.5, -0.5]),
        "weight_ih": np.array([[0.5], [-0.5], [1.0], [0.0], [0.8], [-0.6]]),
        "weight_hh": np.array([[0.2, 0.1], [0.0, 0.3],
                               [-0.4, 0.2], [0.1, 0.5],
                               [0.6, -0.3], [0.2, 0.4]]),
        "bias_ih": np.zeros(6),
        "bias_hh": np.array([0.0, 0.0, 0.0, 0.0, 0.5, -0.5]),
    }


@case(public=True, points=1, batch_axes=BATCHED)
def small_batch(rng):
    return _inputs(rng, H=3, D=2, N=2)


@case(points=2)
def unbatched_more_hidden_than_input(rng):
    return _inputs(rng, H=5, D=2)


@case(points=2)
def unbatched_more_input_than_hidden(rng):
    return _inputs(rng, H=2, D=6)


@case(points=2, batch_axes=BATCHED)
def square_sizes(rng):
    # H == D: weight_ih and weight_hh have the same shape, so exchanging them raises nothing
    return _inputs(rng, H=3, D=3, N=4)


@case(points=2, batch_axes=BATCHED)
def batch_of_six(rng):
    return _inputs(rng, H=4, D=3, N=6)


@case(points=1, batch_axes=BATCHED)
def batch_of_one(rng):
    return _inputs(rng, H=3, D=2, N=1)


@case(points=1)
def one_hidden_unit(rng):
    return _inputs(rng, H=1, D=2)


@case(points=2, batch_axes=BATCHED)
def large_hidden_biases(rng):
    # bias_hh's new-gate block large: inside the reset product or outside makes a difference
    # far beyond the tolerance
    p = _inputs(rng, H=3, D=2, N=3)
    p["bias_hh"] = 3.0 * p["bias_hh"]
    return p


@case(points=2, batch_axes=BATCHED)
def saturated_gates(rng):
    # gate pre-activations in the hundreds: exp(a) / (1 + exp(a)) gives NaN here
    p = _inputs(rng, H=3, D=2, N=4)
    p["weight_ih"][:6] *= 200.0
    return p


@case(points=1, batch_axes=BATCHED)
def one_input_feature(rng):
    # D = 1: weight_ih is a single column (3H, 1), and x one number per row.
    return _inputs(rng, H=3, D=1, N=2)


@case(points=2, batch_axes=BATCHED)
def largest_sizes(rng):
    # H = D = 16, the largest the constraints allow (weight_hh is (48, 16)), on a batch of 12
    # (a batch as large as H would blur which axis a shape error is about).
    return _inputs(rng, H=16, D=16, N=12, scale=0.25)
