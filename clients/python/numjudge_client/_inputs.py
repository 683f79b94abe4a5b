"""The public cases' inputs as the server serves them (``GET /exercises/{id}/public-inputs``),
decoded back into the values the grader passes: the encoding of app/services/public_inputs.py
read in reverse."""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PublicCase:
    """A public case: its name and the entry function's arguments, by name."""

    name: str
    inputs: Mapping[str, Any]


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if "npy" in value:
        import numpy as np  # only an exercise with arrays needs it, and then the kernel has it

        array = np.load(io.BytesIO(base64.b64decode(value["npy"])), allow_pickle=False)
        return array[()] if value.get("scalar") else array
    if "float" in value:
        return float(value["float"])
    if "tuple" in value:
        return tuple(decode(item) for item in value["tuple"])
    if "dict" in value:
        return {decode(key): decode(item) for key, item in value["dict"]}
    return {key: decode(item) for key, item in value.items()}


def public_cases(data: Mapping[str, Any]) -> tuple[PublicCase, ...]:
    return tuple(
        PublicCase(case["name"], {name: decode(v) for name, v in case["inputs"].items()})
        for case in data["cases"]
    )
