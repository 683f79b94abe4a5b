"""Database tables (SQLAlchemy 2 typed mappings). Migrations in ``migrations/`` build them."""

from __future__ import annotations

import enum
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from graders.api import Verdict

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Role(enum.Enum):
    LEARNER = "learner"
    INSTRUCTOR = "instructor"


class Enrolment(enum.Enum):
    """How a learner came into the course: what decides whether the gradebooks list them once
    the course has a roster (app/store/accounts.py: ``outside_gradebooks``)."""

    ENROLLED = "enrolled"  # by an instructor: a roster, the LMS, the command line, "Add"
    SIGNED_UP = "signed-up"  # on their own, on the sign-up page


class SubmissionStatus(enum.Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class SubmissionKind(enum.Enum):
    SUBMIT = "submit"  # graded on every case, counts for the score
    RUN = "run"  # public cases only, shows printed output, never counted


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return uuid.uuid4().hex


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def value_enum(enum_cls: type[enum.Enum], name: str) -> Enum:
    """An Enum column storing the members' values ("passed"), portable across backends."""
    return Enum(
        enum_cls,
        name=name,
        native_enum=False,
        length=16,
        validate_strings=True,
        values_callable=lambda members: [m.value for m in members],
    )


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    # One account per name whatever its case or width (app/core/names.py: name_key()).
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[Role] = mapped_column(value_enum(Role, "role"), default=Role.LEARNER)
    password_hash: Mapped[str | None] = mapped_column(String(255), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    # From a roster import (app/services/roster.py); a learner who signed up has none of them.
    display_name: Mapped[str | None] = mapped_column(String(128), default=None)
    email: Mapped[str | None] = mapped_column(String(254), default=None)
    # The address as an LMS user's is matched against it (app/core/names.py: email_key()); no
    # length, as lower case may lengthen it (İ is i and a combining dot).
    email_key: Mapped[str | None] = mapped_column(Text, default=None, index=True)
    section: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    enrolment: Mapped[Enrolment] = mapped_column(
        value_enum(Enrolment, "enrolment"), default=Enrolment.ENROLLED
    )

    tokens: Mapped[list[ApiToken]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    @property
    def is_instructor(self) -> bool:
        return self.role is Role.INSTRUCTOR

    @property
    def is_active(self) -> bool:
        return self.disabled_at is None


class ApiToken(Base):
    """An API token; only its SHA-256 is stored, the token itself is shown once."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)

    user: Mapped[User] = relationship(back_populates="tokens")


class WebSessionRecord(Base):
    """A signed-in browser: the cookie carries a random secret, the row its SHA-256.

    Deleting the row ends the session at once (sign-out, a new password, a disabled account).
    """

    __tablename__ = "web_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)

    user: Mapped[User] = relationship()


class MailState(enum.Enum):
    """Where the e-mail carrying a sign-up link is (``numjudge users invite``, the roster's
    Invite button)."""

    QUEUED = "queued"  # the link is made, the e-mail not yet handed to the SMTP server
    SENT = "sent"  # the SMTP server accepted it
    FAILED = "failed"  # it refused it or could not be reached: ``mail_error`` says why


class SignupLink(Base):
    """A learner's one-time sign-up link from a roster import: the URL carries a random token,
    the row its SHA-256. One per learner: a new link replaces the old one, and with it the
    state of the e-mail that carried the old one."""

    __tablename__ = "signup_links"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    mail_state: Mapped[MailState | None] = mapped_column(
        value_enum(MailState, "mail_state"), default=None
    )  # None: the link was handed out by hand, never e-mailed
    mailed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    mail_error: Mapped[str] = mapped_column(Text, default="")

    user: Mapped[User] = relationship()


class RosterHandoff(Base):
    """An import's sign-up links, kept briefly for the page that shows them (the import
    redirects there, so reloading it posts nothing again). Encrypted with a key derived from a
    random handle that only the instructor's redirect URL carries; the row keeps the handle's
    SHA-256, so the database alone never yields a link."""

    __tablename__ = "roster_handoffs"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    sealed: Mapped[str] = mapped_column(Text)


class ServiceSecret(Base):
    """Secrets the service generates for itself on first start (the cookie-signing key)."""

    __tablename__ = "service_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class ThrottleCounter(Base):
    """Hits of one throttle key in one fixed window, shared by every process of the service."""

    __tablename__ = "throttle_counters"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    window_start: Mapped[int] = mapped_column(Integer, primary_key=True)
    window_end: Mapped[int] = mapped_column(Integer, index=True)
    hits: Mapped[int] = mapped_column(Integer, default=0)


class Submission(Base):
    """One submission or run, from ``queued`` to ``done``; the row is the truth."""

    __tablename__ = "submissions"
    __table_args__ = (
        Index("ix_submissions_user_exercise_created", "user_id", "exercise_id", "created_at"),
        Index("ix_submissions_status_lease", "status", "lease_expires_at"),
        Index("ix_submissions_exercise_created", "exercise_id", "created_at"),
        # The fair claim asks, per candidate row, how many of its learner's gradings are in
        # flight and when the learner was last served: without these, a learner with many
        # queued rows (a regrade backlog) makes every claim quadratic.
        Index("ix_submissions_user_status_lease", "user_id", "status", "lease_expires_at"),
        Index("ix_submissions_user_started", "user_id", "started_at"),
        # A client's retry with the same Idempotency-Key finds the first submission.
        Index("ix_submissions_user_idempotency_key", "user_id", "idempotency_key", unique=True),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    exercise_id: Mapped[str] = mapped_column(String(100))
    exercise_version: Mapped[str] = mapped_column(String(64))
    kind: Mapped[SubmissionKind] = mapped_column(
        value_enum(SubmissionKind, "submission_kind"), default=SubmissionKind.SUBMIT
    )
    code: Mapped[str] = mapped_column(Text)
    status: Mapped[SubmissionStatus] = mapped_column(
        value_enum(SubmissionStatus, "submission_status"), default=SubmissionStatus.QUEUED
    )
    verdict: Mapped[Verdict | None] = mapped_column(value_enum(Verdict, "verdict"), default=None)
    score: Mapped[float | None] = mapped_column(Float, default=None)
    max_score: Mapped[float | None] = mapped_column(Float, default=None)
    tests: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    # By test name, what each hidden test that did not pass would have said as a public one
    # (GradeReport.hidden_messages): for instructors, and for its learner only once
    # app.services.reveal reveals it. None: graded before they were kept (or no hidden test).
    hidden_messages: Mapped[dict[str, str] | None] = mapped_column(JSON, default=None)
    diagnosis: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    output: Mapped[str] = mapped_column(Text, default="")
    message: Mapped[str] = mapped_column(Text, default="")
    duration_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    # What the whole run used (hidden cases too): for instructors, never in a learner's view.
    cpu_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    memory_kb: Mapped[int | None] = mapped_column(Integer, default=None)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    worker: Mapped[str | None] = mapped_column(String(128), default=None)
    lease_token: Mapped[str | None] = mapped_column(String(32), default=None)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    # When a learner may see the result: the first boundary of app.services.release's ladder
    # at or after finished_at, so how long the grading took shows only as one of a few steps.
    released_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    idempotency_key: Mapped[str | None] = mapped_column(String(64), default=None)
    # Queued again because the exercise changed: graded only when no learner's own work waits.
    regrade: Mapped[bool] = mapped_column(Boolean, default=False)
    # The learner's numbers the submission was graded with (the exercise's ``@variant``, as
    # app.services.variants drew them when it was made), kept for its regrades. None: the
    # exercise had no variant then, and a regrade grades it with the default one.
    variant: Mapped[dict[str, float] | None] = mapped_column(JSON, default=None)

    user: Mapped[User] = relationship()

    @property
    def is_final(self) -> bool:
        return self.status is SubmissionStatus.DONE


class LearnerVariant(Base):
    """A learner's seed for an exercise's variant (app.services.variants), drawn at random the
    first time they see the exercise: their numbers stay theirs on every page and submission."""

    __tablename__ = "learner_variants"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    exercise_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class StoredPicture(Base):
    """A failed public test's error picture, drawn once when its submission was graded
    (app/services/error_pictures.py): the pages read it and draw nothing."""

    __tablename__ = "error_pictures"

    submission_id: Mapped[str] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), primary_key=True
    )
    # The test's position in ``submissions.tests``, replaced with them by a regrade.
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    svg: Mapped[str] = mapped_column(Text)


class Extension(Base):
    """A learner's own due time for one assignment of ``course.toml``."""

    __tablename__ = "extensions"
    __table_args__ = (UniqueConstraint("user_id", "assignment_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    assignment_id: Mapped[str] = mapped_column(String(64))
    due: Mapped[datetime] = mapped_column(UTCDateTime())
    granted_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    user: Mapped[User] = relationship()


class Worker(Base):
    """A grading process's heartbeat and its latest canary grading (``GET /healthz``)."""

    __tablename__ = "workers"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)  # host:pid
    threads: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    heartbeat_at: Mapped[datetime] = mapped_column(UTCDateTime())
    canary_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    canary_ok: Mapped[bool | None] = mapped_column(Boolean, default=None)
    canary_message: Mapped[str] = mapped_column(Text, default="")


class EarlierReport(Base):
    """A submission's result before it was regraded: every report a submission had is kept."""

    __tablename__ = "earlier_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[str] = mapped_column(
        ForeignKey("submissions.id", ondelete="CASCADE"), index=True
    )
    exercise_version: Mapped[str] = mapped_column(String(64))
    verdict: Mapped[Verdict | None] = mapped_column(value_enum(Verdict, "verdict"))
    score: Mapped[float | None] = mapped_column(Float)
    max_score: Mapped[float | None] = mapped_column(Float)
    tests: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    diagnosis: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    message: Mapped[str] = mapped_column(Text)
    graded_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    replaced_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class WorkScope(enum.Enum):
    """What a similarity report or an LMS link covers: one exercise or a whole assignment."""

    EXERCISE = "exercise"
    ASSIGNMENT = "assignment"


class ReportState(enum.Enum):
    QUEUED = "queued"
    DONE = "done"
    FAILED = "failed"


class SimilarityReport(Base):
    """A similarity report an instructor asked for (app/services/similarity_jobs.py): queued,
    computed on the queue behind every grading, and kept with its result."""

    __tablename__ = "similarity_reports"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    scope: Mapped[WorkScope] = mapped_column(value_enum(WorkScope, "similarity_scope"))
    target: Mapped[str] = mapped_column(String(100))  # the exercise or assignment id
    state: Mapped[ReportState] = mapped_column(
        value_enum(ReportState, "report_state"), default=ReportState.QUEUED
    )
    requested_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    # app.services.similarity.ExerciseSimilarity.to_dict(), one per exercise
    result: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    error: Mapped[str] = mapped_column(Text, default="")


class LtiPlatform(Base):
    """An LMS registered as an LTI 1.3 platform (``numjudge lti add-platform``): what the tool
    needs to check its launches and to call its services."""

    __tablename__ = "lti_platforms"
    __table_args__ = (UniqueConstraint("issuer", "client_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issuer: Mapped[str] = mapped_column(String(255))
    client_id: Mapped[str] = mapped_column(String(255))
    deployment_ids: Mapped[list[str]] = mapped_column(JSON)
    jwks_url: Mapped[str] = mapped_column(String(1024))
    auth_login_url: Mapped[str] = mapped_column(String(1024))
    token_url: Mapped[str] = mapped_column(String(1024))
    # Trusted to link its users to unused accounts by e-mail address (app/services/lti/accounts.py)
    match_email: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class LtiKey(Base):
    """The tool's RSA key pairs, newest first: the newest signs, the one before it is still
    published (platforms cache key sets) until the next rotation."""

    __tablename__ = "lti_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_pem: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)


class LtiCacheEntry(Base):
    """The launch cache of pylti1p3 (states, nonces, launch data) shared by every process."""

    __tablename__ = "lti_cache"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON, nullable=False)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class LtiAccount(Base):
    """An LMS user (a platform's ``sub``) linked to the numjudge account their launches sign in."""

    __tablename__ = "lti_accounts"
    __table_args__ = (UniqueConstraint("platform_id", "subject"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    subject: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    user: Mapped[User] = relationship()


class PassbackState(enum.Enum):
    PENDING = "pending"  # queued, or waiting to be tried again
    SENT = "sent"
    FAILED = "failed"  # every attempt failed: resend by hand


class LtiGradeLink(Base):
    """What grade passback needs of a launch, per platform, resource link and numjudge user:
    the LMS user, the link's target (an exercise or an assignment) and the launch's AGS claim;
    with the state of its passback, the last score sent and when."""

    __tablename__ = "lti_grade_links"
    __table_args__ = (UniqueConstraint("platform_id", "resource_link_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    resource_link_id: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    subject: Mapped[str] = mapped_column(String(255))  # the LMS user (the Score's userId)
    scope: Mapped[WorkScope] = mapped_column(value_enum(WorkScope, "lti_target"))
    target: Mapped[str] = mapped_column(String(100))  # the exercise or assignment id
    lineitem: Mapped[str] = mapped_column(String(1024), default="")
    lineitems: Mapped[str] = mapped_column(String(1024), default="")
    scopes: Mapped[list[str]] = mapped_column(JSON)
    state: Mapped[PassbackState] = mapped_column(
        value_enum(PassbackState, "passback_state"), default=PassbackState.PENDING
    )
    score_given: Mapped[float | None] = mapped_column(Float, default=None)  # the last sent
    score_maximum: Mapped[float | None] = mapped_column(Float, default=None)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    error: Mapped[str] = mapped_column(Text, default="")  # the last failure's reason
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    platform: Mapped[LtiPlatform] = relationship()
    user: Mapped[User] = relationship()


class LtiPassbackAttempt(Base):
    """One attempt at sending a grade link's score, and its outcome."""

    __tablename__ = "lti_passback_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    link_id: Mapped[int] = mapped_column(
        ForeignKey("lti_grade_links.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    sent: Mapped[bool] = mapped_column(Boolean)
    score_given: Mapped[float] = mapped_column(Float)
    score_maximum: Mapped[float] = mapped_column(Float)
    error: Mapped[str] = mapped_column(Text, default="")


class SyncState(enum.Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"


class LtiContext(Base):
    """An LMS context, the LMS's course (a launch's context claim): its names, the Names and Role
    Provisioning Services endpoint its launches offered, the numjudge section its learners are
    put in (None: their sections are left alone), and the last roster synchronisation."""

    __tablename__ = "lti_contexts"
    __table_args__ = (UniqueConstraint("platform_id", "context_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    context_id: Mapped[str] = mapped_column(String(255))
    title: Mapped[str] = mapped_column(String(255), default="")
    label: Mapped[str] = mapped_column(String(255), default="")
    memberships_url: Mapped[str] = mapped_column(String(1024), default="")
    section: Mapped[str | None] = mapped_column(String(32), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    synced_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    sync_state: Mapped[SyncState | None] = mapped_column(
        value_enum(SyncState, "sync_state"), default=None
    )
    sync_added: Mapped[int] = mapped_column(Integer, default=0)
    sync_updated: Mapped[int] = mapped_column(Integer, default=0)
    sync_unchanged: Mapped[int] = mapped_column(Integer, default=0)
    sync_dropped: Mapped[int] = mapped_column(Integer, default=0)
    sync_error: Mapped[str] = mapped_column(Text, default="")

    platform: Mapped[LtiPlatform] = relationship()


class EnrolmentState(enum.Enum):
    ACTIVE = "active"
    DROPPED = "dropped"  # no longer an active member of the LMS context: the account is kept


class LtiEnrolment(Base):
    """A numjudge account's membership of an LMS context, as launches and roster syncs saw it."""

    __tablename__ = "lti_enrolments"
    __table_args__ = (UniqueConstraint("context_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    context_id: Mapped[int] = mapped_column(ForeignKey("lti_contexts.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    state: Mapped[EnrolmentState] = mapped_column(
        value_enum(EnrolmentState, "enrolment_state"), default=EnrolmentState.ACTIVE
    )
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)

    context: Mapped[LtiContext] = relationship()
    user: Mapped[User] = relationship()
