"""Submit numjudge exercises from Python and Jupyter (``%load_ext numjudge_client``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from numjudge_client._client import Client, Exercise, ExerciseDetail
from numjudge_client._config import config_dir, credentials_path
from numjudge_client._errors import (
    GradingTimedOut,
    Interrupted,
    InvalidToken,
    NotSignedIn,
    NotWhatRan,
    NumjudgeError,
    RateLimited,
    ServerError,
    ServerUnreachable,
    SourceNotFound,
)
from numjudge_client._language import Language
from numjudge_client._results import (
    Diagnosis,
    Kind,
    Result,
    Status,
    TestResult,
    TestStatus,
    Verdict,
    Visibility,
)
from numjudge_client._sent import Origin, SentCode

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

__all__ = [
    "Client",
    "Diagnosis",
    "Exercise",
    "ExerciseDetail",
    "GradingTimedOut",
    "Interrupted",
    "InvalidToken",
    "Kind",
    "Language",
    "NotSignedIn",
    "NotWhatRan",
    "NumjudgeError",
    "Origin",
    "RateLimited",
    "Result",
    "SentCode",
    "ServerError",
    "ServerUnreachable",
    "SourceNotFound",
    "Status",
    "TestResult",
    "TestStatus",
    "Verdict",
    "Visibility",
    "config_dir",
    "credentials_path",
    "load_ipython_extension",
]


def load_ipython_extension(shell: InteractiveShell) -> None:
    """``%load_ext numjudge_client``: IPython is imported only here (an optional dependency)."""
    from numjudge_client._magics import load_ipython_extension as load

    load(shell)
