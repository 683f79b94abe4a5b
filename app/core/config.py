"""The service's settings: one class, read from ``NUMJUDGE_*`` variables or a ``.env`` file."""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.core.redact import url_secrets

if TYPE_CHECKING:
    from graders.api import SandboxLimits

MIN_SECRET_KEY_LENGTH = 32


def default_workers() -> int:
    """Two more grading threads than the cores this process may use (its sandboxes' cores,
    which its own threads may be kept off: ``service_cpus``).

    A grading thread spends much of a grading waiting: for its sandbox to start and for
    every hidden case's round trip. With as many threads as cores, two cores were busy 73 %
    of the time under load; with two more, 86 %, for a quarter more submissions per second
    (docs/performance.md).
    """
    # Imported here: importing the settings loads neither the engine nor numpy.
    from graders.api import process_cpus

    return min(len(process_cpus()) + 2, 64)


class SmtpSecurity(Enum):
    """How the connection to the SMTP server is protected."""

    STARTTLS = "starttls"  # a plain connection upgraded with STARTTLS (port 587)
    TLS = "tls"  # TLS from the first byte (port 465)
    NONE = "none"  # no encryption: a relay on the same host or a private network only


class Settings(BaseSettings):
    """Every knob of the service; ``NUMJUDGE_<NAME>`` sets ``<name>``."""

    model_config = SettingsConfigDict(env_prefix="NUMJUDGE_", env_file=".env", extra="ignore")

    database_url: str = Field(
        "sqlite:///./numjudge.db",
        description="SQLAlchemy URL: sqlite:///./numjudge.db or postgresql+psycopg://…",
    )
    exercises_dir: Path = Field(Path("./exercises"), description="folder of exercise folders")
    clients_dir: Path | None = Field(
        None,
        description="folder of the built clients the account page offers: the Python client's "
        "wheel (numjudge_client-*.whl) and the VS Code extension (numjudge.vsix)",
    )
    queue_url: str = Field(
        "sqlite:///./numjudge-queue.db",
        description="Huey storage: sqlite:///path, redis://host:6379/0 or memory://",
    )
    queue_name: str = Field(
        "numjudge",
        min_length=1,
        description="the queue's name in its "
        "storage: deployments sharing one Redis need different names",
    )
    workers: int = Field(
        default_factory=default_workers,
        ge=0,
        le=64,
        description="grading threads for learners per serve/worker process "
        "(default: the cores this process may use, plus two)",
    )
    service_cpus: int = Field(
        1,
        ge=0,
        le=1024,
        description="cores the threads of a serve "
        "or worker process run on (0: all): they share one interpreter "
        "lock, handed over cheaply on one core; its sandboxes and other "
        "subprocesses use every core (docs/performance.md)",
    )
    cores_dir: Path | None = Field(
        None,
        description="folder of the lock files by which the "
        "numjudge processes of a host claim their cores (default: "
        "/run/numjudge/cores, or one in the temporary folder)",
    )
    sandbox_workers: int = Field(
        0, ge=0, le=64, description="warm sandbox processes (0: as many as workers)"
    )
    sandbox_strict: bool = Field(
        True,
        description="refuse to grade when an isolation layer "
        "cannot be set up (docs/sandbox.md); keep true in production",
    )
    sandbox_uid_base: int = Field(61000, ge=1000, description="worker slot k grades as uid base+k")
    sandbox_max_output_mb: int = Field(64, ge=1, description="bytes a submission may send back")
    max_code_bytes: int = Field(100_000, ge=1, description="largest accepted submission, bytes")
    max_wait_s: float = Field(30.0, ge=0, description="longest ?wait= of POST /submit")
    wait_poll_s: float = Field(
        0.25, gt=0, description="database poll period of a long-poll (remote workers)"
    )
    queue_lease_s: float = Field(
        60.0, gt=0, description="a queued submission not started by then is re-sent"
    )
    lease_margin_s: float = Field(30.0, ge=0, description="grace added to an exercise's time limit")
    max_attempts: int = Field(3, ge=1, description="gradings tried before giving up")
    recovery_interval_s: float = Field(5.0, gt=0, description="period of the lease check")
    max_running_per_learner: int = Field(1, ge=1, description="gradings of one learner at once")
    measure_first_rungs: bool = Field(
        True,
        description="measure each exercise's first rung of the release ladder from its own "
        "reference and mistakes (false: every exercise's is 100 ms, docs/security.md)",
    )
    prepare_at_start: bool = Field(
        True,
        description="prepare every exercise in the background when a grading process starts, "
        "so that no exercise's first submission waits for it (false: each exercise is prepared "
        "at its first submission)",
    )
    regrade_workers: int = Field(
        1,
        ge=0,
        le=8,
        description="grading threads per grading "
        "process that take only regrades, beside `workers`, at the "
        "lowest CPU priority (`background_lowest_priority`; 0: this process grades no "
        "regrades)",
    )
    similarity_cpu_s: float = Field(
        300.0,
        gt=0,
        le=86_400,
        description="CPU seconds a similarity report may spend comparing pairs, in a process "
        "of its own at the lowest CPU priority; past them the pairs left are not compared "
        "and the report says how many (the process is stopped a minute of CPU later)",
    )
    background_lowest_priority: bool = Field(
        True,
        description="work nobody is waiting for (regrades, the rediagnosis after a mined "
        "mistake is written, similarity reports) runs below every other process (nice 19 and "
        "the idle policy: it waits while anything else wants the CPU, however long); false: "
        "at the service's own priority, for a host kept busy where that work must still "
        "finish (the test suite's, whose hosts run two copies of it at once)",
    )
    max_running_regrades: int = Field(
        1, ge=1, description="regrades graded at once on all grading processes together"
    )
    max_waiting_per_learner: int = Field(
        10, ge=1, description="queued submissions of one learner; more get 429 with Retry-After"
    )
    submit_rate_per_minute: int = Field(
        0, ge=0, description="submissions and runs a learner may send per minute (0: no limit)"
    )
    try_cpu_s_per_hour: float = Field(
        600.0,
        ge=0,
        description="CPU seconds a learner's tries of custom inputs may take an hour: both "
        "calls in the sandbox and the reading of the inputs on the server (0: no limit)",
    )
    heartbeat_interval_s: float = Field(
        5.0,
        gt=0,
        description="period of a grading process's "
        "heartbeat; missing three in a row counts as dead",
    )
    worker_silence_s: float = Field(
        12.0,
        gt=0,
        description="a grading process whose "
        "heartbeat is this old is dead: its running gradings are "
        "put back at the next recovery pass and its record "
        "removed (keep it above two heartbeat periods)",
    )
    canary_interval_s: float = Field(
        10.0, gt=0, description="period of the canary grading that proves the sandbox works"
    )
    canary_max_age_s: float = Field(
        30.0,
        gt=0,
        description="/healthz answers 503 when no live worker has a passing canary this recent",
    )
    backoff_max_s: float = Field(
        5.0,
        gt=0,
        description="longest pause between retries while the database or the queue is down",
    )
    history_limit: int = Field(50, ge=1, le=1000, description="default length of a history page")
    auto_migrate: bool = Field(True, description="apply migrations when a process starts")
    secret_key: SecretStr | None = Field(
        None,
        description="signs web session cookies; unset: a random key is generated on first "
        f"start and kept in the database. At least {MIN_SECRET_KEY_LENGTH} characters",
    )
    signup_open: bool | None = Field(
        None,
        description="anyone may create a learner account on the web: true, false, or unset: "
        "open until a roster is imported (then the roster is the class)",
    )
    signup_limit: int = Field(
        50,
        ge=1,
        description="sign-ups per hour from one address (a "
        "classroom behind one NAT counts as one address)",
    )
    login_failures_per_name: int = Field(
        10, ge=1, description="failed sign-ins per 5 minutes for one name from one address"
    )
    login_failures_per_address: int = Field(
        100, ge=1, description="failed sign-ins per 5 minutes from one address, any names"
    )
    max_concurrent_hashes: int = Field(
        2,
        ge=1,
        le=64,
        description="password hashes computed "
        "at once per process (each takes ~64 MB for ~0.1 s); "
        "beyond: 429 with Retry-After",
    )
    signup_link_days: int = Field(
        14, ge=1, le=365, description="days a roster's one-time sign-up link works"
    )
    public_url: str | None = Field(
        None,
        description="the address learners open; "
        "`numjudge users import` and `users link` print links under it (or take `--public-url`)",
    )
    lti_passback_attempts: int = Field(
        6,
        ge=1,
        le=20,
        description="attempts at sending a score to an LMS's gradebook before it is marked failed",
    )
    lti_passback_retry_s: float = Field(
        30.0,
        gt=0,
        description="delay before a failed score passback is tried again, doubled each time",
    )
    smtp_host: str | None = Field(
        None,
        description="the SMTP server that sends learners their sign-up links "
        "(`numjudge users invite`, the roster's Invite button); unset: no e-mail is sent",
    )
    smtp_port: int = Field(587, ge=1, le=65535, description="the SMTP server's port")
    smtp_security: SmtpSecurity = Field(
        SmtpSecurity.STARTTLS,
        description="starttls (port 587), tls (port 465) or none (a local relay only)",
    )
    smtp_user: str | None = Field(None, description="the SMTP login, if the server asks for one")
    smtp_password: SecretStr | None = Field(None, description="the SMTP login's password")
    smtp_from: str | None = Field(
        None,
        description="the sender of the invitations, e.g. 'Numerics course <numjudge@example.edu>' "
        "(default: the SMTP login)",
    )
    smtp_timeout_s: float = Field(
        20.0, gt=0, le=300, description="how long a call to the SMTP server may take"
    )
    max_form_bytes: int = Field(
        65_536,
        ge=1024,
        description="largest web form body (sign-in, sign-up, token): 413 beyond, before parsing",
    )
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"

    @field_validator("database_url", "queue_url")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @field_validator("secret_key")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        """A short key is a placeholder someone copied: refuse it rather than sign with it."""
        if value is not None and len(value.get_secret_value().strip()) < MIN_SECRET_KEY_LENGTH:
            raise ValueError(
                f"NUMJUDGE_SECRET_KEY must have at least {MIN_SECRET_KEY_LENGTH} "
                "characters (leave it unset to have a random key generated and "
                "kept in the database)"
            )
        return value

    @property
    def max_body_bytes(self) -> int:
        """Largest API body: the code with every character JSON-escaped (``\\uXXXX``) + slack."""
        return 6 * self.max_code_bytes + 4096

    @property
    def secrets(self) -> list[str]:
        """What no log line may show: the database's, the queue's and the SMTP server's
        passwords, the key."""
        found = url_secrets(self.database_url) + url_secrets(self.queue_url)
        for secret in (self.secret_key, self.smtp_password):
            if secret is not None:
                found.append(secret.get_secret_value())
        return found

    @property
    def grading_threads(self) -> int:
        """A grading process's threads: ``workers`` for learners, then the regrade ones (a
        process with no learner threads grades nothing)."""
        return self.workers + self.regrade_workers if self.workers else 0

    @property
    def sandbox_pool_size(self) -> int:
        return self.sandbox_workers or max(self.grading_threads, 1)

    @property
    def sandbox_limits(self) -> SandboxLimits:
        """The pool's limits; each exercise's own time and memory limits apply on top."""
        from graders.api import SandboxLimits

        return SandboxLimits(
            strict=self.sandbox_strict,
            uid_base=self.sandbox_uid_base,
            max_output_mb=self.sandbox_max_output_mb,
        )


@lru_cache
def get_settings() -> Settings:
    return Settings()
