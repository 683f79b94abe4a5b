"""numjudge's grading engine: exercise folders, the sandbox, array-aware checks, reports.

This package's ``__init__`` imports nothing, so that the engine's own processes (the zygote, the
root image's builder) start with only the modules they use. The public API is ``graders.api``;
``graders`` never imports ``app`` (an import-linter contract in pyproject.toml).
"""
