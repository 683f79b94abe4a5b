import numpy as np

from graders.cases import case

# Gradients are sums over time steps (and rows): a correct solution that accumulates them in
# another order, or through another but equivalent factorisation, differs from the reference
# by rounding that grows with the sequence length. rtol=1e-6 leaves room for that while every
# conceptual mistake is off by far more (percent level or worse).
RTOL = 1e-6
# Except on the wide case, the correct alternatives agree with the reference to 1e-13, while
# central differences, even of each step's gates a block of units at a time at their best
# step (about 6e-6), are off by 4e-11 or more: every other case asks for that.
EXACT = {"rtol": 1e-11, "atol": 1e-12}


def random_params(rng, H, D, scale=1.0, gate_bias=1.0):
    return {"W_ux": rng.normal(scale=scale, size=(H, D)),
            "W_uh": rng.normal(scale=scale, size=(H, H)),
            "b_u": rng.normal(loc=gate_bias, scale=scale, size=H),
            "W_ax": rng.normal(scale=scale, size=(H, D)),
            "W_ah": rng.normal(scale=scale, size=(H, H)),
            "b_a": rng.normal(scale=scale, size=H)}


def problem(rng, shape, T, H, D, scale=1.0, gate_bias=1.0):
    """Inputs in call order: x, h0, the two blocks, then the targets y."""
    return {"x": rng.normal(size=(*shape, T, D)), "h0": rng.uniform(-1, 1, size=(*shape, H)),
            **random_params(rng, H, D, scale, gate_bias),
            "y": rng.uniform(-1, 1, size=(*shape, T, H))}


@case(public=True, points=1, **EXACT)
def worked_example(rng):
    return {"x": np.array([[1.0, 0.0], [0.5, -1.0], [0.0, 2.0]]),
            "h0": np.array([0.5, -0.5]),
            "W_ux": np.array([[0.5, -0.3], [0.2, 0.4]]),
            "W_uh": np.array([[0.1, 0.2], [-0.3, 0.1]]),
            "b_u": np.array([1.0, 1.0]),
            "W_ax": np.array([[0.8, 0.1], [-0.6, 0.5]]),
            "W_ah": np.array([[0.3, -0.2], [0.4, 0.2]]),
            "b_a": np.array([0.0, 0.1]),
            "y": np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 1.0]])}


@case(public=True, points=1, **EXACT)
def small_batch(rng):
    return problem(rng, (2,), T=3, H=2, D=3, scale=0.5)


@case(points=3, rtol=RTOL, time_s=1)
def wide_and_long(rng):
    # 7776 entries of h0 and the parameters, 100 steps: central differences need two forward
    # passes per entry (about a minute of CPU time), the exact gradients about 0.01 s. The
    # first hidden case, so that code stopped at its limit runs none of the others.
    return problem(rng, (16,), T=100, H=48, D=24, scale=0.3)


@case(points=3, **EXACT)
def lesson_sizes(rng):
    # 6 units, 2 inputs (reading / 40 and a marker flag), 12 steps, lesson initialisation
    H, D, T = 6, 2, 12
    x = np.stack([rng.uniform(0.4, 1.0, size=T), np.zeros(T)], axis=-1)
    x[0] = [0.0, 1.0]
    return {"x": x, "h0": np.zeros(H),
            "W_ux": rng.uniform(-1, 1, size=(H, D)) * np.sqrt(1 / D),
            "W_uh": rng.uniform(-1, 1, size=(H, H)) * np.sqrt(1 / H),
            "b_u": np.ones(H),
            "W_ax": rng.uniform(-1, 1, size=(H, D)) * np.sqrt(1 / D),
            "W_ah": rng.uniform(-1, 1, size=(H, H)) * np.sqrt(1 / H),
            "b_a": np.zeros(H),
            "y": rng.uniform(-1, 1, size=(T, H))}


@case(points=3, **EXACT)
def batch_hidden_neq_input(rng):
    return problem(rng, (4,), T=7, H=3, D=5)


@case(points=2, **EXACT)
def unbatched_twenty_steps(rng):
    return problem(rng, (), T=20, H=5, D=2, scale=0.8)


@case(points=3, **EXACT)
def long_sequence_open_gate(rng):
    # gate bias 3: the direct path carries the gradient far back
    return problem(rng, (), T=150, H=4, D=3, scale=0.4, gate_bias=3.0)


@case(points=2, **EXACT)
def long_batch(rng):
    return problem(rng, (3,), T=60, H=6, D=2, scale=0.6)


@case(points=2, **EXACT)
def saturated_gates(rng):
    # pre-activations reach about a thousand: exp(z) / (1 + exp(z)) overflows into NaN here
    p = problem(rng, (2,), T=6, H=3, D=2, scale=150.0)
    p["x"] = 4.0 * p["x"]
    return p


@case(points=1, **EXACT)
def one_unit(rng):
    return problem(rng, (), T=5, H=1, D=2)


@case(points=1, **EXACT)
def batch_of_one(rng):
    return problem(rng, (1,), T=4, H=3, D=3)


@case(points=1, **EXACT)
def single_step(rng):
    return problem(rng, (), T=1, H=4, D=2)


@case(points=1, **EXACT)
def saturated_candidate(rng):
    # only the candidate's pre-activations pass 709, where exp overflows: a tanh written with
    # exponentials gives NaN here while the gates, and a naive sigmoid, stay finite
    p = problem(rng, (2,), T=5, H=3, D=2)
    p["W_ax"] = 600.0 * p["W_ax"]
    return p


@case(points=1, **EXACT)
def one_input_feature(rng):
    # D = 1: each step reads one number, so dW_ux and dW_ax are single columns (H, 1).
    return problem(rng, (3,), T=5, H=3, D=1)
