"""docker-compose.yml: what keeps a deployment running through restarts and crashes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from app.cli.main import app as cli

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def test_every_service_restarts_and_redis_keeps_an_append_only_file() -> None:
    compose = _compose()
    services = compose["services"]
    assert {name: s.get("restart") for name, s in services.items()} == {
        name: "unless-stopped" for name in services
    }
    command = services["redis"]["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in services["redis"]["volumes"])
    assert "redisdata" in compose["volumes"]


def test_workers_run_under_init_with_a_heartbeat_healthcheck() -> None:
    worker = _compose()["services"]["worker"]
    assert worker["init"] is True
    test = worker["healthcheck"]["test"]
    assert test[:2] == ["CMD", "numjudge"]
    help_text = CliRunner().invoke(cli, [*test[2:], "--help"])
    assert help_text.exit_code == 0 and "heart" in help_text.output  # a real command


def test_the_queue_name_comes_from_the_settings() -> None:
    env = _compose()["x-numjudge-env"]
    assert env["NUMJUDGE_QUEUE_NAME"].startswith("${NUMJUDGE_QUEUE_NAME")


def test_the_numjudge_containers_of_a_host_share_their_claims_of_cores_and_uids() -> None:
    from graders.sandbox.cpu_affinity import CORE_FOLDERS
    from graders.sandbox.state import UID_FOLDERS

    compose = _compose()
    shared = {CORE_FOLDERS[0].parent, UID_FOLDERS[0].parent}
    assert shared == {Path("/run/numjudge")}
    for name in ("web", "worker"):
        assert "numjudge-run:/run/numjudge" in compose["services"][name]["volumes"], name
    assert "numjudge-run" in compose["volumes"]
