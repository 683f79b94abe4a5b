"""The checks a grading applies, each pure of the sandbox's running: compare outputs with the
expected ones (``compare``), redact what hidden tests may say (``hidden``), name layout mistakes
(``layout``), recognise known mistakes (``diagnosis``), word the advice of a message
(``advice``). Running a submission and judging it with these is ``graders.grading``."""
