"""Errors of the grading engine.

    GraderError
    ├── ExerciseError          an exercise folder is broken (names the file and the field)
    │   ├── ExerciseNotFound   no such exercise folder
    │   ├── CourseError        a course folder's about.toml is broken (names the file and
    │   │                      the field)
    │   └── ScheduleError      course.toml, the assignment schedule, is broken (names the
    │                          assignment and the field)
    ├── CustomInputRefused a learner's own input is not one the engine reads (names the input
    │   │                  and the position), or is too large
    │   └── TryOutputTooLarge a try's call returned more than a try may hold (names the cap);
    │                      carries the sandbox CPU the try's calls took
    ├── MutantsNotRun          the reference's mutants could not be run (memory, time): the
    │                          exercise is prepared without them, and validate says why
    ├── WireError              a message between the trusted side and a sandbox is malformed
    │   └── FrameTooLarge      …or larger than what is left of the output budget
    │       └── HeaderTooComplex …or its header holds more JSON values or bytes than
    │                          are left of the submission's, or nests too deeply: refused
    │                          before it is parsed
    └── SandboxError           the sandbox itself failed (not the learner's code)
        ├── SandboxUnavailable a required isolation layer cannot be set up on this machine:
        │                      retrying will not help until the machine or settings change
        └── SandboxFault       the engine lost a grading (a zygote died, a set-up failed, its
            │                  working folder vanished) even after retrying with a fresh
            │                  zygote: retry later, never blame the learner
            └── SandboxStarved the host gave the submission too little CPU to reach a verdict
                               before the wall-clock ceiling (it was runnable, not waiting):
                               not tried again at once, since the host is busy now

A learner's crashing code is not an error here: it becomes a GradeReport with an error verdict.
"""

from __future__ import annotations


class GraderError(Exception):
    """Base of every error the engine raises."""


class ExerciseError(GraderError):
    """An exercise folder is malformed; the message names the file and the field."""


class ExerciseNotFound(ExerciseError):
    """No exercise folder with that id."""


class CourseError(ExerciseError):
    """A course folder's ``about.toml`` is malformed; the message names the file and the
    field."""


class ScheduleError(ExerciseError):
    """``course.toml``, the assignment schedule, is malformed; the message names the assignment
    and the field."""


class CustomInputRefused(GraderError):
    """A learner's own input (graders/custom/parsing.py) is refused; the message says which
    input, where and why."""


class TryOutputTooLarge(CustomInputRefused):
    """A call of a try of custom inputs returned more than a try may hold
    (graders/custom/trying.py); ``sandbox_cpu_s`` is the CPU its calls took in the sandbox,
    which the learner's budget of tries counts as for a try that answered."""

    def __init__(self, message: str, sandbox_cpu_s: float) -> None:
        super().__init__(message)
        self.sandbox_cpu_s = sandbox_cpu_s


class MutantsNotRun(GraderError):
    """The subprocess that runs the reference's mutants failed as a whole (it ran out of
    memory or time, or crashed); the message names the cause and what to change."""


class WireError(GraderError):
    """A frame or value on the sandbox channel is malformed or too large."""


class FrameTooLarge(WireError):
    """A frame is larger than the limit or than what is left of the output budget."""


class HeaderTooComplex(FrameTooLarge):
    """A frame header from a sandbox holds more JSON values or bytes than are left of the
    submission's budget, or nests deeper than the limit; found on its length and bytes, before
    it is parsed."""


class SandboxError(GraderError):
    """The sandbox machinery failed."""


class SandboxUnavailable(SandboxError):
    """An isolation layer required by the settings is not available on this machine."""


class SandboxFault(SandboxError):
    """The engine lost a grading to a fault of its own; the submission was not judged."""


class SandboxClosed(SandboxFault):
    """The pool was closed (its process is stopping) while the grading ran: no zygote is
    started again for it."""


class SandboxStarved(SandboxFault):
    """The submission was runnable but got too little CPU before the wall-clock ceiling."""
