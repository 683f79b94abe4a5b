"""The queue is handed the function it calls; it knows nothing of grading."""

from __future__ import annotations

import ast
import threading
import uuid
from pathlib import Path

import pytest

from app.queue import GradingQueue, QueueUnavailable
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


def test_the_queue_module_imports_no_service() -> None:
    source = Path(__file__).resolve().parents[2] / "app" / "queue.py"
    imported = {node.module for node in ast.walk(ast.parse(source.read_text()))
                if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(ast.parse(source.read_text()))
                 if isinstance(node, ast.Import) for alias in node.names}
    assert not {name for name in imported if name.startswith("app.services")}
