"""Text every database stores: the check at the door, on generated JSON values."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.text import UnstorableText, check_storable, first_unstorable

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in [key, *_strings(item)]]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


@given(JSON_VALUES)
def test_a_value_is_unstorable_exactly_when_a_key_or_a_string_holds_a_nul(value: object) -> None:
    found = first_unstorable(value)
    assert (found is None) == all("\x00" not in text for text in _strings(value))


@given(JSON_VALUES)
def test_a_lone_surrogate_is_found_after_what_comes_first_and_named_by_its_path(
    value: object,
) -> None:
    hidden = "ok \udfff"
    holder = {"members": [value, {"email": hidden}]}
    found = first_unstorable(holder, "claims")
    if all("\x00" not in text for text in _strings(value)):
        assert found == "claims.members[1].email"
    else:
        assert found is not None and "claims.members[0]" in found  # or "a key of ..."


@pytest.mark.parametrize("text", ["a\x00b", "\ud800", json.loads('"\\udc00x"')])
def test_check_storable_names_what_is_wrong(text: str) -> None:
    with pytest.raises(UnstorableText, match=r"NUL|surrogate"):
        check_storable(text)
