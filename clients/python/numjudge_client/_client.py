"""``Client``: the numjudge HTTP API (exercises, starter code, runs and submissions)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

from numjudge_client._config import DEFAULT_SERVER, load_credentials
from numjudge_client._errors import (
    GradingTimedOut,
    Interrupted,
    InvalidToken,
    NotSignedIn,
    RateLimited,
    ServerError,
    ServerUnreachable,
    Translatable,
)
from numjudge_client._guard import check
from numjudge_client._inputs import PublicCase, public_cases
from numjudge_client._language import Language, learner_language, say
from numjudge_client._results import Kind, Result, Status
from numjudge_client._sent import SentCode
from numjudge_client._source import CodeOrFunction, code_of, entry_code, sendable

# The server holds a request at most this long (NUMJUDGE_MAX_WAIT_S); longer waits poll.
SERVER_WAIT_S = 30.0
POLL_S = 0.5


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    difficulty: str
    tags: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.id}  {self.title}  ({self.difficulty})"


@dataclass(frozen=True)
class ExerciseDetail:
    id: str
    title: str
    entry: str
    starter_code: str
    statement_markdown: str
    public_cases: tuple[str, ...]


class Client:
    """A numjudge server seen by one learner.

    ``Client("http://127.0.0.1:8000", token)``, or ``Client.from_config()`` for what
    ``%numjudge login`` saved (``NUMJUDGE_SERVER`` / ``NUMJUDGE_TOKEN`` win over it).
    ``language`` (``"en"``, ``"ja"``) is the one results, messages, hints and the client's
    own errors are written in: by default the saved one (``%numjudge language``), else the
    locale's.
    """

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        language: Language | str | None = None,
    ) -> None:
        self.server = server.rstrip("/")
        self.timeout = timeout
        self.language = learner_language(language)
        self._token = token
        # The server writes results, messages and hints in the request's language.
        headers = {"Accept-Language": self.language.value}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._http = httpx.Client(
            base_url=self.server, headers=headers, timeout=timeout, transport=transport
        )

    @classmethod
    def from_config(
        cls, *, timeout: float = 30.0, language: Language | str | None = None
    ) -> Client:
        credentials = load_credentials()
        return cls(credentials.server, credentials.token, timeout=timeout, language=language)

    def __repr__(self) -> str:
        return f"Client({self.server!r}, signed_in={self._token is not None})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def exercises(self) -> list[Exercise]:
        """Every exercise in course order."""
        return [
            Exercise(
                id=e["id"], title=e["title"], difficulty=e["difficulty"], tags=tuple(e["tags"])
            )
            for e in self._request("GET", "/exercises").json()
        ]

    def exercise(self, exercise_id: str, *, lang: str | None = None) -> ExerciseDetail:
        """The exercise, its title and statement in ``lang`` (by default the client's)."""
        params = {"lang": lang or self.language.value}
        data = self._request("GET", f"/exercises/{exercise_id}", params=params).json()
        return ExerciseDetail(
            id=data["id"],
            title=data["title"],
            entry=data["entry"],
            starter_code=data["starter_code"],
            statement_markdown=data["statement_markdown"],
            public_cases=tuple(data["public_cases"]),
        )

    def public_inputs(self, exercise_id: str) -> tuple[PublicCase, ...]:
        """The public cases' inputs (``()`` for an exercise of several entries, or a server
        that does not serve them)."""
        try:
            data = self._request("GET", f"/exercises/{exercise_id}/public-inputs").json()
        except ServerError as exc:
            if exc.status_code == httpx.codes.NOT_FOUND:
                self.exercise(exercise_id)  # an unknown exercise says so; an older server: none
                return ()
            raise
        return public_cases(data)

    def starter(self, exercise_id: str) -> str:
        """The exercise's starter code."""
        return self.exercise(exercise_id).starter_code

    def run(
        self, exercise_id: str, code_or_function: CodeOrFunction, *, wait: float = 120.0
    ) -> Result:
        """Grades the public cases only (never scored) and waits up to ``wait`` seconds."""
        with self._in_language():
            return self._grade(Kind.RUN, exercise_id, code_or_function, wait)

    def submit(
        self, exercise_id: str, code_or_function: CodeOrFunction, *, wait: float = 120.0
    ) -> Result:
        """Grades every case; waits up to ``wait`` seconds (0: return the queued submission).

        A function is sent as its module's source; in a notebook, with the functions, classes,
        constants and imports it reads, as the kernel has them (``result.sent`` shows it).
        """
        with self._in_language():
            return self._grade(Kind.SUBMIT, exercise_id, code_or_function, wait)

    def submit_notebook(
        self,
        exercise_id: str,
        notebook: str | Path,
        *,
        wait: float = 120.0,
        kind: Kind = Kind.SUBMIT,
    ) -> Result:
        """Runs the notebook's file top to bottom in a fresh kernel and grades the exercise's
        entry as that run defines it (checked there on the public inputs first); ``kind``
        ``Kind.RUN`` grades the public cases only."""
        from numjudge_client._notebook import run_notebook

        self.require_token()
        entries = self.exercise(exercise_id).entry.split(", ")
        cases = self.public_inputs(exercise_id) if len(entries) == 1 else ()
        sent = run_notebook(Path(notebook), entries, cases, self.language)
        return self._grade(kind, exercise_id, sent, wait)

    def result(self, submission_id: str) -> Result:
        """A submission's result as it is now."""
        return Result.from_dict(
            self._request("GET", f"/submissions/{submission_id}", signed=True).json(),
            self.language,
        )

    def check_reachable(self) -> None:
        """Raises ``ServerUnreachable`` unless a numjudge server answers at the address (one
        that cannot grade right now still counts: a token can be checked)."""
        try:
            self._request("GET", "/healthz")
        except ServerError as exc:
            if exc.status_code != httpx.codes.SERVICE_UNAVAILABLE:
                raise ServerUnreachable(
                    self._say(
                        "{server} answers, but not as a numjudge server ({status} on /healthz). "
                        "Is the address right?",
                        status=exc.status_code,
                    )
                ) from None

    def check_token(self) -> None:
        """Raises ``NotSignedIn`` or ``InvalidToken`` unless the server accepts the token."""
        self._request("GET", "/submissions", params={"limit": 1}, signed=True)

    def require_token(self) -> None:
        """Raises ``NotSignedIn`` when there is no token, before anything is asked of a server
        (a learner who never signed in has no server either: the default one)."""
        if not self._token:
            raise NotSignedIn(
                self._say(
                    "Not signed in: run %numjudge login (numjudge login on the command line), "
                    "set NUMJUDGE_TOKEN, or pass token= to Client."
                )
            )

    def _say(self, template: str, /, **values: object) -> str:
        """One of the client's sentences in its language (the server's address filled in)."""
        return say(template, self.language, server=self.server, **values)

    @contextmanager
    def _in_language(self) -> Iterator[None]:
        """The source finder's and the code builder's errors (``Translatable``: said in English
        where they are raised, which knows no language) said in the client's."""
        try:
            yield
        except Translatable as exc:
            raise exc.said_in(self.language) from None

    def _grade(
        self, kind: Kind, exercise_id: str, code_or_function: CodeOrFunction, wait: float
    ) -> Result:
        if callable(code_or_function):
            sendable(code_or_function)  # a function the client cannot send: said first
        self.require_token()
        try:
            sent = self._code(exercise_id, code_or_function)
            before = self._newest(exercise_id, kind)
        except KeyboardInterrupt:
            raise Interrupted(
                self._say(
                    "Interrupted before anything was sent: the {kind} to {exercise} was not made.",
                    kind=kind.value,
                    exercise=exercise_id,
                ),
                None,
            ) from None
        deadline = time.monotonic() + wait
        first_wait = min(wait, SERVER_WAIT_S)
        try:
            result = Result.from_dict(
                self._request(
                    "POST",
                    f"/{kind.value}",
                    params={"wait": first_wait},
                    signed=True,
                    json={"exercise": exercise_id, "code": sent.code},
                    timeout=first_wait + self.timeout,
                ).json(),
                self.language,
            )
        except KeyboardInterrupt:
            raise self._interrupted(exercise_id, kind, before) from None
        try:
            while wait > 0 and result.status is not Status.DONE:
                if time.monotonic() >= deadline:
                    raise GradingTimedOut(
                        self._say(
                            "No result for {exercise} after {wait:g} s: the submission is "
                            "{status}. Get it later with client.result({id!r}) or at {page}.",
                            exercise=exercise_id,
                            wait=wait,
                            status=result.status.value,
                            id=result.id,
                            page=f"{self.server}{result.url}",
                        ),
                        result.id,
                    )
                time.sleep(POLL_S)
                result = self.result(result.id)
        except KeyboardInterrupt:
            raise self._accepted(result.id, result.url) from None
        return result.with_sent(sent)

    def _newest(self, exercise_id: str, kind: Kind) -> tuple[str, str] | None:
        """The id and page of the learner's newest submission of this kind to the exercise."""
        newest = self._request(
            "GET",
            "/submissions",
            params={"exercise": exercise_id, "kind": kind.value, "limit": 1},
            signed=True,
        ).json()
        return (str(newest[0]["id"]), str(newest[0]["url"])) if newest else None

    def _interrupted(
        self, exercise_id: str, kind: Kind, before: tuple[str, str] | None
    ) -> Interrupted:
        """Whether the server accepted what was being sent when the learner interrupted."""
        newest = self._newest(exercise_id, kind)
        if newest is not None and newest != before:
            return self._accepted(*newest)
        return Interrupted(
            self._say(
                "Interrupted: the server did not accept the {kind} to {exercise}; nothing was "
                "graded. Submit again.",
                kind=kind.value,
                exercise=exercise_id,
            ),
            None,
        )

    def _accepted(self, submission_id: str, url: str) -> Interrupted:
        return Interrupted(
            self._say(
                "Interrupted: the submission was accepted (id {id}) and is graded on the server "
                "all the same. Its result: client.result({id!r}) or {page}.",
                id=submission_id,
                page=f"{self.server}{url}",
            ),
            submission_id,
        )

    def _code(self, exercise_id: str, code_or_function: CodeOrFunction) -> SentCode:
        if not callable(code_or_function):
            return code_of(code_or_function)[0]
        function = sendable(code_or_function)
        entry = self.exercise(exercise_id).entry
        # An exercise of several functions or classes (its entry "affine_forward,
        # affine_backward") needs them all by their own names: the notebook's are sent too.
        entries = entry.split(", ")
        sent = entry_code(function, entries)
        if len(entries) == 1:
            cases = self.public_inputs(exercise_id)
            check(sent, entry, function, function.__globals__, cases, self.language)
        return sent

    def _request(
        self, method: str, path: str, *, signed: bool = False, **options: Any
    ) -> httpx.Response:
        if signed:
            self.require_token()
        try:
            response = self._http.request(method, path, **options)
        except httpx.TimeoutException:
            raise ServerUnreachable(
                self._say(
                    "The numjudge server at {server} did not answer in time; try again in a moment."
                )
            ) from None
        except httpx.HTTPError as exc:
            raise ServerUnreachable(
                self._say(
                    "Cannot reach the numjudge server at {server} ({error}). Is the address "
                    "right and the server running?",
                    error=exc,
                )
            ) from None
        if response.is_success:
            return response
        detail = _detail(response)
        if response.status_code == httpx.codes.UNAUTHORIZED:
            raise InvalidToken(
                self._say(
                    "The server at {server} refused the token ({detail}). Create a new one on "
                    "{server}/account and sign in again with %numjudge login.",
                    detail=detail,
                )
            )
        if response.status_code == httpx.codes.TOO_MANY_REQUESTS:
            retry_after = _seconds(response.headers.get("Retry-After"))
            when = (
                self._say("in {seconds:g} s", seconds=retry_after)
                if retry_after is not None
                else self._say("in a moment")
            )
            raise RateLimited(
                self._say(
                    "Too many submissions: {detail}. Try again {when}.", detail=detail, when=when
                ),
                retry_after,
            )
        raise ServerError(
            self._say(
                "The server refused ({status}): {detail}",
                status=response.status_code,
                detail=detail,
            ),
            response.status_code,
        )


def _detail(response: httpx.Response) -> str:
    try:
        return str(response.json()["detail"])
    except (ValueError, KeyError, TypeError):
        return response.text[:300] or response.reason_phrase


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
