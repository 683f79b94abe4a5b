"""How the trusted side starts the engine's own processes (the image's builder, the zygotes).

Each starts as ``python -c <launcher>`` with an environment of a few set names: nothing of
the server's secrets, and one thread for numpy's libraries.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
LAUNCHER = """\
import sys, types
for name in ("graders", "graders.sandbox"):
    package = types.ModuleType(name)
    package.__path__ = [{root!r} + "/" + name.replace(".", "/")]
    sys.modules[name] = package
from {module} import main
main()
"""
PASSED_ENVIRONMENT = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
IMAGE_FAILED = "root image not built: "
"""How the report on the root image a zygote is started with begins when it has none
(``shared_image``, ``boot``): the zygote then runs from the host's files."""


def launcher(module: str) -> str:
    """``python -c`` code that runs ``module.main`` with ``graders`` and ``graders.sandbox``
    as bare packages. Their ``__init__`` import the whole engine (exercises, diagnosis,
    mutants and what they import: 62 more modules), which every fork of the zygote would
    carry: about 0.7 ms more CPU per grading in the sandbox and the zygote."""
    return LAUNCHER.format(root=PACKAGE_ROOT, module=module)


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
