"""Cases for leaky-integrator. Time is the second-to-last axis of xs: (T, D) or (N, T, D).

A batched case whose alpha is shared by the batch returns a window without a batch axis, so
it declares output_batch_axis=(0, None): the states are stacked along axis 0, the window must
equal what every single sequence returns. Cases with one alpha per sequence batch both outputs.
"""

import numpy as np

from graders.cases import case, variant

RETENTIONS = [0.5, 0.6, 0.75, 0.8, 0.9]
"""The step response's scalar factor each learner may draw (their own, in their statement)."""


@variant(default={"alpha": 0.75, "s1": 0.25, "s2": 0.4375, "window": 4.0})
def retention(rng):
    # The statement prints the factor, the first two states 1 - alpha**t and the window.
    alpha = float(rng.choice(RETENTIONS))
    return {"alpha": alpha, "s1": round(1.0 - alpha, 6), "s2": round(1.0 - alpha**2, 6),
            "window": round(1.0 / (1.0 - alpha), 6)}

# --- public ---------------------------------------------------------------------------------


@case(public=True, points=1)
def two_time_constants(rng):
    # The worked example of the statement: a slow dimension (0.9) and a fast one (0.2).
    return {"xs": np.array([[0.0, 1.0], [0.0, 1.0], [1.0, -1.0], [1.0, 0.0]]),
            "alpha": np.array([0.9, 0.2]),
            "s0": np.array([1.0, 0.0])}


@case(public=True, points=1)
def step_response(rng, variant):
    # A unit step from rest with the learner's factor: s_t = 1 - alpha**t, window 1/(1-alpha).
    return {"xs": np.ones((6, 1)), "alpha": variant["alpha"], "s0": np.zeros(1)}


# --- hidden: unbatched ----------------------------------------------------------------------


@case(points=2)
def scalar_alpha_random_sequence(rng):
    return {"xs": rng.normal(size=(50, 3)), "alpha": 0.9, "s0": rng.normal(size=3)}


@case(points=2)
def per_dimension_time_constants(rng):
    # The seed's time constants: 0.99 (about 100 steps), 0.1 (about 1.1 steps), and two between.
    return {"xs": rng.normal(loc=1.0, size=(200, 4)),
            "alpha": np.array([0.99, 0.1, 0.5, 0.7]),
            "s0": rng.normal(size=4)}


@case(points=2)
def alpha_zero_copies_the_input(rng):
    # No memory at all: every state is the current input, the window is one step.
    return {"xs": rng.normal(size=(12, 3)), "alpha": 0.0, "s0": rng.normal(size=3)}


@case(points=2)
def alpha_very_close_to_one(rng):
    # Almost perfect memory: the states barely leave s0 in 1000 steps.
    return {"xs": rng.normal(loc=5.0, size=(1000, 2)), "alpha": 0.999999,
            "s0": np.array([-2.0, 3.0])}


@case(points=2)
def vector_alpha_with_zero_and_near_one(rng):
    return {"xs": rng.uniform(-3.0, 3.0, size=(40, 3)),
            "alpha": np.array([0.0, 0.35, 0.999]),
            "s0": np.array([0.5, -0.5, 10.0])}


@case(points=2)
def single_step_single_dimension(rng):
    # T = 1, D = 1: the one returned state is s_1, not s0.
    return {"xs": np.array([[4.0]]), "alpha": 0.3, "s0": np.array([2.0])}


@case(points=3)
def long_sequence_slow_and_fast(rng):
    # 20000 steps; the mean 3 of the input is what a 0.999 integrator settles to.
    return {"xs": rng.normal(loc=3.0, scale=2.0, size=(20000, 2)),
            "alpha": np.array([0.999, 0.95]),
            "s0": np.zeros(2)}


@case(points=3)
def long_sequence_fast_decay(rng):
    # 3000 steps with alpha 0.3: a closed form built on alpha**(-t) overflows (0.3**-3000).
    return {"xs": rng.uniform(0.0, 1.0, size=(3000, 2)), "alpha": 0.3,
            "s0": np.array([1.0, -1.0])}


@case(points=2)
def large_magnitudes(rng):
    return {"xs": rng.normal(scale=1e8, size=(60, 3)),
            "alpha": np.array([0.6, 0.97, 0.05]),
            "s0": np.array([3e8, -1e8, 0.0])}


# --- hidden: batched ------------------------------------------------------------------------


@case(points=3, batch_axes={"xs": 0, "alpha": 0, "s0": 0})
def batch_with_per_sequence_alpha(rng):
    return {"xs": rng.normal(size=(5, 30, 3)),
            "alpha": rng.uniform(0.0, 0.98, size=(5, 3)),
            "s0": rng.normal(size=(5, 3))}


@case(points=2, batch_axes={"xs": 0, "alpha": 0, "s0": 0})
def batch_of_one(rng):
    return {"xs": rng.normal(size=(1, 7, 2)),
            "alpha": np.array([[0.8, 0.15]]),
            "s0": rng.normal(size=(1, 2))}


@case(points=3, batch_axes={"xs": 0, "s0": 0}, output_batch_axis=(0, None))
def batch_sharing_a_vector_alpha(rng):
    # alpha (D,) shared by the N = 4 sequences; the window has shape (D,).
    return {"xs": rng.normal(size=(4, 25, 3)),
            "alpha": np.array([0.9, 0.4, 0.75]),
            "s0": rng.normal(size=(4, 3))}


@case(points=2, batch_axes={"xs": 0, "s0": 0}, output_batch_axis=(0, None))
def batch_sharing_a_scalar_alpha(rng):
    # T = 3 == N: an implementation that loops over the wrong axis still gets the right shape.
    return {"xs": rng.normal(size=(3, 3, 2)), "alpha": 0.6, "s0": rng.normal(size=(3, 2))}


@case(points=2, batch_axes={"xs": 0, "alpha": 0, "s0": 0})
def batch_with_one_alpha_per_sequence(rng):
    # alpha (N, 1): broadcastable to s0's (N, D) without enlarging it, as the statement allows;
    # each sequence has one factor for all its dimensions, and the window has alpha's shape.
    return {"xs": rng.normal(size=(4, 20, 3)),
            "alpha": np.array([[0.9], [0.2], [0.0], [0.99]]),
            "s0": rng.normal(size=(4, 3))}
