import numpy as np

from graders.cases import case

# Batched inputs are batch-first, like every sequence of the course: xs is (N, T, D), h0 is
# (N, H), and the states come back as (N, T, H).
BATCH = {"batch_axes": {"xs": 0, "h0": 0}, "output_batch_axis": 0}


def _inputs(rng, T, H, D, N=None, scale=1.0, bias_scale=0.5):
    lead = () if N is None else (N,)
    inputs = {
        "xs": rng.normal(size=(*lead, T, D)),
        "h0": rng.uniform(-1.0, 1.0, size=(*lead, H)),
    }
    for name in ("z", "r", "h"):
        # Weights ~ N(0, 1 / (H + D)) keep the dynamics tame over hundreds of steps, so
        # rounding differences between correct implementations stay far below rtol.
        inputs[f"W_{name}"] = rng.normal(scale=scale / np.sqrt(H + D), size=(H, H + D))
        inputs[f"b_{name}"] = rng.normal(scale=bias_scale, size=H)
    return inputs


@case(public=True, points=1)
def worked_example(rng):
    # The example of the statement: T = 3, H = 2, D = 1.
    return {
        "xs": np.array([[1.0], [0.5], [-1.0]]),
        "h0": np.array([0.5, -0.5]),
        "W_z": np.array([[0.5, -0.2, 0.8], [0.1, 0.4, -0.6]]),
        "b_z": np.array([0.5, 0.0]),
        "W_r": np.array([[0.3, 0.6, -0.4], [-0.5, 0.2, 0.7]]),
        "b_r": np.array([0.0, 0.1]),
        "W_h": np.array([[0.9, -0.4, 1.2], [0.3, 0.8, -1.0]]),
        "b_h": np.array([0.0, 0.2]),
    }


@case(public=True, points=1, **BATCH)
def small_batch(rng):
    return _inputs(rng, T=4, H=3, D=2, N=2)


@case(points=2)
def unbatched_short(rng):
    return _inputs(rng, T=6, H=4, D=3)


@case(points=3, **BATCH)
def batched_more_input_than_hidden(rng):
    return _inputs(rng, T=10, H=3, D=6, N=5)


@case(points=2, **BATCH)
def batch_size_equals_length(rng):
    # N == T: stacking the states along the wrong axis keeps the shape and fails on values.
    return _inputs(rng, T=5, H=2, D=3, N=5)


@case(points=2)
def square_sizes(rng):
    # H == D: a swapped concatenation [x, h] has the right shapes and must fail on values.
    return _inputs(rng, T=8, H=3, D=3)


@case(points=1)
def single_step(rng):
    return _inputs(rng, T=1, H=3, D=2)


@case(points=2, **BATCH)
def single_step_batched(rng):
    return _inputs(rng, T=1, H=4, D=2, N=3)


@case(points=2)
def one_hidden_unit(rng):
    return _inputs(rng, T=20, H=1, D=1)


@case(points=2, **BATCH)
def batch_of_one(rng):
    return _inputs(rng, T=15, H=3, D=2, N=1)


@case(points=3)
def long_sequence(rng):
    return _inputs(rng, T=250, H=8, D=4)


@case(points=4, **BATCH)
def long_sequence_batched(rng):
    return _inputs(rng, T=300, H=6, D=3, N=4)


@case(points=3, **BATCH)
def slow_memory(rng):
    # Update-gate bias +3 (z about 0.95): the state carries information over tens of
    # steps, so restarting every step from h0 or shifting the output by one shows clearly.
    inputs = _inputs(rng, T=60, H=4, D=2, N=3)
    inputs["b_z"] = np.full(4, 3.0)
    return inputs


@case(points=3, **BATCH)
def large_preactivations(rng):
    # Pre-activations in the hundreds: a naive sigmoid overflows, exp(a)/(1+exp(a)) is NaN.
    return _inputs(rng, T=30, H=5, D=3, N=3, scale=300.0, bias_scale=50.0)


@case(points=2, **BATCH)
def saturated_candidate(rng):
    # Input weights of the candidate a thousand times larger: its pre-activation passes 709
    # in both directions, where a tanh written with exp divides inf by inf (np.tanh returns
    # exactly +-1). The recurrent weights stay small, so no step amplifies rounding.
    H = 4
    inputs = _inputs(rng, T=20, H=H, D=3, N=3)
    inputs["W_h"][:, H:] *= 1000.0
    return inputs


@case(points=2, **BATCH)
def largest_sizes(rng):
    # T = 300 and H = D = 16, the largest the constraints allow, on a batch of 12: a batch of
    # 16, as large as H, made a transposed weight's shape error tell the batch from the units
    # no more, and cost such a solution its hint.
    return _inputs(rng, T=300, H=16, D=16, N=12)
