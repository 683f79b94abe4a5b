import math

import numpy as np

from graders.cases import case

# ---------------------------------------------------------------------------------------
# The lesson's fictional reading sequences and untrained networks, rebuilt exactly
# (same generator, same seeds), so that two hidden cases reproduce its trace table.
# ---------------------------------------------------------------------------------------
LESSON_SEED, M32 = 20260218, 0xFFFFFFFF
LENGTH, SCALE = 12, 40.0


def _stream(t):
    x = ((t ^ (t >> 16)) * 2246822507) & M32
    x = ((x ^ (x >> 13)) * 3266489909) & M32
    state = [(x ^ (x >> 16)) & M32]

    def next_value():
        state[0] = (state[0] * 1664525 + 1013904223) & M32
        return state[0] / 4294967296
    return next_value


def _readings(subscriber):
    r = _stream(LESSON_SEED + 400000 + subscriber)
    base = 23.0 + 8.0 * r()
    d = [math.floor(base * math.exp((r() + r() + r() - 1.5) * 0.62) * 100 + 0.5) / 100
         for _ in range(LENGTH)]
    if r() < 0.5:
        d[0] = 0.0
    return d


def _order(n, seed):
    r, s = _stream(seed), list(range(n))
    for i in range(n - 1, 0, -1):
        j = int(r() * (i + 1))
        s[i], s[j] = s[j], s[i]
    return s


def lesson_pairs():
    """All 500 sequences, twice: the first step set to the marker / to the second reading."""
    seqs = [_readings(i) for i in _order(500, LESSON_SEED + 95000)]
    x = np.array([[[v / SCALE, 1.0 if v == 0.0 else 0.0] for v in d] for d in seqs])
    marked, other = x.copy(), x.copy()
    marked[:, 0] = [0.0, 1.0]
    other[:, 0, 0] = x[:, 1, 0]
    other[:, 0, 1] = 0.0
    return marked, other


def lesson_block(r, H, bias):
    Wx = np.array([[(r() * 2 - 1) * (1 / 2) ** 0.5 for _ in range(2)] for _ in range(H)])
    Wh = np.array([[(r() * 2 - 1) * (1 / H) ** 0.5 for _ in range(H)] for _ in range(H)])
    return Wx, Wh, np.full(H, bias)


def lesson_case(seed, gated, H=6):
    marked, other = lesson_pairs()
    r = _stream(seed)
    if gated:
        W_ux, W_uh, b_u = lesson_block(r, H, 1.0)
        W_ax, W_ah, b_a = lesson_block(r, H, 0.0)
    else:  # the plain unit: its single block is the candidate block; the gate is unused
        W_ax, W_ah, b_a = lesson_block(r, H, 0.0)
        W_ux, W_uh, b_u = np.zeros((H, 2)), np.zeros((H, H)), np.zeros(H)
    return {"x_marked": marked, "x_other": other, "W_ux": W_ux, "W_uh": W_uh, "b_u": b_u,
            "W_ax": W_ax, "W_ah": W_ah, "b_a": b_a, "gated": gated}


# ---------------------------------------------------------------------------------------


def random_case(rng, N, T, H, D, gated, scale=1.0, gate_bias=1.0, gate_scale=None):
    """Pairs of sequences that differ only at the first step, and random parameters."""
    x_other = rng.normal(size=(N, T, D))
    x_marked = x_other.copy()
    x_marked[:, 0, :] = rng.normal(size=(N, D))
    g = scale if gate_scale is None else gate_scale
    return {"x_marked": x_marked, "x_other": x_other,
            "W_ux": rng.normal(scale=g, size=(H, D)),
            "W_uh": rng.normal(scale=g, size=(H, H)),
            "b_u": rng.normal(loc=gate_bias, scale=0.5, size=H),
            "W_ax": rng.normal(scale=scale, size=(H, D)),
            "W_ah": rng.normal(scale=scale / np.sqrt(H), size=(H, H)),
            "b_a": rng.normal(scale=0.3, size=H),
            "gated": gated}


WORKED = {
    "x_marked": np.array([[[0.0, 1.0], [0.8, 0.0], [0.6, 0.0], [0.9, 0.0]],
                          [[0.0, 1.0], [0.5, 0.0], [0.7, 0.0], [0.4, 0.0]]]),
    "x_other": np.array([[[0.8, 0.0], [0.8, 0.0], [0.6, 0.0], [0.9, 0.0]],
                         [[0.5, 0.0], [0.5, 0.0], [0.7, 0.0], [0.4, 0.0]]]),
    "W_ux": np.array([[0.4, -0.6], [0.3, 0.5]]),
    "W_uh": np.array([[0.2, -0.1], [0.1, 0.3]]),
    "b_u": np.array([1.0, 1.0]),
    "W_ax": np.array([[0.9, 0.7], [-0.5, 0.8]]),
    "W_ah": np.array([[0.5, -0.4], [0.3, 0.6]]),
    "b_a": np.array([0.0, 0.0]),
}


@case(public=True, points=1)
def worked_example_gated(rng):
    return {**WORKED, "gated": True}


@case(public=True, points=1)
def worked_example_plain(rng):
    return {**WORKED, "gated": False}


@case(points=3)
def lesson_plain_six_units(rng):
    return lesson_case(LESSON_SEED + 11, gated=False)


@case(points=3)
def lesson_gated_six_units(rng):
    return lesson_case(LESSON_SEED + 11, gated=True)


@case(points=2)
def gated_hidden_neq_input(rng):
    return random_case(rng, N=30, T=10, H=5, D=3, gated=True)


@case(points=2)
def plain_hidden_neq_input(rng):
    return random_case(rng, N=30, T=8, H=4, D=6, gated=False)


@case(points=2)
def long_sequence_open_gate(rng):
    return random_case(rng, N=10, T=80, H=6, D=2, gated=True, scale=0.5, gate_bias=4.0)


@case(points=2)
def large_gate_pre_activations(rng):
    # gate pre-activations in the hundreds (a sigmoid written as exp(z) / (1 + exp(z))
    # overflows), while the candidate stays moderate so the trace does not vanish
    return random_case(rng, N=20, T=6, H=4, D=3, gated=True, gate_scale=150.0, gate_bias=0.0)


@case(points=1)
def one_unit(rng):
    return random_case(rng, N=15, T=7, H=1, D=2, gated=True)


@case(points=1)
def one_sequence(rng):
    return random_case(rng, N=1, T=5, H=3, D=2, gated=False)


@case(points=1)
def shortest_sequences(rng):
    # T = 3: the share is the trace at length 3 over the trace at length 2, one step apart
    return random_case(rng, N=12, T=3, H=4, D=2, gated=True)


@case(points=1)
def plain_candidate_beyond_exp_overflow(rng):
    # candidate pre-activations beyond 709, where exp overflows in float64: a tanh written
    # with exponentials divides inf by inf, while np.tanh saturates at exactly -1 or 1
    return random_case(rng, N=20, T=5, H=3, D=2, gated=False, scale=600.0)


@case(points=1)
def one_input_feature(rng):
    # D = 1: each step reads one number, and W_ux and W_ax are single columns (H, 1).
    return random_case(rng, N=8, T=6, H=3, D=1, gated=True)
