"""Statement markdown to HTML with math left for KaTeX."""

from __future__ import annotations

from app.services.markdown import render_markdown


def test_math_becomes_katex_spans_and_divs() -> None:
    html = render_markdown("Gate $z = \\sigma(a)$ costs $5 and $10.\n\n$$\nh = z h\n$$\n")
    assert '<span class="math inline">z = \\sigma(a)</span>' in html
    assert "$5 and $10" in html
    assert '<div class="math block">\nh = z h\n</div>' in html


def test_raw_html_is_escaped_and_tables_render() -> None:
    html = render_markdown("<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<table>" in html and "<td>1</td>" in html


def test_math_content_is_escaped() -> None:
    assert "a &lt; b" in render_markdown("$a < b$")


def test_a_line_break_between_japanese_characters_adds_no_space() -> None:
    html = render_markdown(
        "日本語の文は\n改行されても続く。\nEnglish lines\nkeep it, as does 文\nmixed."
    )
    assert html == (
        "<p>日本語の文は改行されても続く。\nEnglish lines\nkeep it, as does 文\nmixed.</p>\n"
    )


def test_emphasis_at_a_japanese_line_break_adds_no_space() -> None:
    assert (
        render_markdown("結果を\n**すべて**返します")
        == "<p>結果を<strong>すべて</strong>返します</p>\n"
    )


def test_worked_example_markers_render_as_nothing() -> None:
    # graders/authoring/worked_examples.py: the lines validate reads to find a statement's
    # worked example
    text = (
        "Text.\n\n[//]: # (worked example: small)\n\nWith 0.5.\n\n"
        "[//]: # (end of worked example)\n\nAfter.\n"
    )
    assert render_markdown(text) == "<p>Text.</p>\n<p>With 0.5.</p>\n<p>After.</p>\n"
