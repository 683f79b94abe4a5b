"""What every service command shares: settings, logging, a migrated database."""

from __future__ import annotations

from app.core.config import Settings, get_settings
from app.core.db import upgrade_database
from app.core.logging import configure_logging


def service_settings(*, migrate: bool = True, log: bool = True) -> Settings:
    settings = get_settings()
    if log:
        configure_logging(settings.log_level, settings.log_format, settings.secrets)
    if migrate and settings.auto_migrate:
        upgrade_database(settings.database_url)
    return settings
