"""A submission's result as the API returns it, with a text form and the web page's table."""

from __future__ import annotations

import html
import math
import textwrap
import unicodedata
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from numjudge_client._language import Language, say
from numjudge_client._sent import SentCode


class Status(Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class Verdict(Enum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory_limit"


class TestStatus(Enum):
    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"


class Visibility(Enum):
    PUBLIC = "public"
    HIDDEN = "hidden"


class Kind(Enum):
    SUBMIT = "submit"
    RUN = "run"


LABELS = {
    Verdict.PASSED: "Passed",
    Verdict.FAILED: "Failed",
    Verdict.ERROR: "Error",
    Verdict.TIMEOUT: "Time limit exceeded",
    Verdict.MEMORY_LIMIT: "Memory limit exceeded",
    Status.QUEUED: "Queued",
    Status.RUNNING: "Running",
}
MARKS = {TestStatus.PASSED: "PASS", TestStatus.FAILED: "FAIL", TestStatus.ERROR: "ERR "}
# The web page's colours (app/static/css/numjudge.css), inline because a notebook has no stylesheet.
GOOD = ("#166534", "#e7f6ec", "#a7d8b5")
BAD = ("#b42318", "#fdecea", "#f3b4ad")
PENDING = ("#1e3a8a", "#e8effd", "#b9ccf6")
HINT_COLOUR = "#8a4b00"
WIDTH = 88


@dataclass(frozen=True)
class TestResult:
    name: str
    visibility: Visibility
    status: TestStatus
    points: float
    max_points: float
    message: str
    error_map: dict[str, Any] | None = None
    """Where a failed public test's values are wrong (the API's ``error_map``)."""
    title: str = ""
    """The test's name in the reader's language (the API's ``title``); ``name`` elsewhere."""

    @property
    def shown_name(self) -> str:
        return self.title or self.name

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TestResult:
        return cls(
            name=data["name"],
            visibility=Visibility(data["visibility"]),
            status=TestStatus(data["status"]),
            points=float(data["points"]),
            max_points=float(data["max_points"]),
            message=data.get("message") or "",
            error_map=data.get("error_map"),
            title=data.get("title") or "",
        )


@dataclass(frozen=True)
class Diagnosis:
    """The one hint of a submission and the failing tests it explains."""

    hint: str
    cases: tuple[str, ...]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Diagnosis:
        return cls(hint=data["hint"], cases=tuple(data["cases"]))


@dataclass(frozen=True)
class Result:
    """One submission or run. Final when ``status`` is ``Status.DONE``."""

    id: str
    url: str
    exercise: str
    kind: Kind
    status: Status
    verdict: Verdict | None
    score: float | None
    max_score: float | None
    message: str
    tests: tuple[TestResult, ...]
    output: str
    duration_ms: int | None
    diagnosis: Diagnosis | None = None
    sent: SentCode | None = None
    language: Language = Language.EN
    """The language its table is written in (the server wrote its messages in it too)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any], language: Language = Language.EN) -> Result:
        return cls(
            id=data["id"],
            url=data["url"],
            exercise=data["exercise"],
            kind=Kind(data["kind"]),
            status=Status(data["status"]),
            verdict=Verdict(data["verdict"]) if data.get("verdict") else None,
            score=data.get("score"),
            max_score=data.get("max_score"),
            message=data.get("message") or "",
            tests=tuple(TestResult.from_dict(t) for t in data.get("tests") or []),
            output=data.get("output") or "",
            duration_ms=data.get("duration_ms"),
            diagnosis=(Diagnosis.from_dict(data["diagnosis"]) if data.get("diagnosis") else None),
            language=language,
        )

    def with_sent(self, sent: SentCode) -> Result:
        """This result with the code that was sent, its messages' lines named by cell."""
        return replace(
            self,
            sent=sent,
            message=sent.locate(self.message),
            tests=tuple(replace(t, message=sent.locate(t.message)) for t in self.tests),
        )

    @property
    def passed(self) -> bool:
        return self.verdict is Verdict.PASSED

    @property
    def label(self) -> str:
        return say(LABELS[self.verdict or self.status], self.language)

    def explained(self) -> str:
        """The tests the hint explains, by their names in the reader's language."""
        titles = {test.name: test.shown_name for test in self.tests}
        cases = self.diagnosis.cases if self.diagnosis else ()
        separator = "、" if self.language is Language.JA else ", "
        return separator.join(titles.get(case, case) for case in cases)

    def score_text(self) -> str:
        if self.score is None or self.max_score is None:
            return "–"
        return f"{self.score:g} / {self.max_score:g}"

    def __str__(self) -> str:
        words = self.language
        width = max([_columns(t.shown_name) for t in self.tests] + [4])
        lines = [f"{self.exercise} ({self.kind.value}): {self.label}   {self.score_text()}", ""]
        for test in self.tests:
            points = f"{test.points:g}/{test.max_points:g}"
            hidden = f" [{say('hidden', words)}]" if test.visibility is Visibility.HIDDEN else ""
            lines.append(
                f"{MARKS[test.status]}  {_padded(test.shown_name, width)}  {points:>7}{hidden}"
            )
            if test.message:
                lines += textwrap.wrap(
                    test.message, WIDTH, initial_indent=" " * 6, subsequent_indent=" " * 8
                )
        if self.diagnosis:
            hint = say(
                "hint ({cases}): {hint}",
                words,
                cases=self.explained(),
                hint=self.diagnosis.hint,
            )
            lines += ["", *textwrap.wrap(hint, WIDTH, subsequent_indent="  ")]
        if self.message:
            lines += ["", *textwrap.wrap(self.message, WIDTH)]
        if self.output:
            printed = say("printed output:", words)
            lines += ["", printed, textwrap.indent(self.output.rstrip(), "  ")]
        if self.sent is not None and self.sent.origins:
            lines += ["", sent_summary(self.sent, words) + " (result.sent.code)"]
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))

    def _repr_html_(self) -> str:
        return render_html(self)


def _columns(text: str) -> int:
    """How many columns ``text`` takes in a terminal: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def _padded(text: str, columns: int) -> str:
    return text + " " * (columns - _columns(text))


def _palette(result: Result) -> tuple[str, str, str]:
    if result.verdict is None:
        return PENDING
    return GOOD if result.passed else BAD


def _badge(status: TestStatus) -> str:
    fg, bg, border = GOOD if status is TestStatus.PASSED else BAD
    return (
        f'<span class="badge {status.value}" style="display:inline-block;padding:0 0.55em;'
        f"border-radius:999px;font-size:0.85em;font-weight:600;color:{fg};background:{bg};"
        f'border:1px solid {border}">{status.value}</span>'
    )


def _hint(diagnosis: Diagnosis, cases: str, words: Language) -> str:
    e = html.escape
    explains = say("explains: {cases}", words, cases=cases)
    return (
        f'<div class="hint diagnosis" style="color:{HINT_COLOUR};margin:0.5em 0;'
        f'white-space:normal"><b>{e(say("Hint", words))}</b> ({e(explains)})'
        f"<div>{e(diagnosis.hint)}</div></div>"
    )


def sent_summary(sent: SentCode, words: Language = Language.EN) -> str:
    count = len(sent.code.splitlines())
    return say("Code sent: {count} lines", words, count=count) + (
        say(" from {sources}", words, sources=", ".join(sent.sources)) if sent.sources else ""
    )


def _sent(sent: SentCode, words: Language) -> str:
    e = html.escape
    summary = sent_summary(sent, words)
    return (
        f'<details class="code-sent" style="margin-top:0.5em"><summary>{e(summary)}'
        '</summary><pre style="background:#f5f5f5;padding:0.6em 1em;white-space:pre">'
        f"{e(sent.code)}</pre></details>"
    )


def _hidden_tag(test: TestResult, words: Language) -> str:
    if test.visibility is not Visibility.HIDDEN:
        return ""
    return (
        ' <span class="visibility hidden" title="a hidden test: its inputs are not shown" '
        'style="font-size:0.8em;color:#475467;border:1px solid #d0d5dd;border-radius:4px;'
        f'padding:0 0.3em">{html.escape(say("hidden", words))}</span>'
    )


def _row(test: TestResult, words: Language) -> str:
    e = html.escape
    return (
        f'<tr data-status="{test.status.value}" data-visibility="{test.visibility.value}">'
        f'<td style="text-align:left">{e(test.shown_name)}{_hidden_tag(test, words)}</td>'
        f"<td>{_badge(test.status)}</td>"
        f'<td style="text-align:right">{test.points:g} / {test.max_points:g}</td>'
        f'<td class="message" style="text-align:left;font-family:monospace;'
        f'white-space:pre-wrap">{e(test.message)}</td></tr>'
    )


def render_html(result: Result) -> str:
    """The web page's verdict banner, test table and output, with inline styles."""
    e = html.escape
    words = result.language
    fg, bg, border = _palette(result)
    state = (result.verdict or result.status).value
    parts = [
        f'<div class="numjudge-result" data-verdict="{state}" style="font-family:sans-serif">',
        f'<div class="verdict" style="display:flex;justify-content:space-between;gap:1em;'
        f"padding:0.6em 1em;border-radius:8px;background:{bg};border:1px solid {border};"
        f'color:{fg};font-weight:700"><span class="label">{e(result.label)}</span>'
        f'<span class="score">{e(result.score_text())}</span></div>',
    ]
    if result.message:
        parts.append(
            f'<pre class="submission-message" style="color:{BAD[0]};background:{BAD[1]};'
            f'padding:0.6em 1em;white-space:pre-wrap">{e(result.message)}</pre>'
        )
    if result.diagnosis:
        parts.append(_hint(result.diagnosis, result.explained(), words))
    if result.tests:
        hidden = sum(test.visibility is Visibility.HIDDEN for test in result.tests)
        caption = say("{count} tests", words, count=len(result.tests))
        if hidden:
            caption += say(" ({hidden} hidden)", words, hidden=hidden)
        if result.duration_ms is not None:
            caption += say(", graded in {ms} ms", words, ms=result.duration_ms)
        headers = [say(word, words) for word in ("Test", "Status", "Points", "Message")]
        parts.append(
            '<table class="test-table" style="border-collapse:collapse;margin-top:0.5em">'
            f'<caption style="text-align:left">{e(caption)}</caption><thead><tr>'
            f'<th style="text-align:left">{headers[0]}</th><th>{headers[1]}</th>'
            f'<th style="text-align:right">{headers[2]}</th>'
            f'<th style="text-align:left">{headers[3]}</th></tr></thead><tbody>'
        )
        parts += [_row(test, words) for test in result.tests]
        parts.append("</tbody></table>")
        parts += [_error_map(test, words) for test in result.tests if test.error_map]
    if result.output:
        parts.append(
            f'<div><b>{e(say("Output (public cases)", words))}</b></div><pre class="output" '
            'style="background:#111827;color:#e5e7eb;padding:0.6em 1em">'
            f"{e(result.output)}</pre>"
        )
    if result.sent is not None:
        parts.append(_sent(result.sent, words))
    parts.append("</div>")
    return "".join(parts)


def _error_map(test: TestResult, words: Language) -> str:
    """A failed public test's error inline: a grid shaded by the error (a matrix, a slice) or
    a line of the largest error per step or batch item; no plotting library needed. Values
    that are not numbers (``"NaN"``, ``"Infinity"`` in the API) are written, never drawn."""
    e = html.escape
    data = test.error_map or {}
    grid = [[float(x) for x in row] for row in data["error"]]
    finite = [x for row in grid for x in row if math.isfinite(x)]
    scale = max(finite, default=0.0) or 1.0  # the shading's and the line's full height
    worst = "[" + ", ".join(str(i) for i in data["worst"]) + "]"
    head = (
        f'<div class="error-map" data-test="{e(test.name)}" data-kind="{e(data["kind"])}" '
        f'style="margin-top:0.5em"><div><b>{e(test.shown_name)}</b>: '
        + e(
            say(
                "worst element {worst}, error {error:.3g}",
                words,
                worst=worst,
                error=float(data["worst_error"]),
            )
        )
        + "</div>"
    )
    if data["kind"] in ("matrix", "slice"):
        rows, columns = data["ticks"]
        cells = []
        for r, row in zip(rows, grid, strict=True):
            shaded = "".join(
                f'<td style="background:rgba(192,80,77,{_shade(x, scale):.2f});padding:0 0.3em">'
                f"{x:.3g}</td>"
                for x in row
            )
            cells.append(f"<tr><th>{r}</th>{shaded}</tr>")
        top = "".join(f"<th>{c}</th>" for c in columns)
        corner = e(" \\ ".join(data["axes"]))
        return (
            f'{head}<table style="border-collapse:collapse;font-size:0.8em">'
            f"<tr><th>{corner}</th>{top}</tr>{''.join(cells)}</table></div>"
        )
    steps, errors = data["ticks"][0], grid[0]
    last = max(steps[-1], 1)
    points = " ".join(
        f"{300 * step / last:.1f},{78 - 74 * x / scale:.1f}"
        for step, x in zip(steps, errors, strict=True)
        if math.isfinite(x)
    )
    return (
        f'{head}<svg viewBox="0 0 300 80" width="300" height="80" role="img">'
        f"<title>{e(say('largest error per {axis}', words, axis=data['axes'][0]))}</title>"
        f'<polyline fill="none" stroke="#2f6f9f" stroke-width="1.5" points="{points}"/></svg></div>'
    )


def _shade(x: float, scale: float) -> float:
    """A cell's shade: its share of the largest finite error; full for one that is not a
    number (an infinite error, a NaN)."""
    return x / scale if math.isfinite(x) else 1.0
