"""The service's OpenAPI schema as JSON, from ``create_app`` (no server, no database touched).

``python -m tests.clients.openapi_schema > openapi.json`` feeds ``make vscode-types``.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from app.core.config import Settings
from app.main import create_app


def schema_json() -> str:
    with tempfile.TemporaryDirectory() as work:
        settings = Settings(
            database_url=f"sqlite:///{Path(work) / 'schema.db'}",
            queue_url="memory://",
            workers=0,
            auto_migrate=False,
        )
        schema = create_app(settings, grading=False).openapi()
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    sys.stdout.write(schema_json())
