"""Signing in, for ``%numjudge login`` and ``numjudge login`` alike: the server is checked
before anything is asked, the token before anything is saved."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable
from enum import Enum

from numjudge_client._client import Client
from numjudge_client._config import save_credentials
from numjudge_client._language import Language, say


class TokenSource(Enum):
    FILE = "file"
    ENVIRONMENT = "NUMJUDGE_TOKEN"
    PROMPT = "prompt"
    STDIN = "stdin"


def sign_in(
    server: str, ask_token: Callable[[], tuple[str, TokenSource]], language: Language
) -> str:
    """Checks that a numjudge server answers at ``server``, then asks for the token
    (``ask_token``), checks it there and saves it (mode 0600); returns what to tell the
    learner. A token from ``NUMJUDGE_TOKEN`` stays in the environment: only the server is
    saved."""
    server = server.rstrip("/")
    with Client(server, language=language) as anonymous:
        anonymous.check_reachable()  # before asking for anything
    token, source = ask_token()
    with Client(server, token, language=language) as client:
        client.check_token()
    if source is TokenSource.ENVIRONMENT:
        path = save_credentials(server, None)
        return say(
            "Signed in to {server} with NUMJUDGE_TOKEN; the server is saved in {path}, the "
            "token stays in the environment.",
            language,
            server=server,
            path=path,
        )
    path = save_credentials(server, token)
    said = say(
        "Signed in to {server}. The token is saved in {path} (readable only by {user}).",
        language,
        server=server,
        path=path,
        user=getpass.getuser(),
    )
    if os.environ.get("NUMJUDGE_TOKEN"):
        said += "\n" + say(
            "NUMJUDGE_TOKEN is set in this environment and wins over the saved token.", language
        )
    return said


def token_prompt(server: str, language: Language) -> str:
    return say("API token for {server} (create one on {server}/account): ", language, server=server)
