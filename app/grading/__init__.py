"""The grading pipeline of the service, in the order a submission meets it: ``queue`` wakes
workers, ``lifecycle`` claims a row, grades it through ``engine`` and stores the report,
``waiters`` hand the result to a request that waits for it; ``runtime`` builds what one process
needs, ``workers`` runs the grading threads, ``heartbeat`` and ``recovery`` keep the rows and
the workers' records true after a fault."""
