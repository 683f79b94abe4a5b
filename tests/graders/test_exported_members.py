"""graders/__init__.py: ``__all__`` lists exactly the public names the package defines."""

from __future__ import annotations

import types

import graders


def test_all_lists_every_public_name_and_only_those() -> None:
    public = [name for name, value in vars(graders).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)]
    assert sorted(graders.__all__) == sorted(public)  # ruff (RUF022) keeps the list in order
    assert len(set(graders.__all__)) == len(graders.__all__)


def test_every_exported_name_exists() -> None:
    missing = [name for name in graders.__all__ if not hasattr(graders, name)]
    assert missing == []
