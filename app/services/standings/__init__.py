"""What the schedule counts, computed once for every surface that shows it.

``rules`` is the computation itself, pure (no clock, no database): per learner and exercise
the attempt the schedule counts (the best share after the late policy: a cut-off, a penalty, the
learner's own due time), its points, a regrade in progress with both maxima, and a regrade that
changed the score; per assignment the sum, its state and completion; rounding of points
(``rounded``, ``format_points``). ``load`` reads what it needs from the database and the
catalog. The pages, the CSVs, the archive, the API, the learner's banner, the class view and
its chart, and the LMS passback all read their numbers from here (docs/teaching.md).
"""
