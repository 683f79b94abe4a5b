"""The exercise page on a phone (issue 39, item 9), at a phone's, a laptop's and a wide
screen's width: a link at the top goes to the code, a display equation that scrolls shows it
(a shadow, a visible scrollbar) and takes the keyboard's focus, a try-your-own-input box is as
tall as its value, and the keyboard shortcuts are not offered on a touch screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_layout import EXERCISE, WIDTHS
from tests.e2e.test_learner_flow import sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

MATRIX = "np.array([\n  [1.0, 2.0],\n  [3.0, 4.0],\n  [5.0, 6.0],\n  [7.0, 8.0],\n])"


def open_exercise(browser: Any, server: Server, size: tuple[int, int]) -> Any:
    phone = size[0] < 600
    # A phone is a touch screen without hover: (hover: none) and (pointer: coarse) match.
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    sign_in(page, server.url, *INSTRUCTOR)
    page.goto(f"{server.url}/learn/{EXERCISE}")
    page.wait_for_selector("#statement .katex")
    page.wait_for_selector("#editor .cm-editor")
    return page


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_exercise_page_reads_well_at_its_width(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    page = open_exercise(browser, server, size)
    phone = size[0] < 600
    to_code = page.locator("#to-code")
    editor = page.locator("#editor")
    if size[0] < 1100:  # one column: the editor is far down, the link to it at the top
        box = to_code.bounding_box()
        assert to_code.is_visible() and box is not None and box["y"] < size[1] / 2
        assert editor.bounding_box()["y"] > size[1]
        to_code.click()
        page.wait_for_function("() => document.activeElement.id === 'editor-heading'")
        top = editor.bounding_box()["y"]
        assert 0 <= top < size[1]
    else:  # two columns: the editor is in view already
        assert not to_code.is_visible()
        assert editor.bounding_box()["y"] < size[1]

    scrolling = page.evaluate("""[...document.querySelectorAll('.math.block[data-scrolls]')]
        .map(e => ({tabindex: e.getAttribute('tabindex'), role: e.getAttribute('role'),
                    shadow: getComputedStyle(e).backgroundImage,
                    bar: getComputedStyle(e).scrollbarWidth}))""")
    if phone:
        assert scrolling, "no display equation of the statement scrolls at a phone's width"
    for equation in scrolling:
        assert equation["tabindex"] == "0" and equation["role"] == "group"
        assert equation["shadow"].count("gradient(") == 4 and equation["bar"] == "thin"

    area = page.locator("#custom-inputs textarea").first
    area.fill(MATRIX)
    assert page.evaluate(
        "e => e.scrollHeight <= e.clientHeight + 1 && e.clientHeight > 5 * 14",
        area.element_handle(),
    ), "the input box is not as tall as its six lines"

    assert page.locator("#shortcuts").is_visible() is not phone
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches") is phone
    assert_accessible(page)
    page.context.close()
