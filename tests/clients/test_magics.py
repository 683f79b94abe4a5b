"""``%numjudge login`` in an IPython shell against a live server (``getpass`` answered here)."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell
from numjudge_client import credentials_path

from tests.clients.conftest import Learner


@pytest.fixture
def shell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[InteractiveShell]:
    monkeypatch.setenv("NUMJUDGE_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("NUMJUDGE_SERVER", "NUMJUDGE_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    ipython = InteractiveShell.instance()
    ipython.run_line_magic("load_ext", "numjudge_client")
    yield ipython
    InteractiveShell.clear_instance()


def answer_prompt(monkeypatch: pytest.MonkeyPatch, token: str) -> list[str]:
    prompts: list[str] = []

    def getpass(prompt: str) -> str:
        prompts.append(prompt)
        return token

    monkeypatch.setattr("getpass.getpass", getpass)
    return prompts


def test_login_checks_and_saves_the_token_for_the_owner_only(
    shell: InteractiveShell,
    learner: Learner,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    prompts = answer_prompt(monkeypatch, learner.token)
    shell.run_line_magic("numjudge", f"login {learner.server.url}")
    assert prompts == [
        f"API token for {learner.server.url} (create one on {learner.server.url}/account): "
    ]
    path = credentials_path()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert learner.token in path.read_text()
    printed = capsys.readouterr()
    assert f"Signed in to {learner.server.url}" in printed.out
    assert learner.token not in printed.out + printed.err
    # the saved token is what the cell magics use
    shell.run_line_magic("numjudge", "starter gru-update-gate")
    assert shell.rl_next_input.startswith("# gru-update-gate: ")


def test_a_wrong_token_is_refused_and_nothing_is_saved(
    shell: InteractiveShell,
    learner: Learner,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    answer_prompt(monkeypatch, "nj_not_a_token")
    shell.run_cell(f"%numjudge login {learner.server.url}")
    printed = capsys.readouterr()
    assert "UsageError: The server at" in printed.err
    assert "refused the token (Invalid, expired or revoked API token)" in printed.err
    assert not credentials_path().exists()


def test_usage_mistakes_are_explained(
    shell: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    shell.run_cell("%numjudge submit gru-update-gate")
    assert (
        "%%numjudge submit goes on the first line of a cell, above the code to grade"
        in capsys.readouterr().err
    )
    shell.run_cell("%%numjudge submit gru-update-gate\n  \n")
    assert "The cell is empty" in capsys.readouterr().err
    shell.run_cell("%numjudge login 'http://127.0.0.1:8000")
    assert capsys.readouterr().err == (
        "UsageError: Cannot read `%numjudge login 'http://127.0.0.1:8000`: No closing quotation.\n"
    )
    shell.run_cell("%numjudge login a b")
    assert capsys.readouterr().err == (
        "UsageError: unrecognized arguments: b. Use: %numjudge login [SERVER] [--token-file FILE]\n"
    )
    shell.run_cell("%numjudge frobnicate")
    err = capsys.readouterr().err
    assert "Unknown command %numjudge frobnicate" in err and "%numjudge login [SERVER]" in err


def test_login_reads_a_token_file_without_asking(
    shell: InteractiveShell,
    learner: Learner,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    prompts = answer_prompt(monkeypatch, "never asked")
    (tmp_path / "token").write_text(f"  {learner.token}\n")
    shell.run_line_magic("numjudge", f"login {learner.server.url} --token-file {tmp_path}/token")
    assert prompts == []
    assert json.loads(credentials_path().read_text())["token"] == learner.token
    printed = capsys.readouterr()
    assert printed.out.startswith(f"Signed in to {learner.server.url}. The token is saved in")
    assert learner.token not in printed.out + printed.err

    shell.run_cell(f"%numjudge login {learner.server.url} --token-file {tmp_path}/missing")
    assert capsys.readouterr().err == (
        f"UsageError: Cannot read the token file {tmp_path}/missing: No such file or directory.\n"
    )


def test_login_with_numjudge_token_checks_it_and_keeps_it_out_of_the_file(
    shell: InteractiveShell,
    learner: Learner,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    prompts = answer_prompt(monkeypatch, "never asked")
    monkeypatch.setenv("NUMJUDGE_TOKEN", learner.token)
    shell.run_line_magic("numjudge", f"login {learner.server.url}")
    assert prompts == []
    assert json.loads(credentials_path().read_text()) == {
        "server": learner.server.url,
        "token": None,
    }
    printed = capsys.readouterr()
    assert printed.out.startswith(f"Signed in to {learner.server.url} with NUMJUDGE_TOKEN")
    assert learner.token not in printed.out + printed.err


def test_login_checks_the_server_before_asking_for_a_token(
    shell: InteractiveShell,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    prompts = answer_prompt(monkeypatch, "nj_not_a_token")
    shell.run_cell("%numjudge login http://127.0.0.1:9")
    assert prompts == []
    err = capsys.readouterr().err
    assert err.startswith("UsageError: Cannot reach the numjudge server at http://127.0.0.1:9")
    assert len(err.splitlines()) == 1 and not credentials_path().exists()
