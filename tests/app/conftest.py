"""Fixtures for the service's tests: both databases, a migrated schema, clients, users."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, delete, text
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.db import dispose_engines, get_engine, get_sessionmaker, upgrade_database
from app.main import create_app
from app.models import (
    ApiToken,
    EarlierReport,
    Extension,
    LearnerVariant,
    LtiAccount,
    LtiCacheEntry,
    LtiGradeLink,
    LtiKey,
    LtiPassbackAttempt,
    LtiPlatform,
    Role,
    SignupLink,
    SimilarityReport,
    StoredPicture,
    Submission,
    ThrottleCounter,
    User,
    WebSessionRecord,
    Worker,
)
from app.runtime.context import GradingRuntime, build_runtime
from app.runtime.engine import SandboxGrader
from app.runtime.rungs import FirstRungs
from app.store import accounts as account_store
from graders.api import CpuPriority
from graders.exercises import PreparedExercise
from graders.results import GradeReport

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"
PG_ADMIN_URL = os.environ.get(
    "NUMJUDGE_TEST_PG_URL", "postgresql+psycopg://postgres@localhost:5432/postgres"
)
BACKENDS = ("sqlite", pytest.param("postgresql", marks=pytest.mark.slow))
SURFACES = tuple(f"tests/app/{folder}/" for folder in ("web", "api", "lti", "cli"))
"""The folders of the tests of what is built on the database (pages, the API's answers, the
LMS, the command line), which run on SQLite only, unless marked ``both_databases``. Every
query of the service is in ``app/store``, whose own tests (tests/app/store, and those of the
services, the grading life cycle and the several-machine tests) run on both databases: they ran
every line of ``app/store`` that the whole suite ran on PostgreSQL (docs/performance.md, "one
database for the surfaces"). A surface's test whose subject is
what the database does under it (requests at once against a lock, a unique key, a lease) is
marked ``both_databases``. ``NUMJUDGE_TEST_SURFACES_ON_POSTGRESQL=1`` runs every test on both,
as the suite did before (docs/performance.md: how that claim is measured again)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselects the PostgreSQL run of a surface's test (``SURFACES``)."""
    if os.environ.get("NUMJUDGE_TEST_SURFACES_ON_POSTGRESQL") == "1":
        return
    kept: list[pytest.Item] = []
    surfaces_on_postgresql: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgresql = callspec is not None and callspec.params.get("database_url") == "postgresql"
        if (
            on_postgresql
            and item.nodeid.startswith(SURFACES)
            and item.get_closest_marker("both_databases") is None
        ):
            surfaces_on_postgresql.append(item)
        else:
            kept.append(item)
    if surfaces_on_postgresql:
        config.hook.pytest_deselected(items=surfaces_on_postgresql)
        items[:] = kept


def _pg_reachable() -> bool:
    try:
        with socket.create_connection(("localhost", 5432), timeout=1):
            return True
    except OSError:
        return False


def ensure_postgres() -> None:
    """Start the machine's PostgreSQL cluster if it is installed but down; skip if absent."""
    if _pg_reachable():
        return
    clusters = Path("/etc/postgresql")
    if not shutil.which("pg_ctlcluster") or not clusters.is_dir() or not any(clusters.iterdir()):
        pytest.skip(
            "POSTGRESQL IS NOT INSTALLED on this machine (no pg_ctlcluster or "
            "/etc/postgresql): the PostgreSQL half of the suite did not run"
        )
    version = sorted(p.name for p in clusters.iterdir())[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
        check=False,
        capture_output=True,
        timeout=60,
    )
    deadline = time.monotonic() + 30
    while not _pg_reachable():
        if time.monotonic() > deadline:
            pytest.fail("PostgreSQL is installed but did not start on localhost:5432")
        time.sleep(0.2)


def _create_pg_database() -> tuple[str, str]:
    ensure_postgres()
    name = f"numjudge_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return name, PG_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def _drop_pg_database(name: str) -> None:
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def fresh_database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], str]]:
    """A factory of empty databases: ``make("sqlite")`` or ``make("postgresql")``."""
    created: list[str] = []

    def make(backend: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{tmp_path_factory.mktemp('db') / 'numjudge.db'}"
        name, url = _create_pg_database()
        created.append(name)
        return url

    yield make
    dispose_engines()
    for name in created:
        _drop_pg_database(name)


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request: pytest.FixtureRequest, fresh_database_url: Callable[[str], str]) -> str:
    """A migrated database shared by the session, once per backend."""
    url = fresh_database_url(request.param)
    upgrade_database(url)
    return url


@pytest.fixture
def db(database_url: str) -> Iterator[Session]:
    """A session whose work is rolled back after the test."""
    connection = get_engine(database_url).connect()
    transaction = connection.begin()
    session = Session(
        bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False
    )
    try:
        yield session
    finally:
        session.close()
        transaction.rollback()
        connection.close()


@pytest.fixture
def committed_db(database_url: str) -> Iterator[Session]:
    """A session whose commits stay, for services that commit part of their work before a
    slow step (a sign-up's throttle count before the password hash); wiped after the test."""
    try:
        with get_sessionmaker(database_url)() as session:
            yield session
    finally:
        wipe(database_url)


def wipe(database_url: str) -> None:
    with Session(get_engine(database_url)) as session:
        for table in (
            LtiPassbackAttempt,
            LtiGradeLink,
            LtiAccount,
            LtiPlatform,
            LtiCacheEntry,
            LtiKey,
            EarlierReport,
            StoredPicture,
            SimilarityReport,
            Submission,
            LearnerVariant,
            Extension,
            ApiToken,
            WebSessionRecord,
            ThrottleCounter,
            SignupLink,
            User,
            Worker,
        ):
            session.execute(delete(table))
        session.commit()


@pytest.fixture(scope="session")
def shared_grader() -> Iterator[SandboxGrader]:
    """One warm sandbox pool for every in-process test app."""
    grader = SandboxGrader(pool_size=2, limits=Settings().sandbox_limits)
    grader.start()
    yield grader
    grader.close()


def make_settings(database_url: str, tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "database_url": database_url,
        "exercises_dir": EXERCISES,
        "queue_url": "memory://",
        "workers": 2,
        "auto_migrate": False,
        "recovery_interval_s": 60.0,
        # Each exercise is prepared at its first submission, as the suite's servers do
        # (tests/app/live.py): warming all 26 in every process beside the tests cost their
        # CPU, and a test's first submission of an exercise waited behind it.
        "prepare_at_start": False,
        # Work at the idle policy (regrades, rediagnoses, similarity reports) waits while
        # anything else wants the CPU: on a host running two copies of the suite, minutes for
        # seconds of work. tests/app/core/test_background.py and test_lifecycle.py check the
        # lowest priority itself.
        "background_lowest_priority": False,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


_FIRST_RUNGS: weakref.WeakKeyDictionary[SandboxGrader, FirstRungs] = weakref.WeakKeyDictionary()
"""The first rungs measured through each sandbox pool, shared by the test apps that grade
through it."""


def make_runtime(settings: Settings, grader: SandboxGrader) -> GradingRuntime:
    def grade(
        prepared: PreparedExercise, code: str, public_only: bool, priority: CpuPriority
    ) -> GradeReport:
        return grader(prepared, code, public_only, priority)

    runtime = build_runtime(settings, engine=grader, grade=grade)
    if settings.measure_first_rungs:
        # Measured once per exercise version and pool, as a server measures them once per
        # process: twelve gradings of an exercise's own files, which every test app that
        # grades would otherwise wait for before its first learner's result.
        runtime.first_rungs = _FIRST_RUNGS.setdefault(grader, FirstRungs(grader))
    return runtime


@pytest.fixture
def runtime(
    database_url: str, tmp_path: Path, shared_grader: SandboxGrader
) -> Iterator[GradingRuntime]:
    yield make_runtime(make_settings(database_url, tmp_path), shared_grader)
    wipe(database_url)


@pytest.fixture
def client(runtime: GradingRuntime) -> Iterator[TestClient]:
    """The app with two grading threads in-process, on the session's database."""
    with TestClient(create_app(runtime=runtime)) as test_client:
        yield test_client


@pytest.fixture
def make_user(runtime: GradingRuntime) -> Callable[..., tuple[User, dict[str, str]]]:
    """``make_user("ada", Role.LEARNER) -> (user, auth headers)``, committed."""

    def make(name: str, role: Role = Role.LEARNER) -> tuple[User, dict[str, str]]:
        with runtime.sessions() as session:
            user = account_store.create_user(session=session, name=name, role=role)
            _, token = account_store.create_token(session=session, user=user)
            session.commit()
        return user, {"Authorization": f"Bearer {token}"}

    return make


def read_exercise_file(exercise: str, name: str) -> str:
    return (EXERCISES / exercise / name).read_text(encoding="utf-8")
