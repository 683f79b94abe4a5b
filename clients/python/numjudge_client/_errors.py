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

Most are said where they are raised, in the client's language. ``SourceNotFound`` and
``NotebookFailed`` are ``Translatable``: raised where the language is not known (the code
builder and the source finder stay language-free), they keep their sentence as its English
template and values, and whoever shows them (the ``Client``, the notebook commands, the fresh
kernel of whole-notebook mode) says them in the learner's language with ``said_in``.
"""

from __future__ import annotations

from numjudge_client._language import Language, say


class NumjudgeError(Exception):
    """Base of every error of this package; its text is a sentence meant for the learner."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the sentence is the whole story."""
        return [f"{type(self).__name__}: {self}"]

    def said_in(self, language: Language) -> NumjudgeError:
        """This error as the learner reads it in ``language``: itself, said where it was
        raised (``Translatable`` says it again)."""
        return self


class Translatable(NumjudgeError):
    """An error whose sentence is one of the client's templates (``_language``) and the values
    it is filled with: English until ``said_in`` says it in another language."""

    def __init__(
        self, template: str, /, language: Language = Language.EN, **values: object
    ) -> None:
        super().__init__(say(template, language, **values))
        self.template = template
        self.values = values

    def said_in(self, language: Language) -> Translatable:
        return type(self)(self.template, language, **self.values)


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


class SourceNotFound(Translatable):
    pass


class NotWhatRan(NumjudgeError):
    """Nothing was sent: ``name`` (a variable) or the public case ``case`` tells the code to
    send from the kernel's function."""

    def __init__(self, message: str, *, name: str | None = None, case: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.case = case


class NotebookFailed(Translatable):
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
