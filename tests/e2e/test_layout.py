"""The main pages at a phone's, a laptop's and a wide screen's width: nothing wider than the
screen, no text cut off, the menu folded on a phone, the results stacked as cards."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any
from urllib.parse import quote

import pytest

from tests.e2e.conftest import INSTRUCTOR, Server, assert_accessible
from tests.e2e.test_learner_flow import RESULT_TIMEOUT_MS, WRONG, set_code, sign_in

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(240)]

EXERCISE = "gru-update-gate"
ASSIGNMENT = "gru-by-hand"
WIDTHS = {"phone": (390, 844), "laptop": (1366, 768), "wide": (1920, 1080)}


def open_page(browser: Any, server: Server, size: tuple[int, int], path: str) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    sign_in(page, server.url, *INSTRUCTOR)
    page.goto(f"{server.url}{path}")
    return page


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_exercise_page_fits_its_width(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    page = open_page(browser, server, size, f"/learn/{EXERCISE}")
    page.wait_for_selector("#statement .katex")
    page.wait_for_selector("#editor .cm-editor")
    assert page_width(page) <= size[0]
    clipped = page.evaluate("""[...document.querySelectorAll('.math.block')]
        .filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.dataset.tex)""")
    assert clipped == []
    # The starter's lines (its TODO comment too) wrap inside the editor: nothing past its edge.
    assert page.evaluate("""(() => { const s = document.querySelector('#editor .cm-scroller');
        return s.scrollWidth <= s.clientWidth + 1; })()""")
    page.context.close()


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_gradebook_keeps_its_total_in_view(
    server: Server, browser: Any, size: tuple[int, int]
) -> None:
    page = open_page(browser, server, size, "/instructor/gradebook")
    total = page.locator("th.total")
    total.wait_for()
    assert page_width(page) <= size[0]
    box = total.bounding_box()
    assert box is not None and box["x"] + box["width"] <= size[0]
    tallest = page.evaluate("""Math.max(...[...document.querySelectorAll(
        '.gradebook th.exercise-col .title')].map(e => e.getBoundingClientRect().height /
        parseFloat(getComputedStyle(e).lineHeight)))""")
    assert tallest <= 2.05  # a long title takes two lines at most
    page.context.close()


def test_grading_shows_its_progress_and_marks_the_old_result(server: Server, browser: Any) -> None:
    page = open_page(browser, server, WIDTHS["laptop"], f"/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    run = page.get_by_role("button", name="Run public tests")
    run.click()
    page.locator("#results .verdict").wait_for(timeout=RESULT_TIMEOUT_MS)
    held: list[Any] = []
    # Hold the next run until the checks below are done.
    page.route("**/run?*", lambda route: held.append(route))
    run.click()
    progress = page.locator("#progress")
    progress.wait_for(state="visible")
    page.wait_for_function(
        "() => /\\d\\.\\d s$/.test(document.getElementById('progress').textContent)"
    )
    first = progress.inner_text()
    assert re.fullmatch(r"Running the public tests… \d+\.\d s", first)
    page.wait_for_function(
        "(t) => document.getElementById('progress').textContent !== t", arg=first
    )  # the elapsed time moves
    assert "stale" in (page.locator("#results").get_attribute("class") or "")
    assert page.locator("#results .stale-note").inner_text() == (
        "Previous result: it is replaced when the new one is ready."
    )
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector("#progress", state="hidden", timeout=RESULT_TIMEOUT_MS)
    assert page.locator("#results .stale-note").count() == 0
    assert page.locator("#results .verdict").count() == 1
    page.context.close()


class Visitor(Enum):
    SIGNED_OUT = "signed out"
    LEARNER = "learner"
    INSTRUCTOR = "instructor"


@dataclass(frozen=True)
class Visitors:
    """Each visitor's cookies (Playwright storage states), and the learner's failed
    submission."""

    states: dict[Visitor, dict[str, Any]]
    submission_url: str


@pytest.fixture(scope="module")
def visitors(server: Server, browser: Any) -> Iterator[Visitors]:
    """A new learner who submitted the wrong gate (failed tests, long messages, a hint) and
    the instructor, both signed in."""
    url = server.url
    states: dict[Visitor, dict[str, Any]] = {Visitor.SIGNED_OUT: {}}
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    name, password = f"phoebe{os.urandom(3).hex()}", "narrow-screens-1"
    page.goto(f"{url}/signup")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Repeat the password").fill(password)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{url}/")
    page.goto(f"{url}/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    set_code(page, WRONG)
    page.get_by_role("button", name="Submit").click()
    page.locator('#results .verdict[data-verdict="failed"]').wait_for(timeout=RESULT_TIMEOUT_MS)
    submission = page.get_by_role("link", name="Open this submission in your history")
    submission_url = str(submission.get_attribute("href"))
    states[Visitor.LEARNER] = context.storage_state()
    context.close()
    context = browser.new_context()
    sign_in(context.new_page(), url, *INSTRUCTOR)
    states[Visitor.INSTRUCTOR] = context.storage_state()
    context.close()
    yield Visitors(states, submission_url)


@dataclass(frozen=True)
class MainPage:
    visitor: Visitor
    path: str  # "{submission}" stands for the learner's failed submission
    ready: str  # a selector that is there once the page is drawn


MAIN_PAGES = {
    "catalog-signed-out": MainPage(Visitor.SIGNED_OUT, "/", ".catalog-item"),
    "catalog": MainPage(Visitor.LEARNER, "/", ".catalog-item .score-cell"),
    "submission": MainPage(Visitor.LEARNER, "{submission}", ".test-table"),
    "assignments": MainPage(Visitor.LEARNER, "/course", "table.assignment-table"),
    "history": MainPage(Visitor.LEARNER, "/history", "table.history-table"),
    "account": MainPage(Visitor.LEARNER, "/account", "#clients-heading"),
    "gradebook": MainPage(Visitor.INSTRUCTOR, "/instructor/gradebook", "th.total"),
    "assignment-gradebook": MainPage(
        Visitor.INSTRUCTOR, "/instructor/assignments", "table.gradebook"
    ),
    "assignment": MainPage(Visitor.INSTRUCTOR, f"/instructor/assignments/{ASSIGNMENT}", "h2"),
    "roster": MainPage(Visitor.INSTRUCTOR, "/instructor/roster", "table.roster"),
    "submissions": MainPage(Visitor.INSTRUCTOR, f"/instructor/exercises/{EXERCISE}", "tbody tr"),
    "class-view": MainPage(
        Visitor.INSTRUCTOR, f"/instructor/analytics/{EXERCISE}", "figure.chart svg"
    ),
    "lms": MainPage(Visitor.INSTRUCTOR, "/instructor/lti", "#lti-jwks-url"),
}

# Regions that scroll sideways on purpose, and what is inside them: the gradebooks' grids
# (names and totals stay in view; titles show two lines, the whole on hover), an exercise's
# statement (a formula cannot wrap; test_the_exercise_page_fits_its_width checks it) and the
# editor (the same test: its lines wrap).
SCROLLING_ON_PURPOSE = ".table-wrap:has(> table.gradebook), .prose, #editor"

CLIPPED_TEXT = """(scrolling) => {
  const hidden = (e) => {  // visually hidden texts (for screen readers) are 1 px on purpose
    for (let a = e; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.clipPath !== "none" || style.clip !== "auto") return true;
    }
    return false;
  };
  const root = document.documentElement;
  const clipped = root.scrollWidth > root.clientWidth
    ? [`the page is ${root.scrollWidth} px wide in ${root.clientWidth} px`] : [];
  for (const e of document.body.querySelectorAll("*")) {
    if (e.closest(scrolling) || e.closest("svg") || !e.checkVisibility()) continue;
    if (["inline", "contents"].includes(getComputedStyle(e).display)) continue;
    if (e.scrollWidth > e.clientWidth + 1 && !hidden(e)) {
      clipped.push(`${e.tagName.toLowerCase()}.${e.className}: ${e.scrollWidth} px of text ` +
                   `in ${e.clientWidth} px: ${e.innerText.slice(0, 60)}`);
    }
  }
  return clipped;
}"""


def assert_nothing_clipped(page: Any) -> None:
    """No box (table cell, paragraph, scroller...) holds text wider than itself, and the page
    is no wider than the window, but where scrolling sideways is the design."""
    assert page.evaluate(CLIPPED_TEXT, SCROLLING_ON_PURPOSE) == [], page.url


def visit(browser: Any, visitors: Visitors, visitor: Visitor, size: tuple[int, int]) -> Any:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, storage_state=visitors.states[visitor]
    )
    return context.new_page()


class Tabs:
    """One open page per visitor and window size, for the tests that only read pages: a new
    context per test started a new renderer each, which parsed the scripts again (most of
    Chromium's CPU in these tests). A test gets the page with the visitor's cookies as a new
    context has them; the pages these tests read keep nothing else (only the exercise page
    writes a draft to local storage, and its tests open their own contexts)."""

    def __init__(self, browser: Any, visitors: Visitors) -> None:
        self.browser = browser
        self.visitors = visitors
        self.pages: dict[tuple[Visitor, tuple[int, int]], Any] = {}

    def open(self, visitor: Visitor, size: tuple[int, int]) -> Any:
        page = self.pages.get((visitor, size))
        if page is None:
            page = self.pages[visitor, size] = visit(self.browser, self.visitors, visitor, size)
        else:
            page.context.clear_cookies()
            page.context.add_cookies(self.visitors.states[visitor].get("cookies", []))
        return page

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def tabs(browser: Any, visitors: Visitors) -> Iterator[Tabs]:
    shared = Tabs(browser, visitors)
    yield shared
    shared.close()


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
@pytest.mark.parametrize("main_page", MAIN_PAGES.values(), ids=MAIN_PAGES.keys())
def test_no_text_is_clipped(
    server: Server, tabs: Tabs, visitors: Visitors, main_page: MainPage, size: tuple[int, int]
) -> None:
    page = tabs.open(main_page.visitor, size)
    page.goto(server.url + main_page.path.format(submission=visitors.submission_url))
    page.locator(main_page.ready).first.wait_for()
    assert_nothing_clipped(page)
    assert_accessible(page)


@pytest.mark.parametrize("main_page", MAIN_PAGES.values(), ids=MAIN_PAGES.keys())
def test_no_text_is_clipped_in_japanese_on_a_phone(
    server: Server, tabs: Tabs, visitors: Visitors, main_page: MainPage
) -> None:
    """Other words, other widths: the same pages in Japanese."""
    page = tabs.open(main_page.visitor, WIDTHS["phone"])
    path = main_page.path.format(submission=visitors.submission_url)
    page.goto(f"{server.url}/language/ja?next={quote(path)}")
    page.locator(main_page.ready).first.wait_for()
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.locator(".menu-toggle > summary").inner_text() == "メニュー"
    assert_nothing_clipped(page)


@pytest.mark.parametrize("size", WIDTHS.values(), ids=WIDTHS.keys())
def test_failed_results_read_in_full(
    server: Server, browser: Any, visitors: Visitors, size: tuple[int, int]
) -> None:
    """A run that fails: every message at a readable width (a phone stacks each test as a
    card, the message under the test's name), nothing cut off."""
    page = visit(browser, visitors, Visitor.LEARNER, size)
    page.goto(f"{server.url}/learn/{EXERCISE}")
    page.wait_for_selector("#editor .cm-editor")
    set_code(page, WRONG)
    page.get_by_role("button", name="Run public tests").click()
    page.locator('#results .verdict[data-verdict="failed"]').wait_for(timeout=RESULT_TIMEOUT_MS)
    table = page.locator("#results table.test-table")
    messages = table.locator('tr[data-status="failed"] td.message')
    assert messages.count() >= 1
    assert "outside tolerance" in messages.first.inner_text()
    width = table.bounding_box()["width"]
    message = messages.first.bounding_box()["width"]
    if size == WIDTHS["phone"]:
        assert message >= 0.9 * width  # a card: the message has the card's width
        # The column headers are there for screen readers only.
        assert table.locator("thead").bounding_box()["width"] <= 1
    else:
        assert message >= 0.45 * width  # a table whose widest column is the message
        assert table.locator("thead").bounding_box()["height"] > 10
    assert table.get_by_role("columnheader").count() == 4  # still a table to screen readers
    assert_nothing_clipped(page)
    assert_accessible(page)
    page.context.close()


def test_a_phone_folds_the_menu(server: Server, tabs: Tabs) -> None:
    page = tabs.open(Visitor.INSTRUCTOR, WIDTHS["phone"])
    page.goto(f"{server.url}/history")
    header = page.locator(".site-header")
    toggle = page.locator(".menu-toggle > summary")
    history = page.get_by_role("link", name="History")
    assert history.count() == 0  # folded: not shown, not read out
    assert header.bounding_box()["height"] <= 2 * toggle.bounding_box()["height"]  # one row
    toggle.focus()
    page.keyboard.press("Enter")
    assert page.locator(".menu-toggle").get_attribute("open") is not None
    assert history.is_visible() and history.get_attribute("aria-current") == "page"
    assert page.get_by_role("button", name="Sign out").is_visible()
    assert_nothing_clipped(page)
    assert_accessible(page)
    page.get_by_role("link", name="Roster").click()
    page.wait_for_url(f"{server.url}/instructor/roster")
    assert page.get_by_role("link", name="History").count() == 0  # folded on the next page


@pytest.mark.parametrize("size", [WIDTHS["laptop"], WIDTHS["wide"]], ids=["laptop", "wide"])
def test_a_wide_screen_shows_the_menu_in_one_row(
    server: Server, tabs: Tabs, size: tuple[int, int]
) -> None:
    page = tabs.open(Visitor.INSTRUCTOR, size)
    page.goto(f"{server.url}/history")
    assert not page.locator(".menu-toggle").is_visible()
    links = page.get_by_role("navigation", name="Main").get_by_role("link")
    assert links.count() >= 7  # an instructor's: the catalog and lesson to the validate page
    assert len({round(link.bounding_box()["y"]) for link in links.all()}) == 1
    sign_out = page.get_by_role("button", name="Sign out").bounding_box()
    # The links, who is signed in and Sign out: one row, as high as the button and a margin.
    assert page.locator(".site-header").bounding_box()["height"] < 2 * sign_out["height"]
