"""The code a client sends, and where each of its lines came from.

A submission built from a notebook is a module the learner never wrote as such: its lines come
from several cells. The server's messages name lines of that module ("line 7"); ``SentCode``
knows which cell and line each came from, so the learner reads "line 4 of In [3]" (in a
Japanese message, "3 行目" becomes "In [3] の 4 行目").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

LINE = re.compile(r"\bline (\d+)")
LINE_JA = re.compile(r"(?<![\d.])(\d+) 行目")


@dataclass(frozen=True)
class Origin:
    """Lines ``first`` to ``last`` of the code sent are lines ``source_first``… of ``source``."""

    first: int
    last: int
    source: str
    source_first: int


@dataclass(frozen=True)
class SentCode:
    """The exact code sent to the server, with the cells its lines came from (none for a
    string, which is sent as written)."""

    code: str
    origins: tuple[Origin, ...] = ()

    def origin(self, line: int) -> tuple[str, int] | None:
        """The cell and its line that wrote a line of the code sent; ``None`` if none did."""
        for origin in self.origins:
            if origin.first <= line <= origin.last:
                return origin.source, origin.source_first + line - origin.first
        return None

    def where(self, line: int) -> str | None:
        """``"line 4 of In [3]"`` for a line of the code sent, ``None`` if no cell wrote it."""
        found = self.origin(line)
        return None if found is None else f"line {found[1]} of {found[0]}"

    def where_ja(self, line: int) -> str | None:
        """``"In [3] の 4 行目"``: ``where`` as a Japanese message says it."""
        found = self.origin(line)
        return None if found is None else f"{found[0]} の {found[1]} 行目"

    def locate(self, text: str) -> str:
        """``text`` with each "line N" (or "N 行目") of the code sent named by its cell and
        line there."""
        if not self.origins:
            return text
        text = LINE.sub(lambda match: self.where(int(match[1])) or match[0], text)
        return LINE_JA.sub(lambda match: self.where_ja(int(match[1])) or match[0], text)

    @property
    def sources(self) -> tuple[str, ...]:
        """The cells (or files) the code came from, in the order they appear in it."""
        return tuple(dict.fromkeys(origin.source for origin in self.origins))

    def relabelled(self, labels: Mapping[str, str]) -> SentCode:
        """This code with each cell's label (``In [3]``) replaced as ``labels`` says, in its
        ``# In [3]`` lines and its origins."""
        code = "".join(
            f"# {labels[line[2:].rstrip()]}\n" if line[2:].rstrip() in labels else line
            for line in self.code.splitlines(keepends=True)
        )
        origins = tuple(
            Origin(o.first, o.last, labels.get(o.source, o.source), o.source_first)
            for o in self.origins
        )
        return SentCode(code, origins)

    def appended(self, text: str) -> SentCode:
        """This code with ``text`` (lines no cell wrote) added at its end."""
        return SentCode(self.code.rstrip("\n") + "\n\n" + text, self.origins)
