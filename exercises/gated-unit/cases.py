import numpy as np

from graders.cases import case


def lesson_init(rng, H, D, gate_bias=1.0):
    """The lesson's initialisation: uniform weights, update-gate bias 1, candidate bias 0."""
    def block(bias):
        return (rng.uniform(-1, 1, size=(H, D)) * np.sqrt(1 / D),
                rng.uniform(-1, 1, size=(H, H)) * np.sqrt(1 / H),
                np.full(H, bias))
    W_ux, W_uh, b_u = block(gate_bias)
    W_ax, W_ah, b_a = block(0.0)
    return {"W_ux": W_ux, "W_uh": W_uh, "b_u": b_u, "W_ax": W_ax, "W_ah": W_ah, "b_a": b_a}


def random_params(rng, H, D, scale=1.0):
    return {"W_ux": rng.normal(scale=scale, size=(H, D)),
            "W_uh": rng.normal(scale=scale, size=(H, H)),
            "b_u": rng.normal(loc=1.0, scale=scale, size=H),
            "W_ax": rng.normal(scale=scale, size=(H, D)),
            "W_ah": rng.normal(scale=scale, size=(H, H)),
            "b_a": rng.normal(scale=scale, size=H)}


BATCHED = {"x": 0, "h0": 0}


@case(public=True, points=1)
def worked_example(rng):
    return {"x": np.array([[1.0, 0.0], [0.5, -1.0], [0.0, 2.0]]),
            "h0": np.array([0.5, -0.5]),
            "W_ux": np.array([[0.5, -0.3], [0.2, 0.4]]),
            "W_uh": np.array([[0.1, 0.2], [-0.3, 0.1]]),
            "b_u": np.array([1.0, 1.0]),
            "W_ax": np.array([[0.8, 0.1], [-0.6, 0.5]]),
            "W_ah": np.array([[0.3, -0.2], [0.4, 0.2]]),
            "b_a": np.array([0.0, 0.1])}


@case(public=True, points=1, batch_axes=BATCHED)
def small_batch(rng):
    return {"x": rng.normal(size=(2, 4, 2)), "h0": rng.uniform(-1, 1, size=(2, 3)),
            **random_params(rng, 3, 2, scale=0.5)}


@case(public=True, points=1)
def saturated_gates(rng):
    # gate pre-activations near -800 and +800: a sigmoid 1 / (1 + exp(-q)) overflows here
    # with a warning (named in this public test's message), exp(q) / (1 + exp(q)) gives NaN
    return {"x": np.array([[1.0, 0.0], [0.0, 1.0]]), "h0": np.array([0.5, -0.5]),
            "W_ux": np.array([[-800.0, 0.0], [0.0, 800.0]]), "W_uh": np.zeros((2, 2)),
            "b_u": np.zeros(2),
            "W_ax": np.array([[0.8, 0.1], [-0.6, 0.5]]),
            "W_ah": np.array([[0.3, -0.2], [0.4, 0.2]]),
            "b_a": np.array([0.0, 0.1])}


@case(points=2)
def lesson_sizes(rng):
    # the lesson's unit: 6 hidden units, 2 inputs (reading / 40 and the marker flag), 12 steps
    x = np.stack([rng.uniform(0.4, 1.0, size=12), np.zeros(12)], axis=-1)
    x[0] = [0.0, 1.0]
    return {"x": x, "h0": rng.uniform(-0.5, 0.5, size=6), **lesson_init(rng, 6, 2)}


@case(points=2, batch_axes=BATCHED)
def batch_hidden_neq_input(rng):
    return {"x": rng.normal(size=(5, 8, 7)), "h0": rng.uniform(-1, 1, size=(5, 3)),
            **random_params(rng, 3, 7)}


@case(points=2)
def more_inputs_than_units_unbatched(rng):
    return {"x": rng.normal(size=(6, 5)), "h0": rng.uniform(-1, 1, size=4),
            **random_params(rng, 4, 5, scale=0.8)}


@case(points=2, batch_axes=BATCHED)
def large_pre_activations(rng):
    # pre-activations reach several hundred in magnitude: a sigmoid written as
    # exp(z) / (1 + exp(z)) or 1 / (1 + exp(-z)) on float32 breaks here
    p = random_params(rng, 4, 3, scale=60.0)
    return {"x": rng.normal(scale=5.0, size=(3, 5, 3)), "h0": rng.uniform(-1, 1, size=(3, 4)),
            **p}


@case(points=2)
def long_sequence(rng):
    p = lesson_init(rng, 8, 3, gate_bias=3.0)
    p["b_a"] = rng.normal(scale=0.5, size=8)
    return {"x": rng.normal(size=(300, 3)), "h0": rng.uniform(-1, 1, size=8), **p}


@case(points=1, batch_axes=BATCHED)
def one_unit_one_sequence(rng):
    return {"x": rng.normal(size=(1, 7, 2)), "h0": np.array([[0.9]]),
            **random_params(rng, 1, 2)}


@case(points=1)
def single_step(rng):
    return {"x": rng.normal(size=(1, 3)), "h0": rng.uniform(-1, 1, size=5),
            **random_params(rng, 5, 3)}


@case(points=1, batch_axes=BATCHED)
def closed_gate_bias(rng):
    # negative update bias: the gate starts mostly closed and the candidate dominates
    p = random_params(rng, 6, 2, scale=0.7)
    p["b_u"] = -np.abs(p["b_u"]) - 1.0
    return {"x": rng.normal(size=(4, 10, 2)), "h0": rng.uniform(-1, 1, size=(4, 6)), **p}


@case(points=1, batch_axes=BATCHED)
def one_input_feature(rng):
    # D = 1: W_ux and W_ax are single columns (H, 1), and x_t a vector of one number.
    return {"x": rng.normal(size=(3, 6, 1)), "h0": rng.uniform(-1, 1, size=(3, 4)),
            **random_params(rng, 4, 1)}
