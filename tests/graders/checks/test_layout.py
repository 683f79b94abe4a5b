"""graders/checks/layout.py: numpy's shape errors explained in words with the case's inputs."""

from __future__ import annotations

import numpy as np

from graders.checks.layout import broadcast_mismatch, explain_shape_error
from graders.messages import is_known, translate_message

INPUTS = {"xs": np.zeros((4, 2, 3)), "h0": np.zeros((2, 5)), "W": np.zeros((5, 3)), "n": 3}
MATMUL = {
    "type": "ValueError",
    "message": "matmul: Input operand 1 has a mismatch in its core "
    "dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 5 is different "
    "from 3)",
}


def test_a_shape_error_is_told_with_the_inputs_shapes_and_the_sizes_that_disagree() -> None:
    assert explain_shape_error(MATMUL, INPUTS, {"xs": 1, "h0": 0}) == (
        "the arrays' shapes do not fit together, which usually means a layout mix-up: this "
        "case's inputs have shapes xs (4, 2, 3) with the batch along axis 1, h0 (2, 5) with the "
        "batch along axis 0, W (5, 3); the sizes that do not fit: 5 is the length of axis 1 of "
        "h0, axis 0 of W; 3 is the length of axis 2 of xs, axis 1 of W; check each against the "
        "statement's shapes: which axis holds the batch and what each other axis holds, and "
        "whether a weight matrix is (outputs, inputs)"
    )


def test_the_explanation_reads_in_japanese_clause_by_clause() -> None:
    # Each clause of a list is its own sentence part: no English piece is carried into the
    # Japanese, and no name swallows the clauses after it.
    told = explain_shape_error(MATMUL, INPUTS, {"xs": 1, "h0": 0})
    assert is_known(told, "ja")
    assert translate_message(told, "ja") == (
        "配列の形状が合いません。たいていは並び方の取り違えです。このケースの入力の形状は、"
        "xs が (4, 2, 3)（バッチは軸 1）、h0 が (2, 5)（バッチは軸 0）、W が (5, 3) です。"
        "合わない大きさ：5 は h0 の軸 1、W の軸 0 の長さです。"
        "3 は xs の軸 2、W の軸 1 の長さです。"
        "それぞれを問題文の形状と照らし合わせてください。どの軸がバッチで、ほかの各軸が何を表すか、"
        "重み行列が（出力、入力）になっているかを確かめてください"
    )
    inputs = {"params": {"w": np.zeros((3, 4))}, "grads": [np.zeros((4, 3))]}
    assert "params['w'] が (3, 4)、grads[0] が (4, 3) です" in translate_message(
        explain_shape_error(MATMUL, inputs), "ja"
    )


def test_the_checklist_names_only_what_the_case_has() -> None:
    # No time axis or weight matrix is named where the inputs have none (a batch of rows).
    rows = {"x": np.zeros((6, 9)), "k": 4}
    told = explain_shape_error(MATMUL, rows, {"x": 0})
    assert told.endswith("which axis holds the batch and what each other axis holds")
    assert "time" not in told and "weight" not in told


def test_arrays_inside_a_dict_argument_are_named_by_their_key() -> None:
    # adam's params and grads are dicts of arrays: they are the shapes to tell, never an empty
    # list ("have shapes ;").
    inputs = {"params": {"w": np.zeros((3, 4)), "b": np.zeros(4)}, "grads": [np.zeros((4, 3))]}
    told = explain_shape_error(MATMUL, inputs)
    assert "have shapes params['w'] (3, 4), params['b'] (4,), grads[0] (4, 3); " in told
    assert explain_shape_error(MATMUL, {"lr": 0.1}) == ""


def test_sizes_of_no_input_are_said_to_be_intermediate() -> None:
    error = {
        "type": "ValueError",
        "message": "all the input array dimensions except for the "
        "concatenation axis must match exactly, but along dimension 0, the array at index "
        "0 has size 2 and the array at index 1 has size 7",
    }
    assert (
        "the sizes that do not fit: 2 is the length of axis 1 of xs, axis 0 of h0; 7 is the "
        "length of no input's axis (of an intermediate result); "
        in explain_shape_error(error, INPUTS)
    )


def test_other_exceptions_are_not_explained() -> None:
    broadcast = {
        "type": "ValueError",
        "message": "operands could not be broadcast together with shapes (4,2,3) (2,5)",
    }
    assert (
        "this case's inputs have shapes xs (4, 2, 3), h0 (2, 5), W (5, 3); check each"
        in explain_shape_error(broadcast, INPUTS)
    )
    assert explain_shape_error({"type": "KeyError", "message": "boom"}, INPUTS) == ""
    assert explain_shape_error({"type": "ValueError", "message": "math domain error"}, INPUTS) == ""
    assert explain_shape_error({"type": "Exception"}, INPUTS) == ""  # a hidden call's error


def test_a_failed_broadcast_names_the_sizes_that_disagree_axis_by_axis() -> None:
    def mismatch(*shapes: tuple[int, ...]) -> str:
        try:
            np.add(*(np.zeros(shape) for shape in shapes))
        except ValueError as exc:
            return broadcast_mismatch(str(exc))
        raise AssertionError(f"{shapes} broadcast")

    # Aligned from the last axis, whatever the operands' order; a 1 broadcasts and is no size
    # that disagrees.
    assert mismatch((9, 2), (9,)) == mismatch((9,), (9, 2)) == "2 9"
    assert mismatch((2, 9), (0, 9)) == "0 2"
    assert mismatch((4, 1, 3), (2, 5)) == "3 5"
    assert (
        broadcast_mismatch("matmul: Input operand 1 has a mismatch (size 2 is different from 3)")
        == ""
    )
