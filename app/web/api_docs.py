"""``/docs``: the API's live description, Swagger UI served from ``app/static/vendor`` (no CDN),
under the pages' Content-Security-Policy (scripts from this site only)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.web.templating import render

router = APIRouter(include_in_schema=False)


@router.get("/docs")
def api_docs(request: Request) -> Response:
    return render(request, "api_docs.html", {"openapi_url": request.app.openapi_url})
