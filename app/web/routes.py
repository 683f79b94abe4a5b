"""The web pages' router: included by ``app/main.py`` (``app.include_router(router)``)."""

from __future__ import annotations

from fastapi import APIRouter

from app.web import (
    api_docs,
    client_files,
    pages_account,
    pages_assignments,
    pages_instructor,
    pages_learn,
    pages_lti,
    pages_mining,
    pages_roster,
    pages_similarity,
    static,
)

router = APIRouter(include_in_schema=False)
router.include_router(static.router)
router.include_router(client_files.router)
router.include_router(api_docs.router)
router.include_router(pages_account.router)
router.include_router(pages_learn.router)
router.include_router(pages_instructor.router)
router.include_router(pages_assignments.router)
router.include_router(pages_roster.router)
router.include_router(pages_similarity.router)
router.include_router(pages_mining.router)
router.include_router(pages_lti.router)
