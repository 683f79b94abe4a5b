"""``numjudge``, the learner's command line of the client package, as a learner runs it: a
process of its own against the live server, with a config folder of its own (``numjudge
login`` saves there), in English and in Japanese; and installed with the client package alone
into a fresh virtual environment."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import venv
from collections.abc import Mapping
from pathlib import Path

import httpx
import pexpect
import pytest

from tests.clients.conftest import EXERCISE, REPO, Learner, exercise_file

pytestmark = pytest.mark.slow  # a live server


def numjudge(
    *arguments: str,
    config: Path,
    env: Mapping[str, str] | None = None,
    stdin: str = "",
    command: tuple[str, ...] = (sys.executable, "-m", "numjudge_client"),
) -> subprocess.CompletedProcess[str]:
    """The command as a learner's shell runs it: no token or server in the environment
    unless given, the language English unless given."""
    base = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("NUMJUDGE_", "LC_", "LANG"))
    }
    return subprocess.run(
        [*command, *arguments],
        env={**base, "NUMJUDGE_CONFIG_DIR": str(config), "LANG": "C.UTF-8", **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def history(learner: Learner) -> list[dict[str, object]]:
    response = httpx.get(
        f"{learner.server.url}/submissions",
        headers={"Authorization": f"Bearer {learner.token}"},
        timeout=30,
    )
    response.raise_for_status()
    submissions: list[dict[str, object]] = response.json()
    return submissions


def solution_files(folder: Path) -> tuple[Path, Path]:
    good, bad = folder / "good.py", folder / "bad.py"
    good.write_text(exercise_file("solution.py"), encoding="utf-8")
    bad.write_text(exercise_file("mistakes/one_minus_z.py"), encoding="utf-8")
    return good, bad


def test_login_saves_the_token_for_its_owner_and_submit_uses_it(
    learner: Learner, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    good, bad = solution_files(tmp_path)
    refused = numjudge("submit", EXERCISE, str(good), config=config)
    assert refused.returncode == 2
    assert refused.stderr == (
        "error: Not signed in: run %numjudge login (numjudge login on the command line), set "
        "NUMJUDGE_TOKEN, or pass token= to Client.\n"
    )
    # The token is never an argument: it would show in ps and the shell's history.
    as_argument = numjudge("submit", EXERCISE, str(good), "--token", learner.token, config=config)
    assert as_argument.returncode == 2 and "unrecognized arguments: --token" in as_argument.stderr
    wrong = numjudge(
        "login", learner.server.url, "--token-stdin", config=config, stdin="nj_wrong\n"
    )
    assert wrong.returncode == 2 and "refused the token" in wrong.stderr
    assert not (config / "credentials.json").exists()

    login = numjudge(
        "login", learner.server.url, "--token-stdin", config=config, stdin=learner.token + "\n"
    )
    assert login.returncode == 0, login.stderr
    saved = config / "credentials.json"
    assert login.stdout.startswith(f"Signed in to {learner.server.url}. The token is saved in")
    assert learner.token not in login.stdout + login.stderr
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.stat().st_mode) == 0o700
    assert learner.token in saved.read_text(encoding="utf-8")

    passed = numjudge("submit", EXERCISE, str(good), config=config)
    assert passed.returncode == 0, passed.stderr
    assert passed.stdout.startswith(f"{EXERCISE} (submit): Passed   26 / 26")
    failed = numjudge("submit", str(bad), "--exercise", EXERCISE, "--run", config=config)
    assert failed.returncode == 1
    assert "Failed" in failed.stdout and "add up to 1" in failed.stdout
    assert [(s["kind"], s["verdict"]) for s in history(learner)] == [
        ("run", "failed"),
        ("submit", "passed"),
    ]

    logout = numjudge("logout", config=config)
    assert logout.returncode == 0 and learner.token not in saved.read_text(encoding="utf-8")
    assert numjudge("submit", EXERCISE, str(good), config=config).returncode == 2
    assert len(history(learner)) == 2

    from_environment = numjudge(
        "login", learner.server.url, config=config, env={"NUMJUDGE_TOKEN": learner.token}
    )
    assert from_environment.returncode == 0, from_environment.stderr
    assert from_environment.stdout.startswith(
        f"Signed in to {learner.server.url} with NUMJUDGE_TOKEN; the server is saved in"
    )
    assert learner.token not in saved.read_text(encoding="utf-8")


def test_login_asks_for_the_token_on_the_terminal_without_echoing_it(
    learner: Learner, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("NUMJUDGE_", "LC_", "LANG"))},
        "NUMJUDGE_CONFIG_DIR": str(config),
        "LANG": "C.UTF-8",
    }
    terminal = pexpect.spawn(
        sys.executable,
        ["-m", "numjudge_client", "login", learner.server.url],
        env=environment,
        encoding="utf-8",
        timeout=60,
    )
    terminal.expect_exact(
        f"API token for {learner.server.url} (create one on {learner.server.url}/account): "
    )
    assert learner.token not in Path(f"/proc/{terminal.pid}/cmdline").read_text()
    terminal.sendline(learner.token)
    terminal.expect(pexpect.EOF)
    terminal.close()
    assert terminal.exitstatus == 0, terminal.before
    assert f"Signed in to {learner.server.url}." in terminal.before
    assert learner.token not in terminal.before  # getpass turned the echo off
    saved = config / "credentials.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert learner.token in saved.read_text(encoding="utf-8")


def test_a_file_it_cannot_send_is_refused_before_anything_is_sent_and_its_timeout_holds(
    learner: Learner, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    signed_in = {"NUMJUDGE_SERVER": learner.server.url, "NUMJUDGE_TOKEN": learner.token}
    latin = tmp_path / "latin.py"
    latin.write_bytes("# café\n".encode("latin-1") + b"x = 1\n")
    result = numjudge("submit", EXERCISE, str(latin), config=config, env=signed_in)
    assert result.returncode == 3
    assert result.stderr == (
        f"error: {latin} is not UTF-8 text (byte 0xe9 at offset 5); save it as UTF-8. "
        "Nothing was sent.\n"
    )
    broken = tmp_path / "broken.py"
    broken.write_text("def update_gate(x_t, h_prev, W_z, b_z)\n    return x_t\n")
    result = numjudge("submit", EXERCISE, str(broken), config=config, env=signed_in)
    assert result.returncode == 3
    assert result.stderr == (
        f"error: {broken}, line 1: SyntaxError: expected ':'. Nothing was sent.\n"
    )
    japanese = numjudge(
        "submit", EXERCISE, str(broken), "--language", "ja", config=config, env=signed_in
    )
    assert japanese.returncode == 3
    assert japanese.stderr == (
        f"エラー：{broken} の 1 行目：SyntaxError：expected ':'。何も送っていません。\n"
    )
    assert history(learner) == []

    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(8)\n" + exercise_file("solution.py"))
    result = numjudge("submit", EXERCISE, str(slow), "--timeout", "1", config=config, env=signed_in)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith(f"error: No result for {EXERCISE} after 1 s")
    (submission,) = history(learner)  # it gave up before grading ended
    assert submission["status"] != "done"
    assert f"{learner.server.url}{submission['url']}" in result.stderr


def test_results_and_hints_in_the_chosen_the_saved_or_the_locales_language(
    learner: Learner, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    _, bad = solution_files(tmp_path)
    signed_in = {"NUMJUDGE_SERVER": learner.server.url, "NUMJUDGE_TOKEN": learner.token}
    chosen = numjudge(
        "submit", EXERCISE, str(bad), "--language", "ja", config=config, env=signed_in
    )
    assert chosen.returncode == 1
    assert chosen.stdout.startswith(f"{EXERCISE} (submit): 不合格")
    assert "数値例" in chosen.stdout  # the test's name in Japanese
    assert "ヒント（" in chosen.stdout and "足すと 1 になります" in chosen.stdout
    assert "add up to 1" not in chosen.stdout

    by_locale = numjudge(
        "submit", EXERCISE, str(bad), config=config, env={**signed_in, "LANG": "ja_JP.UTF-8"}
    )
    assert "不合格" in by_locale.stdout and "足すと 1 になります" in by_locale.stdout

    saved = numjudge("language", "ja", config=config)
    assert saved.stdout == f"言語：ja（{config / 'settings.json'} に保存しました）。\n"
    by_setting = numjudge("submit", EXERCISE, str(bad), config=config, env=signed_in)
    assert "不合格" in by_setting.stdout
    english = numjudge(
        "submit", EXERCISE, str(bad), "--language", "en", config=config, env=signed_in
    )
    assert "Failed" in english.stdout and "add up to 1" in english.stdout


def test_importing_the_client_never_imports_the_server_or_the_engine() -> None:
    modules = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, numjudge_client, numjudge_client.cli, numjudge_client._magics, "
            "numjudge_client._notebook\nprint(' '.join(sorted(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert "numjudge_client.cli" in modules
    assert [m for m in modules if m.split(".")[0] in ("app", "graders")] == []


def test_installed_alone_into_a_fresh_environment_it_submits(
    learner: Learner, tmp_path: Path
) -> None:
    """The client's wheel and its declared dependencies (from the machine's wheel cache where
    pip is configured with one) into a new venv: the server's package is not there."""
    wheels, client = tmp_path / "wheels", str(REPO / "clients" / "python")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), client],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("numjudge_client-*.whl")
    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    installed = subprocess.run(
        [str(fresh / "bin" / "pip"), "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if installed.returncode != 0 and "No matching distribution" in installed.stderr:
        pytest.skip(f"httpx cannot be installed here (no network, no wheel cache): {installed}")
    assert installed.returncode == 0, installed.stderr
    python = str(fresh / "bin" / "python")
    for server_package in ("app", "graders"):  # from a folder of its own: not the checkout's
        imported = subprocess.run(
            [python, "-c", f"import {server_package}"], cwd=tmp_path, capture_output=True
        )
        assert imported.returncode != 0
    command = (str(fresh / "bin" / "numjudge"),)
    config = tmp_path / "config"
    helped = numjudge("--help", config=config, command=command)
    assert helped.returncode == 0
    for word in ("login", "logout", "language", "exercises", "submit"):
        assert word in helped.stdout
    serve = numjudge("serve", config=config, command=command)
    assert serve.returncode == 2 and "invalid choice: 'serve'" in serve.stderr
    good, _ = solution_files(tmp_path)
    login = numjudge(
        "login",
        learner.server.url,
        "--token-stdin",
        config=config,
        stdin=learner.token,
        command=command,
    )
    assert login.returncode == 0, login.stderr
    passed = numjudge("submit", EXERCISE, str(good), config=config, command=command)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout
    assert [s["verdict"] for s in history(learner)] == ["passed"]
