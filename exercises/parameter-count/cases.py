"""Cases for parameter-count. Every input is a plain Python str / int; the expected count
comes from solution.py. The lesson's table (input 2, one sigmoid output) and the explainer's
3H(D+H+1) / 4H(D+H+1) (no read-out) are reproduced below."""

from graders.cases import case

# Parameter counts are exact integers: no tolerance. (With the default rtol=1e-7 a count near
# 7.2e9 could be off by up to 720 and still pass.)
EXACT = {"rtol": 0.0, "atol": 0.0}


def sizes(kind, input_size, hidden_size, output_size=0):
    return {"kind": kind, "input_size": input_size, "hidden_size": hidden_size,
            "output_size": output_size}


# --- public -------------------------------------------------------------------------------

@case(public=True, points=1, **EXACT)
def lesson_plain_network_with_6_units(rng):
    # The lesson's plain network: 2 input features, 6 units, one sigmoid output -> 61.
    return sizes("plain", 2, 6, 1)


@case(public=True, points=1, **EXACT)
def gru_layer_without_read_out(rng):
    # The worked example of the statement: 3 * 4 * (3 + 4 + 1) = 96.
    return sizes("gru", 3, 4, 0)


# --- hidden: the seeds' numbers -------------------------------------------------------------

@case(points=2, **EXACT)
def lesson_gated_network_with_6_units(rng):
    # 115 in the lesson; two blocks (update gate and candidate), no reset gate.
    return sizes("gated", 2, 6, 1)


@case(points=2, **EXACT)
def lesson_equal_budget_plain_network(rng):
    # 118 in the lesson: the plain network widened to 9 units.
    return sizes("plain", 2, 9, 1)


@case(points=2, **EXACT)
def lstm_layer_without_read_out(rng):
    # 4H(D+H+1) of the explainer, with H != D.
    return sizes("lstm", 5, 3, 0)


@case(points=2, **EXACT)
def gru_layer_wider_than_its_input(rng):
    # 3H(D+H+1) of the explainer, H > D.
    return sizes("gru", 2, 7, 0)


# --- hidden: every kind with and without a read-out, H != D ----------------------------------

@case(points=2, **EXACT)
def gated_unit_without_read_out(rng):
    return sizes("gated", 4, 10, 0)


@case(points=2, **EXACT)
def gru_with_a_read_out_of_3(rng):
    return sizes("gru", 6, 5, 3)


@case(points=2, **EXACT)
def lstm_with_a_read_out_of_2(rng):
    return sizes("lstm", 3, 8, 2)


@case(points=2, **EXACT)
def plain_unit_with_input_wider_than_state(rng):
    return sizes("plain", 12, 4, 0)


# --- hidden: edge sizes ----------------------------------------------------------------------

@case(points=2, **EXACT)
def one_unit_one_input_plain(rng):
    return sizes("plain", 1, 1, 1)


@case(points=2, **EXACT)
def one_unit_one_input_gru(rng):
    return sizes("gru", 1, 1, 0)


@case(points=2, **EXACT)
def one_unit_lstm_many_inputs(rng):
    return sizes("lstm", 9, 1, 1)


@case(points=2, **EXACT)
def one_unit_gated_with_read_out(rng):
    return sizes("gated", 3, 1, 4)


# --- hidden: large layers --------------------------------------------------------------------

@case(points=2, **EXACT)
def large_lstm_layer(rng):
    # 4 * 1024 * (300 + 1024 + 1) = 5,427,200: the size of a typical word-level LSTM layer.
    return sizes("lstm", 300, 1024, 0)


@case(points=3, **EXACT)
def huge_lstm_layer_beyond_int32(rng):
    # 7,200,120,000 > 2**31 - 1: a count kept in 32-bit integers wraps around here.
    return sizes("lstm", 30000, 30000, 0)


@case(points=3, **EXACT)
def huge_gru_with_read_out(rng):
    return sizes("gru", 20000, 30000, 50000)


@case(points=2, **EXACT)
def largest_sizes_gated(rng):
    # D = H = O = 10^5, each at the largest the constraints allow: 2 * 10^5 * (2 * 10^5 + 1)
    # plus a read-out of 10^10 + 10^5, far beyond 2**31 for a kind the other large cases miss.
    return sizes("gated", 100000, 100000, 100000)
