"""``/docs`` serves the vendored Swagger UI under the pages' CSP; nothing comes from a CDN."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.web.templating import STATIC_DIR


def test_docs_use_only_vendored_files_under_a_csp(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-eval" not in csp
    assert "default-src 'self'" in csp and "connect-src 'self'" in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "http://" not in page.text and "https://" not in page.text
    assert "<script>" not in page.text  # no inline script for the CSP to refuse
    assets = re.findall(r'(?:src|href)="(/static/[^"?]+)', page.text)
    assert {
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
        "/static/js/api-docs.js",
        "/static/vendor/swagger-ui/swagger-ui.css",
    } <= set(assets)
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert 'data-openapi-url="/openapi.json"' in page.text
    assert client.get("/openapi.json").json()["info"]["title"] == "numjudge"


def test_no_page_loads_from_a_cdn(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404
    bundle = (STATIC_DIR / "vendor" / "swagger-ui" / "swagger-ui-bundle.js").read_bytes()
    assert len(bundle) > 500_000  # the real bundle, committed
    versions = (STATIC_DIR / "vendor" / "VERSIONS.txt").read_text()
    assert re.search(r"^swagger-ui-dist \d+\.\d+\.\d+$", versions, re.M)
