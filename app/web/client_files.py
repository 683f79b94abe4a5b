"""``/downloads/…``: the built clients a learner installs (the Python client's wheel, the VS Code
extension), served from ``Settings.clients_dir`` when the course has put them there."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from fastapi import APIRouter, status
from fastapi.responses import FileResponse, Response

from app.api.deps import SettingsDep

router = APIRouter(include_in_schema=False)


class ClientKind(Enum):
    NOTEBOOK = "notebook"  # pip installs the wheel by its URL (its name must stay the wheel's)
    VSCODE = "vscode"


PATTERNS = {ClientKind.NOTEBOOK: "numjudge_client-*.whl", ClientKind.VSCODE: "numjudge*.vsix"}
ZIP = "application/zip"  # a wheel and a vsix are both zip archives


@dataclass(frozen=True)
class ClientFile:
    kind: ClientKind
    path: Path

    @property
    def url(self) -> str:
        return f"/downloads/{self.path.name}"


def client_files(clients_dir: Path | None) -> dict[ClientKind, ClientFile]:
    """The newest built file of each client in ``clients_dir`` (none when it is unset)."""
    if clients_dir is None or not clients_dir.is_dir():
        return {}
    found: dict[ClientKind, ClientFile] = {}
    for kind, pattern in PATTERNS.items():
        files = [file for file in clients_dir.glob(pattern) if file.is_file()]
        if files:
            newest = max(files, key=lambda file: file.stat().st_mtime)
            found[kind] = ClientFile(kind, newest)
    return found


@router.get("/downloads/{name}")
def client_download(name: str, settings: SettingsDep) -> Response:
    """One of the files ``client_files`` offers, by its name; nothing else in the folder."""
    for file in client_files(settings.clients_dir).values():
        if file.path.name == name:
            return FileResponse(
                file.path,
                media_type=ZIP,
                filename=name,
                headers={"Cache-Control": "public, max-age=300"},
            )
    return Response("Not found", status_code=status.HTTP_404_NOT_FOUND, media_type="text/plain")
