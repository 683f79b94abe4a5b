"""How the trusted side starts the engine's own processes (the image's builder, the zygotes).

Each starts as ``python -c <launcher>`` with an environment of a few set names: nothing of
the server's secrets, and one thread for numpy's libraries.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
LAUNCHER = """\
from {module} import main
main()
"""
PASSED_ENVIRONMENT = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
IMAGE_FAILED = "root image not built: "
"""How the report on the root image a zygote is started with begins when it has none
(``shared_image``, ``boot``): the zygote then runs from the host's files."""


def launcher(module: str) -> str:
    """``python -c`` code that runs ``module.main``. It imports only what ``module`` imports:
    ``graders/__init__.py`` and ``graders/sandbox/__init__.py`` import nothing, as the rest of
    the engine (exercises, diagnosis, mutants: 62 more modules) would be carried by every fork
    of the zygote, about 0.7 ms more CPU per grading in the sandbox and the zygote."""
    return LAUNCHER.format(module=module)


def child_environment() -> dict[str, str]:
    """The whole environment of the engine's processes."""
    env = {
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONPATH": PACKAGE_ROOT,
        "PYTHONDONTWRITEBYTECODE": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    env.update({k: os.environ[k] for k in PASSED_ENVIRONMENT if k in os.environ})
    return env
