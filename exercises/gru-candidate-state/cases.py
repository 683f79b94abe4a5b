"""Test cases of the GRU candidate state tanh(W_h [r_t * h_prev, x_t] + b_h).

Hidden cases use reset gates strictly between 0 and 1 that differ from unit to unit, so that
applying the reset after the affine map, forgetting it, concatenating in the wrong order or
using a sigmoid all give different outputs. Two cases pin the limits r = 1 and r = 0.
"""

import numpy as np

from graders.cases import case

BATCH = {"x_t": 0, "h_prev": 0, "r_t": 0}


def random_inputs(rng, H, D, N=None, scale=1.0):
    lead = () if N is None else (N,)
    h_prev = np.tanh(rng.normal(size=(*lead, H)))        # a hidden state lies in (-1, 1)
    return {
        "x_t": rng.normal(size=(*lead, D)),
        "h_prev": h_prev,
        "r_t": rng.uniform(0.05, 0.95, size=(*lead, H)),        # gate values, unit by unit
        "W_h": scale * rng.normal(size=(H, H + D)) / np.sqrt(H + D),
        "b_h": 0.5 * rng.normal(size=H),
    }


@case(public=True, points=1)
def numerical_example(rng):
    # The worked example of the statement: H = 3, D = 2.
    return {
        "x_t": np.array([1.0, -0.5]),
        "h_prev": np.array([0.8, -0.3, 0.5]),
        "r_t": np.array([0.5, 0.25, 1.0]),
        "W_h": np.array([[0.4, -0.2, 0.1, 0.3, 0.2],
                         [0.1, 0.6, -0.3, -0.2, 0.5],
                         [-0.3, 0.2, 0.5, 0.4, -0.6]]),
        "b_h": np.array([0.05, -0.1, 0.2]),
    }


@case(public=True, points=1, batch_axes=BATCH)
def small_batch(rng):
    return random_inputs(rng, H=3, D=2, N=2)


@case(points=2)
def unbatched_more_units_than_inputs(rng):
    return random_inputs(rng, H=6, D=3)


@case(points=2)
def unbatched_more_inputs_than_units(rng):
    return random_inputs(rng, H=2, D=9)


@case(points=3, batch_axes=BATCH)
def batched(rng):
    return random_inputs(rng, H=5, D=4, N=6)


@case(points=2, batch_axes=BATCH)
def single_hidden_unit(rng):
    return random_inputs(rng, H=1, D=3, N=4)


@case(points=2, batch_axes=BATCH)
def batch_of_one(rng):
    return random_inputs(rng, H=4, D=2, N=1)


@case(points=3, batch_axes=BATCH)
def wide_layer(rng):
    return random_inputs(rng, H=48, D=24, N=10)


@case(points=2, batch_axes=BATCH)
def reset_fully_open(rng):
    # r = 1: the candidate is an ordinary recurrent step on the whole previous state.
    inputs = random_inputs(rng, H=4, D=3, N=3)
    inputs["r_t"] = np.ones((3, 4))
    return inputs


@case(points=2, batch_axes=BATCH)
def reset_fully_closed(rng):
    # r = 0: the previous state is hidden and the candidate depends on x_t alone.
    inputs = random_inputs(rng, H=4, D=3, N=3)
    inputs["r_t"] = np.zeros((3, 4))
    return inputs


@case(points=3, batch_axes=BATCH)
def large_pre_activations(rng):
    # Pre-activations of several hundred in both directions: tanh saturates to exactly +-1.
    # A tanh written with exp, (e^a - e^-a) / (e^a + e^-a), returns NaN here.
    inputs = random_inputs(rng, H=6, D=4, N=4, scale=300.0)
    inputs["b_h"] = np.array([800.0, -800.0, 0.2, -0.2, 20.0, -20.0])
    return inputs


@case(points=2, batch_axes=BATCH)
def single_input_feature(rng):
    # D = 1, the smallest input the constraints allow: x_t is (N, 1) and W_h's last column
    # alone acts on it.
    return random_inputs(rng, H=4, D=1, N=3)
