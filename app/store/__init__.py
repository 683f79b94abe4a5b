"""Database queries, and nothing else: every function takes keyword-only arguments.

One module per aggregate, roughly in the order a submission meets them::

    accounts     users, sections, sign-up links, passwords, API tokens, web sessions, secrets
    throttles    rate-limit counters
    submissions  storing a submission, reading it and its learner's load back, scores
    leases       the grading lease: the fair claim, finish, release and requeue (compare-and-set)
    regrades     stale submissions queued again, and the reports they had before
    courses      per-learner due-date extensions
    workers      grading processes' heartbeats and the queue backlog they report
    lti          LMS registrations, the tool's key pairs, the launch cache, LMS users' links

Its callers are ``app.services``, ``app.grading`` and the CLI; the pages and the API reach the
database only through ``app.services`` (import-linter contracts in pyproject.toml).
"""
