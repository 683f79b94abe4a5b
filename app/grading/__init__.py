"""The grading pipeline of the service: ``lifecycle`` claims a row, grades it through the
process's engine and stores the report, ``workers`` runs the grading threads, ``heartbeat``
and ``recovery`` keep the rows and the workers' records true after a fault. What these share
with the services (the queue, the waiters, the engine, the runtime that holds them) is
``app.runtime``, below both."""
