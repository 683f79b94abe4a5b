"""numjudge against an LTI 1.3 platform it was not written with: one built on the
``lti1p3platform`` library (its registrations, OIDC login, message launch, access tokens and
Score vocabulary), served over real HTTP, in hosted Canvas's shape: one issuer, one key pair,
and two registrations of the tool with client ids of their own (one per developer key).

The library leaves the transport to the platform: this module's server answers the
authentication request with the library's launch (the id_token it signs) in an auto-posting
form, its token endpoint hands the client-credentials request to the library (which checks the
tool's signed assertion against the tool's key set), and its line items' ``/scores`` check the
bearer token with the library and, as Canvas does, that it was granted to the client whose
link the line item belongs to.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi.testclient import TestClient
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request, TRequest
from lti1p3platform.score import ActivityProgress, GradeProgress

from app.models import LtiGradeLink, PassbackState, User
from app.runtime.context import GradingRuntime
from app.services.lti import platforms
from app.store import accounts as account_store
from tests.app.conftest import read_exercise_file
from tests.app.lti.conftest import LAUNCH_URL, TOOL
from tests.app.lti.platform import LEARNER, read_form, serving

ISSUER = "https://canvas.instructure.com"
CLIENT_IDS = ("10000000000042", "10000000000043")
DEPLOYMENT = "12:8865aa05b4b79b64a91a86042e43af5ea8ae79eb"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
EXERCISE = "adam"


def _key_pair() -> tuple[str, str]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private_pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public_pem = (
        private.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private_pem, public_pem


class _Conf(LTI1P3PlatformConfAbstract):
    """One registration of the tool, as the library keeps it."""

    def init_platform_config(self, **kwargs: Any) -> None:
        self._registration = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        registration: Registration = self._registration
        return registration


class _Request(Request):
    def build_metadata(self, request: Any) -> TRequest:
        return {"method": "GET", "get_data": dict(request), "form_data": {}}


@dataclass(frozen=True)
class _Link:
    """A resource link of the course: its target, its registration, who opens it."""

    client_id: str
    target: str
    user_id: str
    name: str


class _Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs: Any) -> None:
        self._lti_message_hint = kwargs["link_id"]

    def get_redirect(self, url: str) -> str:
        return url


class _Launch(LTIAdvantageMessageLaunchAbstract):
    """The library's resource-link launch of one of the course's links."""

    def __init__(self, request: Request, conf: _Conf, platform: Canvas, link_id: str) -> None:
        super().__init__(request, conf)
        self._platform, self._link_id = platform, link_id

    def prepare_launch(self, preflight_response: dict[str, Any]) -> None:
        link = self._platform.links[self._link_id]
        self.set_launch_url(TOOL + link.target)
        self.set_user_data(link.user_id, [LEARNER], full_name=link.name)
        self.set_resource_link_claim(self._link_id, title="Adam")
        self.set_launch_context_claim("course-7", context_title="Numerics", context_label="N7")
        self.set_ags(
            lineitems_url=f"{self._platform.url}/lineitems",
            lineitem_url=self._platform.lineitem_url(self._link_id),
            allow_creating_lineitems=False,
        )

    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> str:
        fields = "".join(
            f'<input type="hidden" name="{name}" value="{html.escape(launch_data[name])}">'
            for name in ("id_token", "state")
        )
        action = html.escape(launch_data["launch_url"])
        return f'<form method="post" action="{action}">{fields}</form>'


@dataclass
class Canvas:
    """The platform: one issuer and key pair, a registration per client id."""

    url: str
    tool_jwks: dict[str, Any]
    confs: dict[str, _Conf] = field(default_factory=dict)
    links: dict[str, _Link] = field(default_factory=dict)
    scores: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)  # link, client

    def __post_init__(self) -> None:
        private_pem, public_pem = _key_pair()
        self.public_pem = public_pem
        for client_id in CLIENT_IDS:
            registration = (
                Registration()
                .set_iss(ISSUER)
                .set_client_id(client_id)
                .set_deployment_id(DEPLOYMENT)
                .set_launch_url(LAUNCH_URL)
                .set_oidc_login_url(TOOL + platforms.LOGIN_PATH)
                .set_platform_public_key(public_pem)
                .set_platform_private_key(private_pem)
                .set_tool_key_set(self.tool_jwks)
            )
            self.confs[client_id] = _Conf(registration=registration)

    def lineitem_url(self, link_id: str) -> str:
        return f"{self.url}/lineitems/{link_id}"

    def open_link(self, link_id: str, link: _Link) -> str:
        """The tool's login initiation URL for ``link`` (the library's)."""
        self.links[link_id] = link
        login = _Login(None, self.confs[link.client_id])
        login.set_lti_message_hint(link_id=link_id)
        url: str = login.set_launch_url(TOOL + link.target).initiate_login(link.user_id)
        return url

    def authenticate(self, query: dict[str, str]) -> tuple[int, str]:
        link = self.links.get(query.get("lti_message_hint", ""))
        if link is None or query.get("login_hint") != link.user_id:
            return 400, "login_required"
        if query.get("redirect_uri") != LAUNCH_URL:
            return 400, "invalid_request: redirect_uri not registered"
        launch = _Launch(
            _Request(query), self.confs[link.client_id], self, query["lti_message_hint"]
        )
        form: str = launch.lti_launch()
        return 200, form

    def grant_token(self, form: dict[str, str]) -> tuple[int, str]:
        client_id = jwt.decode(
            form.get("client_assertion", ""), options={"verify_signature": False}
        )
        conf = self.confs.get(str(client_id.get("sub")))
        if conf is None:
            return 401, json.dumps({"error": "invalid_client"})
        try:
            answer = conf.get_access_token(form)
        except Exception as exc:  # the library's refusals share no base class
            return 401, json.dumps({"error": "invalid_client", "reason": str(exc)})
        return 200, json.dumps(answer)

    def receive_score(self, path: str, authorization: str, body: bytes) -> tuple[int, str]:
        link_id = path.removeprefix("/lineitems/").removesuffix("/scores")
        link = self.links.get(link_id)
        if link is None:
            return 404, "no such line item"
        token = authorization.removeprefix("Bearer ")
        try:
            if not self.confs[link.client_id].validate_token(token, [SCORE_SCOPE]):
                return 401, "the token has no score scope"
            granted = Registration.decode_and_verify(token, self.public_pem)
        except Exception as exc:  # pyjwt's and the library's refusals
            return 401, f"invalid token: {exc}"
        if granted.get("sub") != link.client_id:
            return 401, "a token granted to another developer key"
        score = json.loads(body)
        try:  # the library's vocabulary of the AGS Score
            ActivityProgress(score["activityProgress"])
            GradeProgress(score["gradingProgress"])
        except (KeyError, ValueError) as exc:
            return 400, f"invalid Score: {exc}"
        self.scores.append((link_id, link.client_id, score))
        return 200, ""


def _handler(canvas: Canvas) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, status: int, body: str, content_type: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            if parts.path == "/jwks":
                keys = {"keys": next(iter(canvas.confs.values())).get_jwks()["keys"]}
                self._send(200, json.dumps(keys), "application/json")
            elif parts.path == "/auth":
                self._send(*canvas.authenticate(query), "text/html")
            else:
                self._send(404, "not found", "text/plain")

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = urlsplit(self.path).path
            if path == "/token":
                form = {k: v[-1] for k, v in parse_qs(body.decode()).items()}
                self._send(*canvas.grant_token(form), "application/json")
            elif path.startswith("/lineitems/") and path.endswith("/scores"):
                authorization = self.headers.get("Authorization", "")
                self._send(*canvas.receive_score(path, authorization, body), "text/plain")
            else:
                self._send(404, "not found", "text/plain")

    return Handler


@pytest.fixture
def canvas(client: TestClient, runtime: GradingRuntime) -> Iterator[Canvas]:
    """The platform, serving on 127.0.0.1, both its registrations registered with the tool."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    lms = Canvas(f"http://127.0.0.1:{server.server_address[1]}", client.get("/lti/jwks").json())
    server.RequestHandlerClass = _handler(lms)
    with runtime.sessions() as session:
        for client_id in CLIENT_IDS:
            platforms.add_platform(
                session=session,
                issuer=ISSUER,
                client_id=client_id,
                deployment_ids=[DEPLOYMENT],
                jwks_url=lms.url + "/jwks",
                auth_login_url=lms.url + "/auth",
                token_url=lms.url + "/token",
            )
        session.commit()
    with serving(server):
        yield lms


def _launch(client: TestClient, canvas: Canvas, link_id: str, link: _Link) -> httpx.Response:
    """A learner opens ``link`` in the LMS: the login, the platform's form, its post."""
    login = client.get(canvas.open_link(link_id, link), follow_redirects=False)
    assert login.status_code == 302, login.text
    page = httpx.get(login.headers["location"])
    assert page.status_code == 200, page.text
    action, fields = read_form(page.text)
    assert action == LAUNCH_URL
    answer: httpx.Response = client.post(action, data=fields, follow_redirects=False)
    return answer


def _until(condition: Callable[[], Any], what: str, timeout: float = 90) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


@pytest.mark.slow
def test_a_canvas_shaped_platform_launches_the_tool_and_gets_each_registrations_scores(
    client: TestClient, runtime: GradingRuntime, canvas: Canvas
) -> None:
    links = {
        "link-a": _Link(CLIENT_IDS[0], "/learn/" + EXERCISE, "canvas-user-1", "Ada Lovelace"),
        "link-b": _Link(CLIENT_IDS[1], "/learn/" + EXERCISE, "canvas-user-2", "Bea Beaumont"),
    }
    for link_id, link in links.items():
        answer = _launch(client, canvas, link_id, link)
        assert answer.status_code == 303, answer.text
        assert answer.headers["location"] == "/learn/" + EXERCISE
    with runtime.sessions() as session:
        learners = {str(u.display_name): u for u in session.query(User).all()}
        assert sorted(learners) == ["Ada Lovelace", "Bea Beaumont"]
        tokens = {}
        for name, user in learners.items():
            _, tokens[name] = account_store.create_token(session=session, user=user)
        session.commit()
    for name in ("Ada Lovelace", "Bea Beaumont"):
        answer = client.post(
            "/submit",
            params={"wait": 60},
            headers={"Authorization": f"Bearer {tokens[name]}"},
            json={"exercise": EXERCISE, "code": read_exercise_file(EXERCISE, "solution.py")},
        )
        assert answer.json()["status"] == "done", answer.text
    _until(lambda: len(canvas.scores) == 2, "both registrations' scores")
    received = {link_id: (client_id, score) for link_id, client_id, score in canvas.scores}
    for link_id, link in links.items():
        client_id, score = received[link_id]
        assert client_id == link.client_id and score["userId"] == link.user_id
        assert (score["scoreGiven"], score["scoreMaximum"]) == (2.0, 2.0)
        assert (score["activityProgress"], score["gradingProgress"]) == (
            ActivityProgress.COMPLETED.value,
            GradeProgress.FULLYGRADED.value,
        )

    def link_states() -> set[PassbackState]:
        with runtime.sessions() as session:
            return {link.state for link in session.query(LtiGradeLink)}

    # The platform holds a score as soon as it answers; the tool records "sent" after that answer.
    _until(lambda: link_states() == {PassbackState.SENT}, "both links recorded as sent")
