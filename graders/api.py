"""The grading engine's public API: the names ``app`` uses.

``app`` imports from ``graders`` only the names listed in ``__all__``, as
``from graders.api import X`` or ``from graders import api`` (checked by tests/test_layers.py).
The benches and the tests use these names too, and besides them the modules they measure or
test (``bench/grading.py`` times the harness, ``tests/graders/sandbox`` the sandbox's parts):
only ``app`` is held to the API.
Each name is imported from its module when it is first asked for (``graders/lazy.py``):
``from graders.api import grade`` loads what grading needs and not the author's tools, which a
one-file ``numjudge grade`` does not use. The imports below are the one list of where each name
lives: type checkers and import-linter read them, and so does ``__getattr__``.
"""

import typing

from graders import lazy

if typing.TYPE_CHECKING:
    from graders.assignments import (
        COURSE_FILE,
        Assignment,
        AssignmentSchedule,
        LatePolicy,
        LatePolicyKind,
        Pace,
    )
    from graders.authoring.mined import MistakeOutcome, add_mistake
    from graders.authoring.mutation_score import (
        MutantStatus,
        MutationScore,
        mutant_statuses,
        mutation_score,
    )
    from graders.authoring.render import format_report
    from graders.authoring.result import ValidationResult, format_validation
    from graders.authoring.scaffold import ScaffoldKind, create_exercise
    from graders.authoring.validation import exercise_folders, validate_course, validate_folder
    from graders.canary import CanaryResult, canary
    from graders.cases import case
    from graders.checks.error_map import ErrorMap, PictureKind
    from graders.checks.rules import RuleKind
    from graders.custom.parsing import parse_inputs
    from graders.custom.trying import (
        TryReport,
        TryStatus,
        input_names,
        max_input_bytes,
        try_inputs,
    )
    from graders.errors import (
        CourseError,
        CustomInputRefused,
        ExerciseError,
        ExerciseNotFound,
        FrameTooLarge,
        GraderError,
        HeaderTooComplex,
        SandboxError,
        SandboxFault,
        SandboxStarved,
        SandboxUnavailable,
        ScheduleError,
        TryOutputTooLarge,
        WireError,
    )
    from graders.exercises import (
        DEFAULT_COURSE_ID,
        CatalogSurvey,
        CourseFolder,
        Exercise,
        ExerciseCatalog,
        ExerciseWords,
        PreparedExercise,
        StaleExercise,
        course_of,
        default_course,
        fill_variant,
        folder_version,
        load_exercise,
        prepare_exercise,
        words_in,
    )
    from graders.grading.grade import grade
    from graders.messages import translate_message
    from graders.mutation.mutants import PREFIX as MUTANT_PREFIX
    from graders.results import Failure, GradeReport, Status, TestResult, Verdict, Visibility
    from graders.sandbox.cpu_affinity import keep_threads_on, process_cpus
    from graders.sandbox.doctor import Layer, LayerState
    from graders.sandbox.doctor import diagnose as diagnose_sandbox
    from graders.sandbox.limits import CpuPriority, SandboxLimits
    from graders.sandbox.runner import Sandbox

__all__ = [
    "COURSE_FILE",
    "DEFAULT_COURSE_ID",
    "MUTANT_PREFIX",
    "Assignment",
    "AssignmentSchedule",
    "CanaryResult",
    "CatalogSurvey",
    "CourseError",
    "CourseFolder",
    "CpuPriority",
    "CustomInputRefused",
    "ErrorMap",
    "Exercise",
    "ExerciseCatalog",
    "ExerciseError",
    "ExerciseNotFound",
    "ExerciseWords",
    "Failure",
    "FrameTooLarge",
    "GradeReport",
    "GraderError",
    "HeaderTooComplex",
    "LatePolicy",
    "LatePolicyKind",
    "Layer",
    "LayerState",
    "MistakeOutcome",
    "MutantStatus",
    "MutationScore",
    "Pace",
    "PictureKind",
    "PreparedExercise",
    "RuleKind",
    "Sandbox",
    "SandboxError",
    "SandboxFault",
    "SandboxLimits",
    "SandboxStarved",
    "SandboxUnavailable",
    "ScaffoldKind",
    "ScheduleError",
    "StaleExercise",
    "Status",
    "TestResult",
    "TryOutputTooLarge",
    "TryReport",
    "TryStatus",
    "ValidationResult",
    "Verdict",
    "Visibility",
    "WireError",
    "add_mistake",
    "canary",
    "case",
    "course_of",
    "create_exercise",
    "default_course",
    "diagnose_sandbox",
    "exercise_folders",
    "fill_variant",
    "folder_version",
    "format_report",
    "format_validation",
    "grade",
    "input_names",
    "keep_threads_on",
    "load_exercise",
    "max_input_bytes",
    "mutant_statuses",
    "mutation_score",
    "parse_inputs",
    "prepare_exercise",
    "process_cpus",
    "translate_message",
    "try_inputs",
    "validate_course",
    "validate_folder",
    "words_in",
]


# Hidden from type checkers, which would otherwise take any name as one the module offers.
if not typing.TYPE_CHECKING:
    __getattr__, __dir__ = lazy.exports(__name__, __file__)
