"""The author's tools: ``numjudge new`` (``scaffold``), ``numjudge validate`` (``validation`` and
its families of checks), the samples and worked examples it checks, mutation scoring and the
terminal's rendering of reports."""
