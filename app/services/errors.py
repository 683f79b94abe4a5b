"""What the services refuse, as exceptions; ``app.api.errors`` maps them to HTTP answers.

ServiceError
├── NotFound             no such submission, or not one the user may see
├── CodeRejected         code too large or empty
│   └── CodeTooLarge
├── TooManySubmissions   a per-learner limit (waiting, rate); says when to retry
│   └── SubmissionPaced  the schedule's pace (graded submissions per day, cooldown)
├── BudgetSpent          the schedule's submission budget of an exercise is used up
├── CustomInputsOff      the exercise does not take a learner's own inputs
└── IdempotencyConflict  an Idempotency-Key reused for a different submission
"""

from __future__ import annotations

from app.services.budgets import Limit
from app.services.wording import Wording


class ServiceError(Exception):
    """Base of the errors a service raises for its caller to show; the text is the detail, in
    English, or a :class:`Wording` that the API tells in the reader's language."""

    def __init__(self, message: str | Wording) -> None:
        super().__init__(str(message))
        self.wording = message if isinstance(message, Wording) else None

    def told_in(self, lang: str) -> str:
        return self.wording.told_in(lang) if self.wording is not None else str(self)


class NotFound(ServiceError):
    pass


class CodeRejected(ServiceError):
    pass


class CodeTooLarge(CodeRejected):
    pass


class TooManySubmissions(ServiceError):
    def __init__(self, message: str | Wording, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class CustomInputsOff(ServiceError):
    pass


class SubmissionPaced(TooManySubmissions):
    """A bound of ``course.toml`` that passes: the day's graded submissions, the cooldown."""

    def __init__(self, message: str | Wording, retry_after_s: int, limit: Limit) -> None:
        super().__init__(message, retry_after_s)
        self.limit = limit


class IdempotencyConflict(ServiceError):
    pass


class BudgetSpent(ServiceError):
    """Final, unlike TooManySubmissions: no later retry is accepted."""
