"""Pure ASGI middleware of the whole app (nothing buffered).

- ``DeclaredSizeLimit``: a body whose ``Content-Length`` is over the limit gets ``413`` before
  anything parses it (the app's ``max_body_size`` also stops bodies sent without a length, as
  they arrive; this one answers in JSON like every other API error). Up to ``DRAIN_BYTES`` of
  the refused body are read and dropped first: a client still sending when the server closes
  would see its connection reset instead of the answer.
- ``JsonHeaders``: ``nosniff`` on every JSON answer, ``no-store`` when the request carried
  credentials (a Bearer token or the session cookie), so no cache keeps a user's data.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

JSON_TYPES = ("application/json", "application/problem+json")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
DRAIN_BYTES = 16 * 1024 * 1024


class DeclaredSizeLimit:
    """413 for a declared body over ``max_body`` (``max_form`` for forms); the API's message
    names the limit users know, ``max_code`` bytes of code, beside the body's."""

    def __init__(self, app: ASGIApp, max_body: int, max_form: int, max_code: int) -> None:
        self.app = app
        self.max_body = max_body
        self.max_form = max_form
        self.max_code = max_code

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            form = headers.get("content-type", "").startswith(FORM_TYPES)
            limit = self.max_form if form else self.max_body
            declared = headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limit:
                if int(declared) <= DRAIN_BYTES:
                    await _drain(receive)
                detail = f"Request body too large: {declared} bytes, at most {limit}" + (
                    "" if form else f" (a submission's code may hold {self.max_code} bytes)"
                )
                response = JSONResponse(
                    {"detail": detail}, status_code=413, headers={"Connection": "close"}
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _drain(receive: Receive) -> None:
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


class JsonHeaders:
    """Adds the headers as the response starts."""

    def __init__(self, app: ASGIApp, session_cookie: str) -> None:
        self.app = app
        self.session_cookie = session_cookie

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_headers = Headers(scope=scope)
        credentialed = (
            "authorization" in request_headers
            or f"{self.session_cookie}=" in request_headers.get("cookie", "")
        )

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if headers.get("content-type", "").startswith(JSON_TYPES):
                    headers["X-Content-Type-Options"] = "nosniff"
                    if credentialed:
                        headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)
