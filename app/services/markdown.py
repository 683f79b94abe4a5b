"""Markdown with ``$…$`` / ``$$…$$`` math to HTML that KaTeX renders in the browser.

Math becomes ``<span class="math inline">…</span>`` and ``<div class="math block">…</div>``
(escaped TeX inside). Raw HTML in the source is escaped, not passed through. A line break
inside a paragraph between two East Asian (wide) characters renders as nothing, not as a
space: Japanese is written without spaces between words.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin


def is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in ("W", "F")


def nearest_content(tokens: Sequence[Token], start: int, step: int) -> str:
    """The content of the first token from ``start`` in direction ``step`` that has any,
    skipping markup such as ``strong_open`` (emphasis around a word is not a word break)."""
    index = start
    while 0 <= index < len(tokens):
        if tokens[index].content:
            return tokens[index].content
        index += step
    return ""


def softbreak(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    before, after = nearest_content(tokens, idx - 1, -1), nearest_content(tokens, idx + 1, 1)
    if before and after and is_wide(before[-1]) and is_wide(after[0]):
        return ""
    return "\n"


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    parser = (
        MarkdownIt("commonmark", {"html": False, "typographer": False})
        .enable(["table", "strikethrough"])
        .use(
            dollarmath_plugin,
            allow_labels=False,
            allow_space=True,
            allow_digits=False,
            double_inline=True,
        )
    )
    parser.add_render_rule("softbreak", softbreak)
    return parser


@lru_cache(maxsize=256)
def render_markdown(text: str) -> str:
    """HTML for a statement or theory (cached by content)."""
    html: str = _parser().render(text)
    return html
