"""Test cases of the GRU reset gate; the entry returns the tuple (r_t, r_t * h_prev).

Every hidden case has fresh weights, a non-zero bias and a non-zero previous state, so that
the wrong concatenation order, the inverted reset (1 - r), a missing bias and a tanh gate
each give different outputs.
"""

import numpy as np

from graders.cases import case

BATCH = {"x_t": 0, "h_prev": 0}

EXAMPLE_W = np.array([[0.2, 0.4, -0.3, 0.1, 0.5],
                      [-0.5, 0.2, 0.1, -0.4, 0.3],
                      [0.3, -0.2, 0.2, 0.6, -0.1]])
EXAMPLE_B = np.array([0.0, 0.2, -0.3])


def random_inputs(rng, H, D, N=None, scale=1.0):
    lead = () if N is None else (N,)
    h_prev = np.tanh(rng.normal(size=(*lead, H)))       # a hidden state lies in (-1, 1)
    return {
        "x_t": rng.normal(size=(*lead, D)),
        "h_prev": h_prev,
        "W_r": scale * rng.normal(size=(H, H + D)) / np.sqrt(H + D),
        "b_r": rng.normal(size=H),
    }


@case(public=True, points=1)
def numerical_example(rng):
    # The worked example of the statement: H = 3, D = 2.
    return {"x_t": np.array([1.0, -0.5]), "h_prev": np.array([0.8, -0.3, 0.5]),
            "W_r": EXAMPLE_W.copy(), "b_r": EXAMPLE_B.copy()}


@case(public=True, points=1, batch_axes=BATCH)
def batch_of_two(rng):
    # The example's weights on a batch of two rows.
    return {"x_t": np.array([[1.0, -0.5], [0.0, 2.0]]),
            "h_prev": np.array([[0.8, -0.3, 0.5], [-0.6, 0.9, 0.1]]),
            "W_r": EXAMPLE_W.copy(), "b_r": EXAMPLE_B.copy()}


@case(points=2)
def unbatched_more_units_than_inputs(rng):
    return random_inputs(rng, H=6, D=2)


@case(points=2)
def unbatched_more_inputs_than_units(rng):
    return random_inputs(rng, H=3, D=8)


@case(points=3, batch_axes=BATCH)
def batched(rng):
    return random_inputs(rng, H=5, D=3, N=7)


@case(points=2)
def single_hidden_unit(rng):
    return random_inputs(rng, H=1, D=4)


@case(points=2, batch_axes=BATCH)
def batch_of_one(rng):
    return random_inputs(rng, H=4, D=4, N=1)


@case(points=3, batch_axes=BATCH)
def wide_layer(rng):
    return random_inputs(rng, H=48, D=24, N=12)


@case(points=3, batch_axes=BATCH)
def large_pre_activations(rng):
    # Pre-activations of several hundred in both directions (exp overflows above 709):
    # the gate saturates to exact 0s and 1s, and must stay finite.
    inputs = random_inputs(rng, H=6, D=3, N=4, scale=300.0)
    inputs["b_r"] = np.array([900.0, -900.0, 0.3, -0.3, 30.0, -30.0])
    return inputs


@case(points=2, batch_axes=BATCH)
def boundary_closes_the_gate(rng):
    # A strongly negative bias: r is near 0 and the candidate would see almost nothing of
    # the old state (a "fresh start"), while a few units stay open.
    inputs = random_inputs(rng, H=5, D=3, N=3)
    inputs["b_r"] = np.array([-6.0, -6.0, -6.0, 2.0, 0.0])
    return inputs


@case(points=1, batch_axes=BATCH)
def one_unit_batch_as_long_as_the_joined_input(rng):
    # H = 1 and N = H + D: a weight matrix written first (W_r @ joined) returns a (1, N) gate
    # here instead of raising, which tells it from a concatenation along the batch axis
    # (which raises on every batch).
    return random_inputs(rng, H=1, D=3, N=4)


@case(points=2, batch_axes=BATCH)
def single_input_feature(rng):
    # D = 1, the smallest input the constraints allow: x_t is (N, 1) and W_r's last column
    # alone acts on it.
    return random_inputs(rng, H=4, D=1, N=3)
