"""Exercise folders on the trusted side: reading them, preparing their cases, the catalog.

Callers outside the package import from here; the modules inside import from each other.
"""

from graders.exercises.catalog import CatalogSurvey, ExerciseCatalog, StaleExercise
from graders.exercises.courses import (
    COURSE_DIR_PREFIX,
    DEFAULT_COURSE_ID,
    CourseFolder,
    course_folders,
    course_of,
    default_course,
)
from graders.exercises.loading import folder_version, load_exercise
from graders.exercises.model import (
    Exercise,
    Limits,
    Mistake,
    PreparedCase,
    PreparedExercise,
    WarningPolicy,
)
from graders.exercises.preparation import (
    call_entry,
    entry_function,
    prepare_exercise,
    prepare_reference,
    prepare_version,
)
from graders.exercises.translations import Translation, translation_file
from graders.exercises.variants import fill_variant
from graders.exercises.words import ExerciseWords, check_texts, translation_problems, words_in

__all__ = [
    "COURSE_DIR_PREFIX",
    "DEFAULT_COURSE_ID",
    "CatalogSurvey",
    "CourseFolder",
    "Exercise",
    "ExerciseCatalog",
    "ExerciseWords",
    "Limits",
    "Mistake",
    "PreparedCase",
    "PreparedExercise",
    "StaleExercise",
    "Translation",
    "WarningPolicy",
    "call_entry",
    "check_texts",
    "course_folders",
    "course_of",
    "default_course",
    "entry_function",
    "fill_variant",
    "folder_version",
    "load_exercise",
    "prepare_exercise",
    "prepare_reference",
    "prepare_version",
    "translation_file",
    "translation_problems",
    "words_in",
]
