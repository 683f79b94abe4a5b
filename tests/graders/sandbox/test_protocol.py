"""graders/sandbox/protocol.py: the trusted side's conversation, frame by frame (no sandbox)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from graders.api import WireError
from graders.sandbox.protocol import (
    BatchItem,
    Conversation,
    Deferral,
    EncodedTasks,
    Ending,
    Next,
    Task,
    encode_tasks,
    request_frame,
)
from graders.sandbox.wire import HEADER, encode_value
from graders.values import Growth, InputFunction

PUBLIC = Task(("x", "w"), (np.array([0.25, 0.5]), 2.0))
HIDDEN_MAIN = Task(
    ("x", "w"), (np.array([[0.75, 0.125], [0.5, 0.5]]), 3.0), flush=False, hidden=True
)
HIDDEN_SLICES = (
    Task(("x", "w"), (np.array([0.75, 0.125]), 3.0), flush=False, hidden=True),
    Task(("x", "w"), (np.array([0.5, 0.5]), 3.0), hidden=True),
)


@pytest.fixture
def tasks() -> EncodedTasks:
    return encode_tasks([PUBLIC, HIDDEN_MAIN, *HIDDEN_SLICES])


def result(**extra: Any) -> dict[str, Any]:
    buffers: list[bytes | memoryview] = []
    return {"ok": True, "value": encode_value(1.0, buffers), "mutated": [], **extra}


def results_frame(first: int, *results: object) -> dict[str, Any]:
    """A results frame; a result may be anything, for the malformed ones."""
    return {"kind": "results", "first": first, "results": list(results)}


def task_frame(index: int, **extra: Any) -> dict[str, Any]:
    """A results frame with one result."""
    return results_frame(index, result(**extra))


def loaded(conversation: Conversation) -> Conversation:
    assert conversation.apply({"kind": "loaded", "stdout": "hello\n"}, []) is Next.READ
    return conversation


def test_the_request_holds_the_public_inputs_only(tasks: EncodedTasks) -> None:
    frame = b"".join(bytes(piece) for piece in request_frame("code", "f", tasks))
    (length,) = HEADER.unpack(frame[: HEADER.size])
    header = json.loads(frame[HEADER.size : HEADER.size + length])
    assert header["hidden"] == 1 and len(header["tasks"]) == 1
    assert np.array([0.75]).tobytes() not in frame
    assert np.array([0.25]).tobytes() in frame
    # One hidden case: its main call and its two batch items, in one frame.
    assert [count for _frame, count in tasks.hidden] == [3]
    assert np.array([0.75]).tobytes() in tasks.hidden[0][0]


def test_a_batch_item_travels_without_inputs_after_its_main_call() -> None:
    item = Task(("x", "w"), (), hidden=True, item=BatchItem(1, (("x", 0),)))
    encoded = encode_tasks([PUBLIC, HIDDEN_MAIN, item])
    frame, count = encoded.hidden[0]
    assert count == 2 and np.array([0.5]).tobytes() in frame
    (length,) = HEADER.unpack(frame[: HEADER.size])
    header = json.loads(frame[HEADER.size : HEADER.size + length])
    assert header["tasks"][1] == {
        "names": ["x", "w"],
        "item": 1,
        "axes": {"x": 0},
        "keep": False,
        "flush": True,
    }
    with pytest.raises(ValueError, match="must follow its main call"):
        encode_tasks([PUBLIC, item])


def test_hidden_tasks_must_come_last_and_end_a_case() -> None:
    with pytest.raises(ValueError, match="after every public task"):
        encode_tasks([HIDDEN_MAIN, *HIDDEN_SLICES, PUBLIC])
    with pytest.raises(ValueError, match="flush"):
        encode_tasks([PUBLIC, HIDDEN_MAIN])


def test_a_hidden_case_is_sent_only_after_every_earlier_result(tasks: EncodedTasks) -> None:
    conversation = loaded(Conversation(tasks))
    assert conversation.apply(task_frame(0, stdout="public\n"), []) is Next.READ
    assert not conversation.result.hidden_started
    assert conversation.apply({"kind": "public_done", "dropped_chars": 4}, []) is Next.SEND_CASE
    assert conversation.next_case() == tasks.hidden[0][0]
    assert conversation.result.hidden_started
    assert conversation.apply(task_frame(1), []) is Next.READ
    assert conversation.apply(task_frame(2), []) is Next.READ
    assert conversation.apply(task_frame(3), []) is Next.SEND_CASE
    assert conversation.next_case() is None
    result = conversation.result
    assert result.ending is Ending.COMPLETED
    assert (result.load_stdout, result.outcomes[0].stdout, result.dropped_chars) == (
        "hello\n",
        "public\n",
        4,
    )


def test_text_timing_and_exception_details_of_a_hidden_call_are_not_kept(
    tasks: EncodedTasks,
) -> None:
    conversation = loaded(Conversation(tasks))
    conversation.apply(task_frame(0), [])
    conversation.apply({"kind": "public_done", "dropped_chars": 0}, [])
    conversation.next_case()
    conversation.apply(
        results_frame(
            1,
            result(
                stdout="0.75",
                seconds=0.75,
                warnings=["0.75"],
                ok=False,
                error={"type": "Leak0p75", "message": "0.75"},
            ),
            result(stdout="0.75"),
        ),
        [],
    )
    hidden = conversation.result.outcomes[1]
    assert (hidden.stdout, hidden.warnings, hidden.error) == ("", (), {"type": "Exception"})
    assert conversation.result.outcomes[2].stdout == ""


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("MemoryError", "MemoryError"),
        ("NotUpdatedInPlace", "NotUpdatedInPlace"),
        ("WrongReturn", "WrongReturn"),
        ("ValueError", "Exception"),
    ],
)
def test_a_hidden_calls_exception_is_kept_by_a_fixed_type_only(
    tasks: EncodedTasks, sent: str, kept: str
) -> None:
    # The scenario runner's findings are told apart (the learner raised nothing); any other
    # type is the learner's and says nothing.
    conversation = loaded(Conversation(tasks))
    conversation.apply(task_frame(0), [])
    conversation.apply({"kind": "public_done", "dropped_chars": 0}, [])
    conversation.next_case()
    conversation.apply(
        results_frame(1, result(ok=False, error={"type": sent, "message": "x"}), result()), []
    )
    assert conversation.result.outcomes[1].error == {"type": kept}


@pytest.mark.parametrize(
    ("frames", "why"),
    [
        ([task_frame(0)], "unexpected frame kind"),  # before "loaded"
        ([{"kind": "loaded"}, task_frame(1)], "out of order"),  # a hidden index early
        ([{"kind": "loaded"}, {"kind": "public_done"}], "unexpected"),  # public results missing
        ([{"kind": "loaded"}, task_frame(0, mutated=["x", "0.75"])], "not arguments"),
        ([{"kind": "loaded"}, task_frame(0, mutated=["x", "x"])], "not arguments"),
        ([{"kind": "loaded"}, task_frame(0), {"kind": "done"}], "unexpected frame kind"),
        ([{"kind": "loaded"}, results_frame(0)], "without results"),
        ([{"kind": "loaded"}, {**results_frame(0), "results": {"0": result()}}], "without results"),
        ([{"kind": "loaded"}, results_frame(0, [result()])], "not an object"),
        ([{"kind": "loaded"}, results_frame(0, result(), result())], "out of order"),  # past public
        ([{"kind": "loaded"}, task_frame(0), task_frame(0)], "out of order"),  # repeated
    ],
)
def test_a_frame_the_trusted_side_does_not_expect_is_refused(
    tasks: EncodedTasks, frames: list[dict[str, Any]], why: str
) -> None:
    conversation = Conversation(tasks)
    with pytest.raises(WireError, match=why):
        for frame in frames:
            conversation.apply(frame, [])


def test_changed_inputs_named_by_the_task_are_kept(tasks: EncodedTasks) -> None:
    conversation = loaded(Conversation(tasks))
    conversation.apply(task_frame(0, mutated=["w", "x"]), [])
    assert conversation.result.outcomes[0].mutated == ("w", "x")


def test_a_hidden_case_answers_in_one_frame_with_its_buffers_numbered_across_it(
    tasks: EncodedTasks,
) -> None:
    conversation = loaded(Conversation(tasks))
    conversation.apply(task_frame(0), [])
    conversation.apply({"kind": "public_done", "dropped_chars": 0}, [])
    conversation.next_case()
    buffers: list[bytes | memoryview] = []
    values = [
        encode_value(np.array([0.5, 0.25]), buffers),
        encode_value(2.0, buffers),
        encode_value((np.array([1.5]), np.array([[3.0]])), buffers),
    ]
    frame = results_frame(1, *(result(value=value) for value in values))
    views = [memoryview(bytes(buffer)) for buffer in buffers]
    assert conversation.apply(frame, views) is Next.SEND_CASE
    outcomes = conversation.result.outcomes
    assert outcomes[1].value.tolist() == [0.5, 0.25] and outcomes[2].value == 2.0
    assert [part.tolist() for part in outcomes[3].value] == [[1.5], [[3.0]]]
    assert conversation.next_case() is None


def test_a_results_frame_may_not_reach_past_the_hidden_case_in_flight() -> None:
    second = Task(("x", "w"), (np.array([0.375]), 1.0), hidden=True)
    conversation = loaded(Conversation(encode_tasks([PUBLIC, HIDDEN_MAIN, *HIDDEN_SLICES, second])))
    conversation.apply(task_frame(0), [])
    conversation.apply({"kind": "public_done", "dropped_chars": 0}, [])
    conversation.next_case()
    with pytest.raises(WireError, match="out of order"):
        conversation.apply(results_frame(1, *[result()] * 4), [])


def test_the_last_public_task_must_end_its_case() -> None:
    with pytest.raises(ValueError, match="last public task"):
        encode_tasks([Task(("x", "w"), (np.array([0.25]), 2.0), flush=False)])


def test_a_shown_case_keeps_its_text_and_goes_before_the_hidden_ones() -> None:
    shown = Task(("x", "w"), PUBLIC.args, hidden=True, deferral=Deferral(shown=True, timed=True))
    encoded = encode_tasks([PUBLIC, shown, HIDDEN_MAIN, *HIDDEN_SLICES])
    (length,) = HEADER.unpack(encoded.hidden[0][0][: HEADER.size])
    assert json.loads(encoded.hidden[0][0][HEADER.size : HEADER.size + length])["shown"] is True
    conversation = loaded(Conversation(encoded))
    conversation.apply(task_frame(0), [])
    conversation.apply({"kind": "public_done", "dropped_chars": 0}, [])
    conversation.next_case()
    # A timed public case is in flight: no hidden input has reached the sandbox yet.
    assert (conversation.result.case_in_flight, conversation.result.hidden_started) == (1, False)
    assert conversation.apply(task_frame(1, stdout="shown\n", warnings=["w"]), []) is Next.SEND_CASE
    assert conversation.result.case_in_flight is None
    conversation.next_case()
    assert conversation.result.hidden_started
    conversation.apply(task_frame(2, stdout="hidden\n"), [])
    outcomes = conversation.result.outcomes
    assert (outcomes[1].stdout, outcomes[1].warnings) == ("shown\n", ("w",))
    assert outcomes[2].stdout == ""
    in_flight: int | None = conversation.result.case_in_flight
    assert in_flight == 2


GENERATED = Task(("x", "rng"), (np.array([0.25]), np.random.default_rng(5)))
STATE = [7, 11, 0, 0]  # a PCG64 state: state, increment, has_uint32, uinteger


def test_where_a_call_left_its_generators_is_kept() -> None:
    conversation = loaded(Conversation(encode_tasks([GENERATED])))
    conversation.apply(task_frame(0, generators={"rng": STATE}), [])
    assert conversation.result.outcomes[0].generators == {"rng": (7, 11, 0, 0)}


@pytest.mark.parametrize(
    "generators",
    [
        None,  # a generator argument's state missing
        {},
        {"x": STATE},  # an argument that is no generator
        {"rng": STATE, "x": STATE},
        {"rng": STATE, "0.75": STATE},  # no argument at all
        {"rng": [7, 11, 0]},  # not four numbers
        {"rng": [7, 11, 2, 0]},  # has_uint32 is 0 or 1
        {"rng": [7, 11, 0, 1 << 32]},  # uinteger is 32 bits
        {"rng": [1 << 128, 11, 0, 0]},
        {"rng": [-1, 11, 0, 0]},
        {"rng": [7.0, 11, 0, 0]},
        {"rng": [True, 11, 0, 0]},
        {"rng": "7 11 0 0"},
        [["rng", STATE]],
    ],
)
def test_generator_states_other_than_one_per_generator_argument_are_refused(
    generators: Any,
) -> None:
    conversation = loaded(Conversation(encode_tasks([GENERATED])))
    extra = {} if generators is None else {"generators": generators}
    with pytest.raises(WireError, match="generator"):
        conversation.apply(task_frame(0, **extra), [])


def test_a_call_without_generators_may_report_none(tasks: EncodedTasks) -> None:
    conversation = loaded(Conversation(tasks))
    with pytest.raises(WireError, match="generator states"):
        conversation.apply(task_frame(0, generators={"x": STATE, "w": STATE}), [])


def test_a_batch_item_reports_its_main_calls_generators() -> None:
    main = Task(("x", "rng"), (np.zeros((2, 1)), np.random.default_rng(5)), flush=False)
    item = Task(("x", "rng"), (), item=BatchItem(1, (("x", 0),)))
    assert encode_tasks([main, item]).generators == (frozenset({"rng"}),) * 2


COUNTED = Task(("f", "x"), (InputFunction("f", "def f(x):\n    return x"), np.zeros(2)))


def test_how_often_a_call_called_its_function_inputs_is_kept() -> None:
    conversation = loaded(Conversation(encode_tasks([COUNTED])))
    conversation.apply(task_frame(0, calls={"f": 4}), [])
    assert conversation.result.outcomes[0].calls == {"f": 4}


@pytest.mark.parametrize(
    "calls",
    [
        None,  # a function input's count missing
        {},
        {"f": 4, "x": 1},  # an argument that is no function
        {"x": 1},
        {"f": -1},  # what the harness sends of a count the code replaced
        {"f": 1 << 62},
        {"f": 4.0},
        {"f": True},
        {"f": "4"},
        [["f", 4]],
    ],
)
def test_counts_other_than_one_int_per_function_input_are_refused(calls: Any) -> None:
    conversation = loaded(Conversation(encode_tasks([COUNTED])))
    extra = {} if calls is None else {"calls": calls}
    with pytest.raises(WireError, match="call counts"):
        conversation.apply(task_frame(0, **extra), [])


def test_a_batch_item_counts_its_main_calls_function_inputs() -> None:
    main = Task(("f", "x"), (COUNTED.args[0], np.zeros((2, 1))), flush=False)
    item = Task(("f", "x"), (), item=BatchItem(1, (("x", 0),)))
    assert encode_tasks([main, item]).functions == (frozenset({"f"}),) * 2


GREW = {
    "line": 4,
    "kind": "recursion",
    "name": "rows",
    "count": 5,
    "elements": 27,
    "fewer": 4,
    "fewer_elements": 10,
}


def test_the_public_calls_repeated_work_is_read_only_when_asked() -> None:
    asked = encode_tasks([PUBLIC, HIDDEN_MAIN, *HIDDEN_SLICES], repeats=True)
    for tasks, expected in ((asked, Growth.from_dict(GREW)), (encode_tasks([PUBLIC]), None)):
        conversation = loaded(Conversation(tasks))
        conversation.apply(task_frame(0), [])
        done = {"kind": "public_done", "dropped_chars": 0, "repeats": GREW}
        assert conversation.apply(done, []) is Next.SEND_CASE
        assert conversation.result.repeats == expected
    frame = b"".join(bytes(piece) for piece in request_frame("code", "f", asked))
    assert b'"repeats":true' in frame


@pytest.mark.parametrize("hostile", [GREW | {"count": -3}, GREW | {"kind": "loop"}, "line 4"])
def test_a_forged_count_is_a_protocol_error(hostile: object) -> None:
    tasks = encode_tasks([PUBLIC], repeats=True)
    conversation = loaded(Conversation(tasks))
    conversation.apply(task_frame(0), [])
    with pytest.raises((ValueError, KeyError, TypeError)):
        conversation.apply({"kind": "public_done", "dropped_chars": 0, "repeats": hostile}, [])
