"""graders/api.py and graders/exercises/__init__.py: ``__all__`` lists exactly the public
names the package defines, at once or when first asked for (graders/api.py's, graders/lazy.py),
and a name asked for of graders.api is the object its module defines."""

from __future__ import annotations

import re
import types

import pytest

import graders.exercises
from graders import api, lazy

PACKAGES = [api, graders.exercises]


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.__name__)
def test_all_lists_every_public_name_and_only_those(package: types.ModuleType) -> None:
    public = {
        name
        for name, value in vars(package).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    if package is api:
        public |= set(lazy.imported_names(api.__file__))
    assert sorted(package.__all__) == sorted(public)  # ruff (RUF022) keeps the list in order
    assert len(set(package.__all__)) == len(package.__all__)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.__name__)
def test_every_exported_name_exists(package: types.ModuleType) -> None:
    missing = [name for name in package.__all__ if not hasattr(package, name)]
    assert missing == []


def test_a_name_of_the_api_is_its_modules_object_and_an_unknown_one_is_refused() -> None:
    from graders.grading.grade import grade

    assert api.grade is grade
    with pytest.raises(AttributeError, match=re.escape("'graders.api' has no attribute 'nothing'")):
        _ = api.nothing  # type: ignore[attr-defined]
