"""How close a value must be to the expected one, as in ``numpy.allclose``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    rtol: float = 1e-7
    atol: float = 1e-9

    def describe(self) -> str:
        return f"rtol={self.rtol:g}, atol={self.atol:g}"
