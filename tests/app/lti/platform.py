"""An LTI 1.3 platform the tests start: a real HTTP server on 127.0.0.1 with its own RSA keys.

It plays the LMS's part of a launch as a real platform does: its authentication endpoint checks
the tool's OIDC request (client id, redirect URI, response type, scope, prompt) and answers with
the auto-posting form carrying an id_token it signs (RS256, its current key, whose ``kid`` its
key set publishes). A test may change the next token (``tamper``: wrong issuer, expired, another
audience, no deployment id, a key the key set does not publish) to see the tool refuse it.

Like hosted Canvas, it may register the tool more than once under its one issuer: each
registration has a client id of its own (``client_id``, then ``other_client_ids``), a link is
opened through one of them (``login_initiation``'s ``client_id``) and its id_token is for that
client only.

Its Assignment and Grade Services: each launch's AGS claim names the resource link's line item;
the token endpoint grants an access token for a client-credentials request whose client
assertion verifies against the tool's key set (``tool_jwks``, which the test hands it), to the
client id the assertion names; a line item's ``/scores`` endpoint records the Scores posted
with a token of the client its link was opened through (``scores``; a token of another client
is refused 401, as is one the platform revoked: ``revoke_tokens``), and fails the next
``failing_scores`` calls (503) when a test asks it to. Its key set URL may serve what a test
sets instead of its keys (``key_set``: a broken LMS).

Its Names and Role Provisioning Services: each launch's NRPS claim names the course's membership
list, served to a token granted the NRPS scope, ``members_page_size`` members a page with a
``Link: rel="next"`` header to the next page; a test sets the members (``enrol``, ``unenrol``,
``set_status``) and may take the list down (``memberships_down``: 503).

Its deep linking: a link opened with ``deep_link=True`` sends an ``LtiDeepLinkingRequest``
whose return URL is its ``/deep-link-return``; there it checks the tool's signed response (the
tool's key set, its issuer and audience, the deployment id, the request's data echoed) and makes
a resource link with a line item of each content item (``links``, ``line_items``).

For a person checking a setup by hand, ``running_platform(tool=...)`` names the tool's address:
its course page ``/course`` then offers an instructor's "add an activity" (the deep-linking
launch, in a frame), opens each link it made as a learner, and shows its gradebook (each line
item's latest Score per user), as an LMS's course does; it reads the tool's key set from the
tool's ``/lti/jwks`` as a registered LMS would.
"""

from __future__ import annotations

import argparse
import html
import json
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit
from urllib.request import urlopen

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
TEACHING_ASSISTANT = (
    "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
)
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
AGS = "https://purl.imsglobal.org/spec/lti-ags/"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
DEEP_LINK_DATA = "platform-state-7f3a"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
MEMBERSHIPS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
CONTEXT = {"id": "course-1", "label": "NUM101", "title": "Numerics"}
TOOL_LOGIN, TOOL_LAUNCH, TOOL_JWKS = "/lti/login", "/lti/launch", "/lti/jwks"

Claims = dict[str, Any]


class SigningKey:
    """An RSA key pair of the platform and its JWK (``kid`` included)."""

    def __init__(self) -> None:
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = uuid.uuid4().hex
        self.jwk: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(self.private.public_key()))
        self.jwk |= {"kid": self.kid, "alg": "RS256", "use": "sig"}


@dataclass(frozen=True)
class User:
    sub: str
    roles: tuple[str, ...]
    name: str = ""
    email: str = ""


@dataclass
class Platform:
    url: str
    client_id: str = "numjudge-client"
    other_client_ids: tuple[str, ...] = ()  # more registrations of the tool under this issuer
    deployment_id: str = "deployment-1"
    key: SigningKey = field(default_factory=SigningKey)
    published: list[SigningKey] = field(default_factory=list)
    users: dict[str, User] = field(default_factory=dict)
    # Changes the next id_token's claims and header (a bad launch), then is cleared.
    tamper: Callable[[Claims, dict[str, str]], None] | None = None
    redirect_uris: set[str] = field(default_factory=set)
    links: dict[str, str] = field(default_factory=dict)  # resource link id: target link URI
    tool_jwks: dict[str, Any] | None = None  # the tool's key set, as its /lti/jwks gives it
    tokens: dict[str, set[str]] = field(default_factory=dict)  # access tokens: their scopes
    token_clients: dict[str, str] = field(default_factory=dict)  # access tokens: their client
    link_clients: dict[str, str] = field(default_factory=dict)  # resource link id: its client
    key_set: Any = None  # served at the key set URL instead of the published keys
    scores: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # line item, Score
    failing_scores: int = 0  # the next score calls answered 503
    deep_link_requests: set[str] = field(default_factory=set)  # message hints of such launches
    accept_multiple: bool = True  # the deep-linking request's accept_multiple
    line_items: dict[str, dict[str, Any]] = field(default_factory=dict)  # link id: its lineItem
    deep_link_replies: list[Claims] = field(default_factory=list)  # the checked responses
    members: dict[str, tuple[User, str]] = field(default_factory=dict)  # sub: user, status
    members_page_size: int = 2
    member_pages: int = 0  # membership pages served
    memberships_down: bool = False
    tool: str = ""  # the tool's base URL, for the course page a person uses by hand
    teacher: User = User("teacher", (INSTRUCTOR,), "Terry Teacher", "teacher@example.edu")
    learner: User = User("learner", (LEARNER,), "Lee Learner", "learner@example.edu")

    @property
    def issuer(self) -> str:
        return self.url

    @property
    def jwks_url(self) -> str:
        return self.url + "/jwks"

    @property
    def auth_url(self) -> str:
        return self.url + "/auth"

    @property
    def token_url(self) -> str:
        return self.url + "/token"

    @property
    def memberships_url(self) -> str:
        return f"{self.url}/contexts/{CONTEXT['id']}/memberships"

    def lineitem_url(self, link_id: str) -> str:
        return f"{self.url}/lineitems/{link_id}"

    def enrol(self, user: User) -> None:
        """``user`` is an active member of the course from now on."""
        self.members[user.sub] = (user, "Active")

    def unenrol(self, sub: str) -> None:
        """The member is gone from the list (as an LMS that deletes memberships does)."""
        del self.members[sub]

    def set_status(self, sub: str, status: str) -> None:
        """``Active``, ``Inactive`` or ``Deleted``."""
        self.members[sub] = (self.members[sub][0], status)

    @property
    def client_ids(self) -> tuple[str, ...]:
        return (self.client_id, *self.other_client_ids)

    def revoke_tokens(self) -> None:
        """Every access token granted so far is refused from now on."""
        self.tokens.clear()
        self.token_clients.clear()

    def rotate_key(self) -> None:
        """A new signing key; the key set publishes it beside the old one."""
        self.key = SigningKey()
        self.published.append(self.key)

    @property
    def deep_link_return_url(self) -> str:
        return self.url + "/deep-link-return"

    def login_initiation(
        self,
        user: User,
        target_link_uri: str,
        *,
        link_id: str = "",
        deep_link: bool = False,
        client_id: str = "",
    ) -> dict[str, str]:
        """The parameters the LMS sends the tool's login URL when ``user`` opens a link: a new
        one to ``target_link_uri``, or ``link_id`` (one a deep-linking response made);
        ``deep_link``: the link asks the tool for content (an instructor adding an activity);
        ``client_id``: the registration the link belongs to (``client_id`` by default)."""
        self.users[user.sub] = user
        link_id = link_id or f"link-{len(self.links) + 1}"
        self.links.setdefault(link_id, target_link_uri)
        client_id = self.link_clients.setdefault(link_id, client_id or self.client_id)
        if deep_link:
            self.deep_link_requests.add(link_id)
        return {
            "iss": self.issuer,
            "login_hint": user.sub,
            "target_link_uri": target_link_uri,
            "lti_message_hint": link_id,
            "client_id": client_id,
            "lti_deployment_id": self.deployment_id,
        }

    def id_token(self, request: dict[str, str]) -> str:
        user = self.users[request["login_hint"]]
        now = int(time.time())
        claims: Claims = {
            "iss": self.issuer,
            "aud": request["client_id"],
            "sub": user.sub,
            "iat": now,
            "exp": now + 300,
            "nonce": request["nonce"],
            "name": user.name,
            "email": user.email,
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "target_link_uri": self.links[request["lti_message_hint"]],
            LTI + "resource_link": {"id": request["lti_message_hint"], "title": "Exercise"},
            LTI + "roles": list(user.roles),
            LTI + "context": dict(CONTEXT),
            NRPS_CLAIM: {
                "context_memberships_url": self.memberships_url,
                "service_versions": ["2.0"],
            },
            AGS + "claim/endpoint": {
                "scope": [AGS + "scope/lineitem", AGS + "scope/score"],
                "lineitems": self.url + "/lineitems",
                "lineitem": self.lineitem_url(request["lti_message_hint"]),
            },
        }
        if request["lti_message_hint"] in self.deep_link_requests:
            self._ask_for_links(claims)
        headers = {"kid": self.key.kid}
        if self.tamper is not None:
            self.tamper(claims, headers)
            self.tamper = None
        return jwt.encode(claims, self.key.private, algorithm="RS256", headers=headers)

    def _ask_for_links(self, claims: Claims) -> None:
        """Make a resource-link launch's claims a deep-linking request's."""
        del claims[LTI + "resource_link"], claims[LTI + "target_link_uri"]
        claims[AGS + "claim/endpoint"].pop("lineitem")
        claims[LTI + "message_type"] = "LtiDeepLinkingRequest"
        claims[DL + "deep_linking_settings"] = {
            "deep_link_return_url": self.deep_link_return_url,
            "accept_types": ["link", "ltiResourceLink"],
            "accept_presentation_document_targets": ["iframe", "window"],
            "accept_multiple": self.accept_multiple,
            "title": "Week 3",
            "data": DEEP_LINK_DATA,
        }

    def _tool_signed(self, token: str, audience: str) -> Claims:
        """The claims of a JWT the tool signed with a key of its key set (``jwt`` errors)."""
        kid = jwt.get_unverified_header(token).get("kid")
        if self.tool_jwks is None and self.tool:
            with urlopen(self.tool + TOOL_JWKS, timeout=10) as answer:
                self.tool_jwks = json.load(answer)
        keys = [k for k in (self.tool_jwks or {}).get("keys", []) if k["kid"] == kid]
        if not keys:
            raise jwt.InvalidTokenError(f"the tool's key set has no key {kid}")
        claims: Claims = jwt.decode(
            token,
            RSAAlgorithm.from_jwk(keys[0]),  # type: ignore[arg-type]
            algorithms=["RS256"],
            audience=audience,
            options={"require": ["exp", "iat", "iss"]},
        )
        if claims["iss"] not in self.client_ids:
            raise jwt.InvalidIssuerError(f"no registration has the client id {claims['iss']}")
        return claims

    def receive_deep_link(self, form: dict[str, str]) -> tuple[int, str]:
        """The deep-linking return URL: check the tool's response, make its links."""
        try:
            claims = self._tool_signed(form.get("JWT", ""), self.issuer)
        except jwt.InvalidTokenError as exc:
            return 400, f"invalid response: {exc}"
        expected = {
            LTI + "message_type": "LtiDeepLinkingResponse",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            DL + "data": DEEP_LINK_DATA,
        }
        for name, value in expected.items():
            if claims.get(name) != value:
                return 400, f"invalid response: {name}"
        if not claims.get("nonce"):
            return 400, "invalid response: nonce"
        for item in claims.get(DL + "content_items") or []:
            if item.get("type") == "ltiResourceLink":
                link_id = f"link-{len(self.links) + 1}"
                self.links[link_id] = item["url"]
                self.line_items[link_id] = item.get("lineItem") or {}
        self.deep_link_replies.append(claims)
        back = '<a href="/course" target="_top">Back to the course</a>' if self.tool else ""
        return 200, f"<p>Links added.</p>{back}"

    def course_page(self) -> str:
        """The course as its instructor and learner see it: add an activity (the tool's
        deep-linking launch), the links made, each opened as the learner, and the gradebook."""
        login = self.tool + TOOL_LOGIN + "?"
        adding = login + urlencode(
            self.login_initiation(self.teacher, self.tool + TOOL_LAUNCH, deep_link=True)
        )
        frame = urlencode({"tool": adding})
        rows = []
        for link_id, item in self.line_items.items():
            opening = login + urlencode(self.login_initiation(self.learner, "", link_id=link_id))
            column = self.lineitem_url(link_id)
            given = ""  # the learner's latest Score in the column
            for line, score in self.scores:
                if line == column and score["userId"] == self.learner.sub:
                    given = score["scoreGiven"]
            rows.append(
                f"<tr><th scope='row'>{html.escape(str(item.get('label', link_id)))}</th>"
                f"<td><a href='{html.escape(opening)}' target='_blank'>Open as "
                f"{html.escape(self.learner.name)}</a></td>"
                f"<td>{given}</td><td>{item.get('scoreMaximum', '')}</td></tr>"
            )
        return (
            f"<!doctype html><html lang='en'><title>{CONTEXT['title']}</title>"
            f"<h1>{CONTEXT['label']} {CONTEXT['title']}</h1>"
            f"<p><a href='/course?{html.escape(frame)}'>Add an activity as "
            f"{html.escape(self.teacher.name)}</a></p>"
            "<table><caption>Gradebook</caption><tr><th scope='col'>Activity</th>"
            "<th scope='col'>Link</th>"
            f"<th scope='col'>{html.escape(self.learner.name)}</th>"
            "<th scope='col'>Out of</th></tr>" + "".join(rows) + "</table></html>"
        )

    def authenticate(self, query: dict[str, str]) -> tuple[int, str]:
        """The authentication endpoint: the auto-posting form, or an error."""
        expected = {
            "scope": "openid",
            "response_type": "id_token",
            "response_mode": "form_post",
            "prompt": "none",
        }
        for name, value in expected.items():
            if query.get(name) != value:
                return 400, f"invalid_request: {name}"
        if query.get("client_id") != self.link_clients.get(query.get("lti_message_hint", "")):
            return 400, "invalid_request: client_id"
        if query.get("redirect_uri") not in self.redirect_uris:
            return 400, "invalid_request: redirect_uri not registered"
        if query.get("login_hint") not in self.users or not query.get("nonce"):
            return 400, "login_required"
        if query.get("lti_message_hint") not in self.links:
            return 400, "invalid_request: unknown resource link"
        token = self.id_token(query)
        return 200, (
            f'<form method="post" action="{query["redirect_uri"]}">'
            f'<input type="hidden" name="id_token" value="{token}">'
            f'<input type="hidden" name="state" value="{query["state"]}">'
            "</form><script>document.forms[0].submit()</script>"
        )

    def grant_token(self, form: dict[str, str]) -> tuple[int, str]:
        """The token endpoint: a client-credentials grant whose client assertion is a JWT the
        tool signed with a key of its key set, for this platform's token URL."""
        if form.get("grant_type") != "client_credentials" or form.get("client_assertion_type") != (
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        ):
            return 400, json.dumps({"error": "unsupported_grant_type"})
        try:
            claims = self._tool_signed(form.get("client_assertion", ""), self.token_url)
        except jwt.InvalidTokenError as exc:
            return 401, json.dumps({"error": "invalid_client", "reason": str(exc)})
        if not claims.get("jti") or claims.get("sub") != claims["iss"]:
            return 401, json.dumps({"error": "invalid_client"})
        token = uuid.uuid4().hex
        self.tokens[token] = set(form.get("scope", "").split())
        self.token_clients[token] = claims["iss"]
        answer = {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
        return 200, json.dumps(answer | {"scope": form.get("scope", "")})

    def receive_score(
        self, path: str, authorization: str, content_type: str, body: bytes
    ) -> tuple[int, str]:
        """A line item's scores endpoint, for a token of the client its link belongs to."""
        token = authorization.removeprefix("Bearer ")
        if token not in self.tokens:
            return 401, "invalid token"
        link_id = path.removeprefix("/lineitems/").removesuffix("/scores")
        if self.token_clients[token] != self.link_clients.get(link_id, self.client_id):
            return 401, "a token of another client"
        if content_type != SCORE_TYPE:
            return 415, "a Score is expected"
        if self.failing_scores > 0:
            self.failing_scores -= 1
            return 503, "the gradebook is down for maintenance"
        self.scores.append((self.url + path.removesuffix("/scores"), json.loads(body)))
        return 200, ""

    def membership_page(
        self, query: dict[str, str], authorization: str, accept: str
    ) -> tuple[int, str, dict[str, str]]:
        """The course's membership list, one page (``?page=N``, from 0) of its members."""
        if NRPS_SCOPE not in self.tokens.get(authorization.removeprefix("Bearer "), set()):
            return 401, "a token granted the membership scope is expected", {}
        if accept != MEMBERSHIPS_TYPE:
            return 406, "a membership container is served", {}
        if self.memberships_down:
            return 503, "the course's members are not available now", {}
        self.member_pages += 1
        page = int(query.get("page", "0"))
        everyone = list(self.members.values())
        shown = everyone[page * self.members_page_size : (page + 1) * self.members_page_size]
        container = {
            "id": self.memberships_url,
            "context": CONTEXT,
            "members": [
                {"user_id": user.sub, "roles": list(user.roles), "status": status}
                | ({"name": user.name} if user.name else {})
                | ({"email": user.email} if user.email else {})
                for user, status in shown
            ],
        }
        more = (page + 1) * self.members_page_size < len(everyone)
        link = {"Link": f'<{self.memberships_url}?page={page + 1}>; rel="next"'} if more else {}
        return 200, json.dumps(container), link


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.action = ""
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "form":
            self.action = values.get("action") or ""
        elif tag == "input" and values.get("name"):
            self.fields[values["name"] or ""] = values.get("value") or ""


def read_form(html: str) -> tuple[str, dict[str, str]]:
    """The auto-posting form's action and fields."""
    reader = _FormReader()
    reader.feed(html)
    return reader.action, reader.fields


def _handler(platform: Platform) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(
            self, status: int, body: str, content_type: str, headers: dict[str, str] | None = None
        ) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/jwks":
                keys = [key.jwk for key in platform.published]
                served = {"keys": keys} if platform.key_set is None else platform.key_set
                self._send(200, json.dumps(served), "application/json")
            elif parts.path == "/course" and "tool" in parse_qs(parts.query):
                # The course page showing the tool in a frame, as an LMS does.
                src = html.escape(parse_qs(parts.query)["tool"][-1])
                page = f'<h1>Course</h1><iframe title="tool" src="{src}" width="1200" height="900">'
                self._send(200, page + "</iframe>", "text/html")
            elif parts.path == "/course" and platform.tool:
                self._send(200, platform.course_page(), "text/html")
            elif parts.path == "/auth":
                query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                status, body = platform.authenticate(query)
                self._send(status, body, "text/html")
            elif parts.path == urlsplit(platform.memberships_url).path:
                query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                status, body, headers = platform.membership_page(
                    query, self.headers.get("Authorization", ""), self.headers.get("Accept", "")
                )
                content_type = MEMBERSHIPS_TYPE if status == 200 else "text/plain"
                self._send(status, body, content_type, headers)
            else:
                self._send(404, "not found", "text/plain")

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = urlsplit(self.path).path
            if path == "/token":
                form = {k: v[-1] for k, v in parse_qs(body.decode()).items()}
                status, answer = platform.grant_token(form)
                self._send(status, answer, "application/json")
            elif path == "/deep-link-return":
                form = {k: v[-1] for k, v in parse_qs(body.decode()).items()}
                status, answer = platform.receive_deep_link(form)
                self._send(status, answer, "text/html")
            elif path.startswith("/lineitems/") and path.endswith("/scores"):
                status, answer = platform.receive_score(
                    path,
                    self.headers.get("Authorization", ""),
                    self.headers.get("Content-Type", ""),
                    body,
                )
                self._send(status, answer, "text/plain")
            else:
                self._send(404, "not found", "text/plain")

    return Handler


@contextmanager
def running_platform(tool: str = "") -> Iterator[Platform]:
    """The platform, serving on a free port of 127.0.0.1 until the block ends; ``tool``: the
    tool's base URL (its launch URL registered, its course page offered, its instructor and
    learner members of the course, for use by hand)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    platform = Platform(url=f"http://127.0.0.1:{server.server_address[1]}", tool=tool)
    if tool:
        platform.redirect_uris.add(tool + TOOL_LAUNCH)
        platform.enrol(platform.teacher)
        platform.enrol(platform.learner)
    platform.published.append(platform.key)
    server.RequestHandlerClass = _handler(platform)
    with serving(server):
        yield platform


@contextmanager
def serving(server: ThreadingHTTPServer) -> Iterator[None]:
    """``server`` answers in a thread of its own until the block ends, then is closed."""
    # shutdown() waits for serve_forever to look at its flag: every 10 ms, not every 0.5 s (the
    # default, which made each platform's teardown take 0.25 s on average)
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def main() -> None:
    """``python -m tests.app.lti.platform``: the platform for a person checking a setup by hand
    (docs/lms.md), until Ctrl+C."""
    # Ctrl+C stops it even when started with SIGINT ignored, as a shell's background job and
    # its children are: Python then installs no KeyboardInterrupt of its own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--tool", default="http://127.0.0.1:8000", help="the tool's base URL")
    tool = parser.parse_args().tool.rstrip("/")
    with running_platform(tool=tool) as lms:
        print(
            "Register this platform with numjudge:\n"
            f"  numjudge lti add-platform --issuer {lms.issuer} --client-id {lms.client_id} "
            f"--deployment {lms.deployment_id} --jwks-url {lms.jwks_url} "
            f"--auth-url {lms.auth_url} --token-url {lms.token_url}\n"
            f"then open its course page: {lms.url}/course\n"
            "Ctrl+C stops the platform.",
            flush=True,
        )
        with suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
