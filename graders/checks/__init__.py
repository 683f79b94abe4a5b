"""Judging a run: compare outputs with the expected ones (``compare``), turn the sandbox's
outcomes into test results (``judge``), redact what hidden tests may say (``hidden``), name
layout mistakes (``layout``) and recognise known mistakes (``diagnosis``)."""
