"""The queue is handed the function it calls; it knows nothing of grading."""

from __future__ import annotations

import logging
import threading
import uuid

import pytest

from app.runtime.queue import GradingQueue, QueueUnavailable
from tests.app.live import free_port


def test_the_consumer_calls_the_function_it_was_handed() -> None:
    queue = GradingQueue("memory://", f"test-{uuid.uuid4().hex[:8]}")
    seen: list[str] = []
    done = threading.Event()

    def handler(submission_id: str) -> None:
        seen.append(submission_id)
        done.set()

    queue.start_embedded(1, handler)
    try:
        queue.enqueue("abc")
        assert done.wait(timeout=30)
    finally:
        queue.stop()
    assert seen == ["abc"]


def test_an_unreachable_queue_raises_queue_unavailable() -> None:
    queue = GradingQueue(f"redis://127.0.0.1:{free_port()}/0", "nowhere")
    with pytest.raises(QueueUnavailable):
        queue.enqueue("abc")
    with pytest.raises(QueueUnavailable, match="NUMJUDGE_QUEUE_URL"):
        queue.check()


def test_a_task_that_ran_is_no_error_when_the_storage_fails_afterwards(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis went down while the grading ran: the grading was stored, nothing to report."""
    queue = GradingQueue("memory://", f"after-{uuid.uuid4().hex[:6]}")
    handled: list[str] = []
    consumer = queue.make_consumer(1, handled.append, embedded=True)
    queue.enqueue("s1")
    worker = consumer._create_worker()

    def down(*args: object) -> None:
        raise ConnectionError("Redis is gone")

    monkeypatch.setattr(queue.huey.storage, "pop_data", down)
    monkeypatch.setattr(queue.huey.storage, "delete_data", down, raising=False)
    worker.loop()
    assert handled == ["s1"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_report_message_waits_behind_every_grading_message() -> None:
    """Similarity reports run on the queue at a lower priority than gradings."""
    queue = GradingQueue("memory://", f"reports-{uuid.uuid4().hex[:6]}")
    seen: list[str] = []
    consumer = queue.make_consumer(
        1,
        lambda s: seen.append(f"grade {s}"),
        embedded=True,
        reports=lambda r: seen.append(f"report {r}"),
    )
    queue.enqueue_report("r1")
    queue.enqueue("s1")
    queue.enqueue("s2")
    worker = consumer._create_worker()
    for _ in range(3):
        worker.loop()
    assert seen == ["grade s1", "grade s2", "report r1"]


def test_a_report_message_is_sent_without_a_priority_where_the_storage_has_none() -> None:
    """Redis's plain storage refuses a priority: the report's message is sent as it is (here
    the server is down, so the send fails on the connection, not on the priority)."""
    queue = GradingQueue(f"redis://127.0.0.1:{free_port()}/0", "nowhere")
    with pytest.raises(QueueUnavailable) as refused:
        queue.enqueue_report("r1")
    assert "priorit" not in str(refused.value)
