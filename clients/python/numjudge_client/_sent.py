"""The code a client sends, and where each of its lines came from.

A submission built from a notebook is a module the learner never wrote as such: its lines come
from several cells. The server's messages name lines of that module ("line 7"); ``SentCode``
knows which cell and line each came from, so the learner reads "line 4 of In [3]".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

LINE = re.compile(r"\bline (\d+)")


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

    def where(self, line: int) -> str | None:
        """``"line 4 of In [3]"`` for a line of the code sent, ``None`` if no cell wrote it."""
        for origin in self.origins:
            if origin.first <= line <= origin.last:
                return f"line {origin.source_first + line - origin.first} of {origin.source}"
        return None

    def locate(self, text: str) -> str:
        """``text`` with each "line N" of the code sent named by its cell and line there."""
        if not self.origins:
            return text
        return LINE.sub(lambda match: self.where(int(match[1])) or match[0], text)

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
