"""Where ``%numjudge login`` keeps the server and token: the user's config folder, mode 0600."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

DEFAULT_SERVER = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Credentials:
    server: str
    token: str | None


def config_dir() -> Path:
    """``$NUMJUDGE_CONFIG_DIR``, else the platform's per-user config folder + ``numjudge``."""
    if override := os.environ.get("NUMJUDGE_CONFIG_DIR"):
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "numjudge"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "numjudge"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "numjudge"


def credentials_path() -> Path:
    return config_dir() / "credentials.json"


def save_credentials(server: str, token: str | None) -> Path:
    """Writes the file readable by its owner only (created 0600, never wider for a moment);
    without a token (``NUMJUDGE_TOKEN`` gives it) only the server."""
    path = credentials_path()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.chmod(path, 0o600)  # an older file keeps its mode through O_CREAT
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        json.dump({"server": server, "token": token}, file)
    return path


def load_credentials() -> Credentials:
    """The saved server and token, overridden by ``NUMJUDGE_SERVER`` / ``NUMJUDGE_TOKEN``."""
    saved: dict[str, str] = {}
    path = credentials_path()
    if path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
    return Credentials(
        server=os.environ.get("NUMJUDGE_SERVER") or saved.get("server") or DEFAULT_SERVER,
        token=os.environ.get("NUMJUDGE_TOKEN") or saved.get("token"),
    )


def forget_token() -> tuple[str, Path]:
    """``numjudge logout``: the saved file keeps the server, no longer the token."""
    saved = load_credentials()
    server = saved.server
    return server, save_credentials(server, None)
