"""What can go wrong talking to a numjudge server, one class per thing a learner can act on.

NumjudgeError
 ├── NotSignedIn          no token given or saved (run ``%numjudge login``)
 ├── InvalidToken         401: the server does not know the token, or it was revoked
 ├── ServerUnreachable    connection refused, DNS, TLS, or no answer in time
 ├── RateLimited          429: too many submissions; ``retry_after`` seconds if the server says
 ├── GradingTimedOut      the submission is accepted but no result came within ``wait``
 ├── SourceNotFound       a function object whose source code cannot be found
 ├── NotWhatRan           the code to send does not compute what the kernel's function does
 ├── NotebookFailed       whole-notebook mode: the notebook cannot be read, or a cell raised
 ├── Interrupted          Ctrl-C or a kernel interrupt while a submission was sent or graded
 └── ServerError          any other refusal (404 unknown exercise, 413, 5xx), its detail
"""

from __future__ import annotations


class NumjudgeError(Exception):
    """Base of every error of this package; its text is a sentence meant for the learner."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the sentence is the whole story."""
        return [f"{type(self).__name__}: {self}"]


class NotSignedIn(NumjudgeError):
    pass


class InvalidToken(NumjudgeError):
    pass


class ServerUnreachable(NumjudgeError):
    pass


class RateLimited(NumjudgeError):
    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class GradingTimedOut(NumjudgeError):
    def __init__(self, message: str, submission_id: str) -> None:
        super().__init__(message)
        self.submission_id = submission_id


class SourceNotFound(NumjudgeError):
    pass


class NotWhatRan(NumjudgeError):
    """Nothing was sent: ``name`` (a variable) or the public case ``case`` tells the code to
    send from the kernel's function."""

    def __init__(self, message: str, *, name: str | None = None, case: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.case = case


class NotebookFailed(NumjudgeError):
    pass


class Interrupted(NumjudgeError):
    """The learner interrupted a submit; ``submission_id`` is set when the server accepted it
    (its grading goes on there), ``None`` when nothing was accepted."""

    def __init__(self, message: str, submission_id: str | None) -> None:
        super().__init__(message)
        self.submission_id = submission_id


class ServerError(NumjudgeError):
    def __init__(self, message: str, status_code: int) -> None:
        super().__init__(message)
        self.status_code = status_code
