"""The VS Code extension in a real VS Code: ``make vsix`` installed into code-server (``make
vscode-host``), driven through its command palette by Chromium against a live server, as a
learner would: sign in, open an exercise, grade a wrong solution and then the reference; the
results panel while grading, after a failure and after a cancelled wait; the same learner in
Japanese."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests import needs
from tests.app.live import LiveProcess, free_port
from tests.clients.conftest import EXERCISE, REPO, Learner, exercise_file

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FrameLocator, Locator, Page

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.vscode,
    pytest.mark.vscode_host,
    pytest.mark.timeout(600),
]

EXTENSION = REPO / "clients" / "vscode"
# The editor must not rewrite what the test types (brackets, quotes, indentation,
# suggestions); the rest keeps the window free of tours and prompts.
SETTINGS = {
    "editor.autoClosingBrackets": "never",
    "editor.autoClosingQuotes": "never",
    "editor.autoIndent": "none",
    "editor.autoSurround": "never",
    "editor.formatOnType": False,
    "editor.quickSuggestions": {"other": False, "comments": False, "strings": False},
    "editor.suggestOnTriggerCharacters": False,
    "editor.acceptSuggestionOnEnter": "off",
    "editor.experimentalEditContextEnabled": False,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
}
# A wrong solution whose error names a line of the file: the line of the raise.
RAISING = f"""# numjudge: {EXERCISE}
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    return checked(h_prev)


def checked(h):
    width = np.shape(h)[-1]
    raise ValueError(f"not yet: {{width}}")
"""
# What the workbench shows after the server answers (a webview's page, the Problems panel's
# rows, a notification) takes seconds on a loaded machine, past Playwright's 5 s default.
PANEL_MS = 30_000
# A webview's first page: VS Code starts the webview's frame and its service worker first,
# which took past 30 s on a host busy with two copies of the suite (the results panel's tab
# was open and selected, its page not there yet), as long as the other first waits here.
FIRST_PAGE_MS = 120_000
# The extension's id as VS Code knows it (a webview's address names it).
EXTENSION_ID = "{publisher}.{name}".format_map(json.loads((EXTENSION / "package.json").read_text()))
# The reference, slow enough to be still grading when the learner stops waiting.
SLOW = f"# numjudge: {EXERCISE}\nimport time\ntime.sleep(4)\n" + exercise_file("solution.py")


@dataclass(frozen=True)
class CodeServer:
    url: str
    workspace: Path


@pytest.fixture
def user_settings() -> dict[str, object]:
    """The learner's own settings (a test parametrizes it): none, VS Code's in English."""
    return {}


@pytest.fixture
def code_server(
    learner: Learner, tmp_path: Path, user_settings: dict[str, object]
) -> Iterator[CodeServer]:
    """code-server with the extension built by ``make vsix`` installed, a user folder and a
    workspace of its own (no password: it listens on 127.0.0.1 only), set to the learner's
    server."""
    program = needs.find("code-server")
    assert program is not None  # the vscode_host marker skipped the test otherwise
    subprocess.run(["make", "--no-print-directory", "vsix"], cwd=REPO, check=True, timeout=300)
    user_data, extensions, workspace = (tmp_path / name for name in ("user", "ext", "ws"))
    (user_data / "User").mkdir(parents=True)
    workspace.mkdir()
    settings = SETTINGS | {"numjudge.serverUrl": learner.server.url} | user_settings
    (user_data / "User" / "settings.json").write_text(json.dumps(settings))
    # code-server writes a default configuration to $XDG_CONFIG_HOME: the test's, not the user's
    env = os.environ | {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    folders = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    subprocess.run(
        [program, *folders, "--install-extension", str(EXTENSION / "numjudge.vsix")],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    port = free_port()
    process = LiveProcess(
        [
            *folders,
            "--auth=none",
            f"--bind-addr=127.0.0.1:{port}",
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            str(workspace),
        ],
        env,
        tmp_path / "code-server.log",
        program=program,
    )
    process.start()
    try:
        process.wait_for_log("HTTP server listening on")
        yield CodeServer(f"http://127.0.0.1:{port}/?folder={workspace}", workspace)
    finally:
        process.kill(signal.SIGTERM)


class Workbench:
    """The VS Code window, used through its command palette, as a learner does."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.quick_input = page.locator(".quick-input-widget")

    def command(self, title: str) -> None:
        """Runs a command by its title, typed into the command palette."""
        # the title bar's command center, not F1: a key goes where the focus is, which a
        # webview (the statement's preview) may hold
        self.page.locator(".command-center .command-center-center").click()
        box = self.quick_input.locator(".quick-input-box input")
        box.fill(f">{title}")
        self.pick(title)

    def pick(self, text: str) -> None:
        """Chooses the quick pick's entry that reads ``text``."""
        self.quick_input.locator(".monaco-list-row", has_text=text).first.wait_for()
        self.page.keyboard.press("Enter")

    def answer(self, title: str, text: str) -> None:
        """Types ``text`` into the input box titled ``title`` and confirms it."""
        expect(self.quick_input.locator(".quick-input-title")).to_contain_text(title)
        self.quick_input.locator(".quick-input-box input").fill(text)
        self.page.keyboard.press("Enter")

    def notification(self, text: str) -> Locator:
        return self.page.locator(".notifications-toasts .notification-toast", has_text=text)

    def status(self, text: str) -> Locator:
        return self.page.locator(".part.statusbar .statusbar-item", has_text=text)

    def replace_text(self, tab: str, text: str) -> None:
        """Selects everything in the editor of ``tab``, types ``text`` over it and saves."""
        self.page.locator(".tabs-container .tab", has_text=tab).click()
        self.page.locator(".editor-group-container.active .monaco-editor .view-lines").click()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.insert_text(text)
        self.page.keyboard.press("Control+S")
        saved = self.page.locator(".tabs-container .tab:not(.dirty)", has_text=tab)
        expect(saved).to_be_visible()

    def results(self) -> FrameLocator:
        """The results panel's page, inside VS Code's frame around it: the webview whose
        extension is numjudge's. Not "the webview in view": the statement's Markdown preview
        is one too, and while VS Code lays out its groups both may be in view at once."""
        return self.page.frame_locator(
            f'iframe.webview.ready[src*="extensionId={EXTENSION_ID}&"]'
        ).frame_locator("#active-frame")

    def problems(self) -> Locator:
        """The rows of the Problems panel (opened if it is not)."""
        rows = self.page.locator(".markers-panel .monaco-list-row")
        if not self.page.locator(".markers-panel").is_visible():
            self.page.locator(".part.statusbar #status\\.problems").click()
        return rows


def open_exercise(
    window: Workbench, learner: Learner, workspace: Path, *, signed_in: str, pick_title: str
) -> Path:
    """Signs in and opens the exercise's file (the statement beside it), as the first two
    steps of a learner; ``signed_in`` and ``pick_title`` in the learner's language."""
    page = window.page
    # the extension is loaded: its view is in the Explorer (named in VS Code's language)
    expect(page.get_by_text("numjudge exercises", exact=False).first).to_be_visible(timeout=120_000)
    window.command("numjudge: Sign in")
    window.answer("numjudge", learner.token)
    expect(window.notification(signed_in)).to_be_visible(timeout=PANEL_MS)

    window.command("numjudge: Open exercise")
    expect(window.quick_input.locator(".quick-input-title")).to_contain_text(pick_title)
    window.quick_input.locator(".quick-input-box input").fill(EXERCISE)
    window.pick(EXERCISE)
    exercise = workspace / "numjudge" / f"{EXERCISE}.py"
    expect(page.locator(".tabs-container .tab", has_text=f"{EXERCISE}.py")).to_be_visible()
    assert exercise.read_text().startswith(f"# numjudge: {EXERCISE} (")
    # the statement opens beside it, in the Markdown preview
    expect(page.locator(".tabs-container .tab", has_text=f"Preview {EXERCISE}.md")).to_be_visible(
        timeout=60_000
    )
    return exercise


def test_a_learner_grades_an_exercise_in_vs_code(
    code_server: CodeServer, learner: Learner, browser: Browser, shots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 850})
    try:
        page.goto(code_server.url)
        window = Workbench(page)
        exercise = open_exercise(
            window,
            learner,
            code_server.workspace,
            signed_in="numjudge: signed in to",
            pick_title="open exercise",
        )

        # a wrong solution whose error names a line: the problem is on that line
        window.replace_text(f"{EXERCISE}.py", RAISING)
        window.command("numjudge: Run public tests")
        expect(window.status(f"numjudge: {EXERCISE} Failed 0 / ")).to_be_visible(timeout=120_000)
        raising = window.problems().filter(has_text="raised ValueError")
        expect(raising.first).to_contain_text("[Ln 11, Col 1]", timeout=PANEL_MS)

        # a classic mistake, submitted: one problem per message on the entry's line, the hint
        # with it, the score in the status bar
        mistake = f"# numjudge: {EXERCISE}\n" + exercise_file("mistakes/one_minus_z.py")
        entry_line = (
            mistake.split("\n").index(
                next(line for line in mistake.split("\n") if line.startswith("def update_gate("))
            )
            + 1
        )
        window.replace_text(f"{EXERCISE}.py", mistake)
        window.command("numjudge: Submit")
        expect(window.status(f"numjudge: {EXERCISE} Failed")).to_contain_text(
            re.compile(r"Failed \d+ / 26"), timeout=120_000
        )
        rows = window.problems()
        expect(rows.filter(has_text="raised ValueError")).to_have_count(0, timeout=PANEL_MS)
        numerical = rows.filter(has_text="numerical example: values: 3 of 3 elements")
        expect(numerical.first).to_contain_text(f"[Ln {entry_line}, Col 1]", timeout=PANEL_MS)
        page.screenshot(path=str(shots / "vscode-editor.png"))

        # the reference: full score, no problem left
        window.replace_text(
            f"{EXERCISE}.py", f"# numjudge: {EXERCISE}\n" + exercise_file("solution.py")
        )
        window.command("numjudge: Submit")
        expect(window.status(f"numjudge: {EXERCISE} Passed 26 / 26")).to_be_visible(timeout=120_000)
        expect(window.problems().filter(has_text="numjudge")).to_have_count(0, timeout=PANEL_MS)
        assert exercise.read_text() == f"# numjudge: {EXERCISE}\n" + exercise_file("solution.py")
        expect(window.results().locator('[data-verdict="passed"]')).to_contain_text(
            "Passed", timeout=PANEL_MS
        )

        # a new submission: "grading…" at once, the last result gone, then its page; the
        # progress notification's Cancel stops the wait and names the submission's page
        window.replace_text(f"{EXERCISE}.py", SLOW)
        window.command("numjudge: Submit")
        results = window.results()
        expect(results.locator('[data-state="grading"]')).to_have_text(
            "Grading your submission…", timeout=PANEL_MS
        )
        expect(results.locator("[data-verdict], .test-table")).to_have_count(0, timeout=PANEL_MS)
        link = results.locator("a.submission-page")
        expect(link).to_have_text(
            re.compile(rf"^{learner.server.url}/history/[0-9a-f]+$"), timeout=PANEL_MS
        )
        submission_page = link.inner_text()
        window.notification(f"numjudge: grading {EXERCISE}").get_by_role(
            "button", name="Cancel"
        ).click()
        expect(
            window.notification("numjudge: cancelled. The server goes on grading what was sent")
        ).to_contain_text(submission_page)
        expect(results.locator('[data-state="cancelled"]')).to_have_text(
            "Stopped waiting", timeout=PANEL_MS
        )
        expect(results.locator("a.submission-page")).to_have_text(submission_page, timeout=PANEL_MS)
        expect(window.status("numjudge: grading")).to_have_count(0)
        page.screenshot(path=str(shots / "vscode-cancelled.png"))

        # a grade that fails (an exercise the server does not know) leaves no old result
        window.replace_text(f"{EXERCISE}.py", "# numjudge: no-such-exercise\nx = 1\n")
        window.command("numjudge: Submit")
        expect(results.locator('[data-state="error"]')).to_have_text("No result", timeout=PANEL_MS)
        expect(results.locator(".message-box")).to_contain_text(
            "The server refused (404)", timeout=PANEL_MS
        )
        expect(window.notification("The server refused (404)")).to_be_visible(timeout=PANEL_MS)
    finally:
        page.close()


@pytest.mark.parametrize("user_settings", [{"numjudge.language": "ja"}])
def test_a_learner_grades_in_japanese(
    code_server: CodeServer, learner: Learner, browser: Browser, shots: Path
) -> None:
    """``numjudge.language`` set to Japanese in an English VS Code: the server's results,
    messages and hints and the extension's own words are Japanese, and a Japanese message's
    line is found (the commands' titles follow VS Code's display language: English here)."""
    page = browser.new_page(viewport={"width": 1400, "height": 850})
    try:
        page.goto(code_server.url)
        window = Workbench(page)
        open_exercise(
            window,
            learner,
            code_server.workspace,
            signed_in="numjudge：",
            pick_title="numjudge：演習を開く",
        )
        window.replace_text(f"{EXERCISE}.py", RAISING)
        window.command("numjudge: Run public tests")
        expect(window.status(f"numjudge: {EXERCISE} 不正解 0 / ")).to_be_visible(timeout=120_000)
        raising = window.problems().filter(has_text="行目で ValueError が発生しました")
        expect(raising.first).to_contain_text("[Ln 11, Col 1]", timeout=PANEL_MS)
        expect(raising.first).to_contain_text("数値例", timeout=PANEL_MS)
        results = window.results()
        expect(results.locator("[data-verdict]")).to_contain_text("不正解", timeout=FIRST_PAGE_MS)
        expect(results.locator("caption")).to_have_text(
            re.compile(r"^テスト 2 件、採点時間 \d+ ミリ秒$"), timeout=PANEL_MS
        )

        mistake = f"# numjudge: {EXERCISE}\n" + exercise_file("mistakes/one_minus_z.py")
        window.replace_text(f"{EXERCISE}.py", mistake)
        window.command("numjudge: Submit")
        expect(window.status(f"numjudge: {EXERCISE} 不正解")).to_contain_text(
            re.compile(r"不正解 \d+ / 26"), timeout=120_000
        )
        expect(results.locator(".diagnosis")).to_contain_text(
            "ヒント：あなたのゲートと期待されるゲートは", timeout=PANEL_MS
        )
        page.screenshot(path=str(shots / "vscode-japanese.png"))
    finally:
        page.close()
