"""The process's context, shared by the services and the grading pipeline: ``context`` builds
what one process needs (``GradingRuntime``), ``queue`` wakes grading threads, ``engine`` grades
through the process's sandbox pool, ``waiters`` hand a result to a request that waits for it,
``tries`` counts the custom-input tries in flight. It imports neither ``app.services`` nor
``app.grading``."""
