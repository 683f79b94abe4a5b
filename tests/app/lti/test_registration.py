"""Registering an LMS (``numjudge lti add-platform``), the tool's key pair and its JWKS."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import jwt
import pytest
from fastapi.testclient import TestClient
from jwt.algorithms import RSAAlgorithm
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.core.db import session_scope
from app.runtime.context import GradingRuntime
from app.services.lti import keys, platforms

ROOT = Path(__file__).resolve().parents[3]
PLATFORM = [
    "--issuer",
    "https://moodle.example.edu",
    "--client-id",
    "abc123",
    "--deployment",
    "1",
    "--deployment",
    "7",
    "--jwks-url",
    "https://moodle.example.edu/mod/lti/certs.php",
    "--auth-url",
    "https://moodle.example.edu/mod/lti/auth.php",
    "--token-url",
    "https://moodle.example.edu/mod/lti/token.php",
]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", url)
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", f"sqlite:///{tmp_path / 'q.db'}")
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def test_add_platform_registers_it_once_and_lists_it_with_the_tool_urls(env: str) -> None:
    runner = CliRunner()
    added = runner.invoke(cli, ["lti", "add-platform", *PLATFORM])
    assert added.exit_code == 0, added.output
    assert "https://moodle.example.edu (client id abc123)" in added.output
    again = runner.invoke(cli, ["lti", "add-platform", *PLATFORM])
    assert again.exit_code == 2 and "already has a registration" in again.output
    listed = runner.invoke(cli, ["lti", "platforms", "--public-url", "https://nj.example.edu/"])
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines() == [
        "login URL:        https://nj.example.edu/lti/login",
        "launch URL:       https://nj.example.edu/lti/launch",
        "deep linking URL: https://nj.example.edu/lti/launch",
        "JWKS URL:         https://nj.example.edu/lti/jwks",
        "platform 1: https://moodle.example.edu client id abc123 deployments 1, 7",
    ]


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [
        ("--jwks-url", "moodle.example.edu/certs", "key set URL must be an http(s) URL"),
        ("--token-url", "ftp://moodle.example.edu/token", "access token URL must be an http(s)"),
        ("--deployment", " ", "give at least one deployment id"),
        ("--client-id", "", "the issuer and the client id are required"),
    ],
)
def test_add_platform_refuses_a_wrong_value(
    env: str, option: str, value: str, problem: str
) -> None:
    args = list(PLATFORM)
    if option == "--deployment":
        args = [*args[:4], option, value, *args[8:]]
    else:
        args[args.index(option) + 1] = value
    result = CliRunner().invoke(cli, ["lti", "add-platform", *args])
    assert result.exit_code == 2
    assert problem in result.output
    listed = CliRunner().invoke(cli, ["lti", "platforms"])
    assert "platform 1" not in listed.output


def test_rotate_key_publishes_the_new_key_and_the_one_before_it(env: str) -> None:
    kids = []
    for _ in range(3):
        result = CliRunner().invoke(cli, ["lti", "rotate-key"])
        assert result.exit_code == 0, result.output
        kids.append(result.output.split()[-1])
    assert len(set(kids)) == 3
    with session_scope(env) as session:
        published = [key["kid"] for key in keys.jwks(session=session)["keys"]]
        signing = keys.key_id(keys.current(session=session))
    assert published == [kids[2], kids[1]]
    assert signing == kids[2]


def test_the_jwks_endpoint_serves_the_key_the_tool_signs_with(
    client: TestClient, runtime: GradingRuntime
) -> None:
    served = client.get("/lti/jwks")
    assert served.status_code == 200
    [jwk] = served.json()["keys"]
    assert (jwk["kty"], jwk["alg"], jwk["use"]) == ("RSA", "RS256", "sig")
    assert "d" not in jwk  # public parts only
    with runtime.sessions() as session:
        key = keys.current(session=session)
    assert jwk["kid"] == keys.key_id(key)
    token = jwt.encode({"iss": "numjudge"}, key.private_pem, algorithm="RS256")
    public = RSAAlgorithm.from_jwk(json.dumps(jwk))
    assert jwt.decode(token, public, algorithms=["RS256"]) == {"iss": "numjudge"}  # type: ignore[arg-type]
    assert client.get("/lti/jwks").json() == served.json()  # made once, then kept


def test_a_registration_gets_and_loses_deployments_and_new_urls(env: str) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["lti", "add-platform", *PLATFORM]).exit_code == 0
    changed = runner.invoke(
        cli,
        [
            *("lti", "update-platform", "1", "--add-deployment", "9", "--remove-deployment", "1"),
            *("--jwks-url", "https://moodle.example.edu/keys"),
        ],
    )
    assert changed.exit_code == 0, changed.output
    assert "deployments 7, 9" in changed.output
    with session_scope(env) as session:
        [platform] = platforms.list_platforms(session=session)
        assert platform.deployment_ids == ["7", "9"]
        assert platform.jwks_url == "https://moodle.example.edu/keys"
        assert platform.token_url == "https://moodle.example.edu/mod/lti/token.php"
    last = runner.invoke(
        cli, ["lti", "update-platform", "1", "--remove-deployment", "7", "--remove-deployment", "9"]
    )
    assert last.exit_code == 2 and "at least one deployment id" in last.output
    bad = runner.invoke(cli, ["lti", "update-platform", "1", "--token-url", "token.php"])
    assert bad.exit_code == 2 and "must be an http(s) URL" in bad.output
    unknown = runner.invoke(cli, ["lti", "update-platform", "5", "--add-deployment", "2"])
    assert unknown.exit_code == 2 and "platform 5 not found" in unknown.output
    with session_scope(env) as session:
        [platform] = platforms.list_platforms(session=session)
        assert platform.deployment_ids == ["7", "9"]  # the refused changes changed nothing


def test_linking_by_e_mail_address_is_off_unless_asked_for_and_can_be_changed(env: str) -> None:
    runner = CliRunner()
    other = [*PLATFORM[:3], "other-client", *PLATFORM[4:]]
    assert runner.invoke(cli, ["lti", "add-platform", *PLATFORM]).exit_code == 0
    trusted = runner.invoke(cli, ["lti", "add-platform", *other, "--match-email"])
    assert trusted.exit_code == 0, trusted.output
    assert trusted.output.strip().endswith(
        "(client id other-client), links unused accounts by e-mail address"
    )
    with session_scope(env) as session:
        assert [p.match_email for p in platforms.list_platforms(session=session)] == [False, True]
    listed = runner.invoke(cli, ["lti", "platforms"]).output.splitlines()
    assert listed[-2] == "platform 1: https://moodle.example.edu client id abc123 deployments 1, 7"
    assert listed[-1].endswith("deployments 1, 7, links unused accounts by e-mail address")
    on = runner.invoke(cli, ["lti", "update-platform", "1", "--match-email"])
    assert on.exit_code == 0 and on.output.strip().endswith("by e-mail address")
    off = runner.invoke(cli, ["lti", "update-platform", "2", "--no-match-email"])
    assert off.exit_code == 0 and "e-mail" not in off.output
    kept = runner.invoke(cli, ["lti", "update-platform", "1", "--add-deployment", "8"])
    assert kept.exit_code == 0 and kept.output.strip().endswith("by e-mail address")
    with session_scope(env) as session:
        assert [p.match_email for p in platforms.list_platforms(session=session)] == [True, False]


@pytest.mark.slow
def test_the_platform_for_checking_by_hand_prints_how_to_register_it(env: str) -> None:
    """docs/lms.md's check by hand: the platform started as a module prints an add-platform
    command that registers it, and its course page, until Ctrl+C."""
    with subprocess.Popen(
        [sys.executable, "-m", "tests.app.lti.platform", "--tool", "http://127.0.0.1:9/"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as started:
        try:
            assert started.stdout is not None
            printed = [started.stdout.readline() for _ in range(4)]
            command = shlex.split(printed[1])
            assert command[:3] == ["numjudge", "lti", "add-platform"], printed
            added = CliRunner().invoke(cli, command[1:])
            assert added.exit_code == 0, added.output
            course = printed[2].rsplit(" ", 1)[1].strip()
            page = httpx.get(course)
            assert "Add an activity as" in page.text
            assert "http%3A%2F%2F127.0.0.1%3A9%2Flti%2Flogin" in page.text  # the tool's login
            with session_scope(env) as session:
                [registered] = platforms.list_platforms(session=session)
                assert registered.issuer == course.removesuffix("/course")
        finally:
            started.send_signal(signal.SIGINT)
            assert started.wait(timeout=30) == 0
