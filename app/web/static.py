"""``/static/…``: the pages' CSS, JavaScript and vendored bundles, served from ``app/static``."""

from __future__ import annotations

from fastapi import APIRouter, status
from fastapi.responses import FileResponse, Response

from app.web.templating import STATIC_DIR

router = APIRouter(include_in_schema=False)

LONG_CACHE = "public, max-age=31536000, immutable"


@router.get("/static/{path:path}")
def static_file(path: str, v: str | None = None) -> Response:
    """A file under ``app/static``; fingerprinted URLs (``?v=``) are cached for a year."""
    root = STATIC_DIR.resolve()
    file = (root / path).resolve()
    if not file.is_relative_to(root) or not file.is_file():
        return Response("Not found", status_code=status.HTTP_404_NOT_FOUND, media_type="text/plain")
    cache = LONG_CACHE if v else "public, max-age=300"
    return FileResponse(file, headers={"Cache-Control": cache})
