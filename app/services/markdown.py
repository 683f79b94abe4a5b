"""Markdown with ``$…$`` / ``$$…$$`` math to HTML that KaTeX renders in the browser.

Math becomes ``<span class="math inline">…</span>`` and ``<div class="math block">…</div>``
(escaped TeX inside). Raw HTML in the source is escaped, not passed through.
"""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return (MarkdownIt("commonmark", {"html": False, "typographer": False})
            .enable(["table", "strikethrough"])
            .use(dollarmath_plugin, allow_labels=False, allow_space=True, allow_digits=False,
                 double_inline=True))


@lru_cache(maxsize=256)
def render_markdown(text: str) -> str:
    """HTML for a statement or theory (cached by content)."""
    return _parser().render(text)
