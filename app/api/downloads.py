"""Downloads: a file built by a service (a temporary file) sent in chunks, and a CSV built in
memory. Both are attachments named in UTF-8 and never cached (they hold learners' scores)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO
from urllib.parse import quote

from fastapi.responses import Response, StreamingResponse

CHUNK_BYTES = 64 * 1024


def _chunks(file: IO[bytes]) -> Iterator[bytes]:
    try:
        while chunk := file.read(CHUNK_BYTES):
            yield chunk
    finally:
        file.close()  # a temporary file: closing deletes it, also when the client went away


def _attachment(filename: str) -> dict[str, str]:
    return {
        "Content-Disposition": f"attachment; filename*=UTF-8''{quote(filename)}",
        "Cache-Control": "no-store",
    }


def file_download(file: IO[bytes], filename: str, media_type: str) -> StreamingResponse:
    """Stream ``file`` from where it stands, then close it."""
    return StreamingResponse(_chunks(file), media_type=media_type, headers=_attachment(filename))


def csv_download(body: str, filename: str) -> Response:
    """A CSV text as an attachment called ``filename`` (which ends in ``.csv``)."""
    return Response(body, media_type="text/csv; charset=utf-8", headers=_attachment(filename))
