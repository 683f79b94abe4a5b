"""A file built by a service (a temporary file) sent as a download, in chunks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO
from urllib.parse import quote

from fastapi.responses import StreamingResponse

CHUNK_BYTES = 64 * 1024


def _chunks(file: IO[bytes]) -> Iterator[bytes]:
    try:
        while chunk := file.read(CHUNK_BYTES):
            yield chunk
    finally:
        file.close()  # a temporary file: closing deletes it, also when the client went away


def file_download(file: IO[bytes], filename: str, media_type: str) -> StreamingResponse:
    """Stream ``file`` from where it stands, then close it."""
    return StreamingResponse(
        _chunks(file),
        media_type=media_type,
        headers={
            "Content-Disposition": f"attachment; filename*=UTF-8''{quote(filename)}",
            "Cache-Control": "no-store",
        },
    )
