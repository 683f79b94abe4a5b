"""Test cases of the GRU update gate.

Every hidden case draws fresh weights and a non-zero bias, so that the classic mistakes
(wrong concatenation order, 1 - z, a scalar gate, a missing bias, float32 arithmetic,
an overflowing sigmoid) each produce a visibly different output somewhere.
"""

import numpy as np

from graders.cases import case

BATCH = {"x_t": 0, "h_prev": 0}


def random_inputs(rng, H, D, N=None, scale=1.0):
    lead = () if N is None else (N,)
    h_prev = np.tanh(rng.normal(size=(*lead, H)))      # a hidden state lies in (-1, 1)
    return {
        "x_t": rng.normal(size=(*lead, D)),
        "h_prev": h_prev,
        "W_z": scale * rng.normal(size=(H, H + D)) / np.sqrt(H + D),
        "b_z": rng.normal(size=H),
    }


@case(public=True, points=1)
def numerical_example(rng):
    # The worked example of the statement: H = 3, D = 2.
    return {
        "x_t": np.array([1.0, -0.5]),
        "h_prev": np.array([0.8, -0.3, 0.5]),
        "W_z": np.array([[0.3, -0.1, 0.4, 0.2, -0.3],
                         [0.1, 0.5, -0.2, 0.3, 0.1],
                         [-0.2, 0.3, 0.6, -0.1, 0.4]]),
        "b_z": np.array([0.1, -0.1, 0.0]),
    }


@case(public=True, points=1, batch_axes=BATCH)
def batch_of_two(rng):
    # The worked example's weights, applied to a batch of two (state, input) pairs.
    return {
        "x_t": np.array([[1.0, -0.5],
                         [2.0, 1.0]]),
        "h_prev": np.array([[0.8, -0.3, 0.5],
                            [0.0, 0.0, 0.0]]),
        "W_z": np.array([[0.3, -0.1, 0.4, 0.2, -0.3],
                         [0.1, 0.5, -0.2, 0.3, 0.1],
                         [-0.2, 0.3, 0.6, -0.1, 0.4]]),
        "b_z": np.array([0.1, -0.1, 0.0]),
    }


@case(points=2)
def unbatched_more_units_than_inputs(rng):
    return random_inputs(rng, H=5, D=3)


@case(points=2)
def unbatched_more_inputs_than_units(rng):
    return random_inputs(rng, H=2, D=7)


@case(points=3, batch_axes=BATCH)
def batched(rng):
    return random_inputs(rng, H=4, D=6, N=8)


@case(points=2)
def single_hidden_unit(rng):
    return random_inputs(rng, H=1, D=3)


@case(points=2, batch_axes=BATCH)
def batch_of_one(rng):
    return random_inputs(rng, H=3, D=2, N=1)


@case(points=2, batch_axes=BATCH)
def single_hidden_unit_batched(rng):
    return random_inputs(rng, H=1, D=2, N=5)


@case(points=3, batch_axes=BATCH)
def wide_layer(rng):
    # Long dot products (H + D = 96): float32 arithmetic drifts well beyond rtol = 1e-7 here.
    return random_inputs(rng, H=64, D=32, N=16)


@case(points=3, batch_axes=BATCH)
def large_pre_activations(rng):
    # Pre-activations reach several hundred in both directions, beyond 709 where exp
    # overflows in float64. A stable sigmoid returns exact 0s and 1s and finite values.
    inputs = random_inputs(rng, H=6, D=4, N=5, scale=300.0)
    inputs["b_z"] = np.array([800.0, -800.0, 0.5, -0.5, 40.0, -40.0])
    return inputs


@case(points=2)
def first_step_zero_state(rng):
    # At t = 1 the state is all zeros: only the input and the bias drive the gate.
    inputs = random_inputs(rng, H=4, D=3)
    inputs["h_prev"] = np.zeros(4)
    return inputs


@case(points=2, batch_axes=BATCH)
def positive_bias_initialisation(rng):
    # b_z = 1 (the usual initialisation that starts the unit out remembering), small weights.
    inputs = random_inputs(rng, H=5, D=5, N=4, scale=0.1)
    inputs["b_z"] = np.ones(5)
    return inputs


@case(points=1, batch_axes=BATCH)
def one_unit_batch_as_long_as_the_joined_input(rng):
    # H = 1 and N = H + D: a weight matrix written first (W_z @ joined) returns a (1, N) gate
    # here instead of raising, which tells it from a concatenation along the batch axis
    # (which raises on every batch).
    return random_inputs(rng, H=1, D=3, N=4)
