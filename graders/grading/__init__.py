"""Grading a submission, step by step: plan what is sent (``plan``), run it in the sandbox and
judge each case (``grade``), hold speed cases to the reference (``speed``), build the report
(``report``). The checks it applies are in ``graders.checks``."""
