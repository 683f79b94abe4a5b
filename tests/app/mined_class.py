"""A class of submissions to exercises/gru-update-gate graded by the real sandbox and stored as
grading stores them, for the tests of mining (app/services/mining.py) and its pages and CLI."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

from app.models import Role, Submission, SubmissionStatus
from app.runtime.context import GradingRuntime
from app.store import accounts as account_store
from graders.api import CpuPriority

EXERCISE = "gru-update-gate"
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

HALVED = """import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1 / (1 + np.exp(-0.5 * (joined @ W_z.T + b_z)))
"""
HALVED_OTHERWISE = """import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    # the gate of a GRU
    pre = np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z
    return 1.0 / (1.0 + np.exp(-pre / 2))
"""
SQUARED = """import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return (1 / (1 + np.exp(-(joined @ W_z.T + b_z)))) ** 2
"""
DOUBLE_BIAS = """import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1 / (1 + np.exp(-(joined @ W_z.T + 2 * b_z)))
"""
HINT = "The pre-activation is halved before the sigmoid."
JA = {"ja": "シグモイドの前で前活性化が半分になっています。"}


class Submit(Protocol):
    def __call__(
        self, name: str, code: str, role: Role = Role.LEARNER, *, stored: str | None = None
    ) -> str: ...


def graded(runtime: GradingRuntime) -> Submit:
    """``submit(name, code, role)``: the code graded by the sandbox and stored as grading
    stores it; its id. ``stored``: the code kept in the row instead, one that behaves as
    ``code`` did when graded and differently later."""
    prepared = runtime.catalog.prepared(EXERCISE)
    clock = iter(range(1000))

    def submit(
        name: str, code: str, role: Role = Role.LEARNER, *, stored: str | None = None
    ) -> str:
        report = runtime.grade(prepared, code, False, CpuPriority.NORMAL)
        with runtime.sessions() as session:
            user = account_store.get_user_by_name(session=session, name=name)
            if user is None:
                user = account_store.create_user(session=session, name=name, role=role)
            row = Submission(
                user_id=user.id,
                exercise_id=EXERCISE,
                exercise_version=prepared.exercise.version,
                code=code if stored is None else stored,
                status=SubmissionStatus.DONE,
                verdict=report.verdict,
                score=report.score,
                max_score=report.max_score,
                tests=[t.to_dict() for t in report.tests],
                diagnosis=report.diagnosis.to_dict() if report.diagnosis else None,
                created_at=START + timedelta(minutes=next(clock)),
            )
            session.add(row)
            session.commit()
            return row.id

    return submit
