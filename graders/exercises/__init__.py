"""Exercise folders on the trusted side: reading them, preparing their cases, the catalog.

Callers outside the package import from here; the modules inside import from each other.
"""

from graders.exercises.catalog import CatalogSurvey, ExerciseCatalog
from graders.exercises.loading import folder_version, load_exercise
from graders.exercises.model import (
    Exercise,
    Limits,
    Mistake,
    PreparedCase,
    PreparedExercise,
    WarningPolicy,
)
from graders.exercises.preparation import entry_function, prepare_exercise, prepare_version

__all__ = [
    "CatalogSurvey",
    "Exercise",
    "ExerciseCatalog",
    "Limits",
    "Mistake",
    "PreparedCase",
    "PreparedExercise",
    "WarningPolicy",
    "entry_function",
    "folder_version",
    "load_exercise",
    "prepare_exercise",
    "prepare_version",
]
