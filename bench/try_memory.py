"""What tries of custom inputs whose outputs are large cost a live server: its resident memory
(``VmRSS``, and its peak ``VmHWM``) and CPU before and after each, read from ``/proc/<pid>``.

Starts ``numjudge serve`` (SQLite, four grading threads: two tries may run at once) as
tests/app/live.py does, a fresh one for each case, and sends after a small try of each learner,
on pairwise-distances (512 MB, inputs capped at 64 MiB), the cases of the report of
2026-12-05: inputs charged about 45 KB whose distance matrix is 63 MB, tried with the
reference's code and with a slightly wrong one, then two learners at once with code returning
the largest floats. Each case's answer (status and the start of its message or detail) is
printed beside the figures. Compare two checkouts by running this in each; memory a process
freed is not always given back to the system (glibc keeps it), so RSS after a case is a figure
the host pays, besides the peak.

    .venv/bin/python bench/try_memory.py
"""

from __future__ import annotations

import logging
import os
import re
import signal
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.models import Role  # noqa: E402
from tests.app.live import LiveServer  # noqa: E402

logger = logging.getLogger(__name__)
REFERENCE = (ROOT / "exercises" / "pairwise-distances" / "solution.py").read_text()
SLIGHTLY_OFF = REFERENCE.replace("return np.sqrt(", "return 1e-3 + np.sqrt(")
LARGEST = """
import numpy as np

def pairwise_distances(X, Y):
    return np.full((X.shape[0], Y.shape[0]), 1.7e308)
"""
TALL = {"X": "np.zeros((2800, 1))", "Y": "np.ones((2800, 1))"}
TWICE = {"X": "np.zeros((2700, 1))", "Y": "np.zeros((2700, 1))"}


def memory_mb(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak, in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    rss, hwm = (int(re.search(rf"{key}:\s+(\d+) kB", status)[1]) for key in ("VmRSS", "VmHWM"))  # type: ignore[index]
    return rss / 1000, hwm / 1000


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def try_once(client: httpx.Client, code: str, inputs: dict[str, str]) -> str:
    response = client.post(
        "/exercises/pairwise-distances/try", json={"code": code, "inputs": inputs}
    )
    answer = response.json()
    text = answer.get("message") or answer.get("detail") or ""
    return f"{response.status_code} {answer.get('status', '')} {str(text)[:60]}"


def measure(pid: int, name: str, tries: list[tuple[httpx.Client, str, dict[str, str]]]) -> None:
    rss_before, hwm_before = memory_mb(pid)
    cpu_before = cpu_s(pid)
    with ThreadPoolExecutor(len(tries)) as pool:
        answers = list(pool.map(lambda t: try_once(*t), tries))
    rss_after, hwm = memory_mb(pid)
    logger.info(
        "%-34s RSS %6.0f -> %6.0f MB (+%4.0f), peak %6.0f MB (+%4.0f), CPU %.2f s; %s",
        name,
        rss_before,
        rss_after,
        rss_after - rss_before,
        hwm,
        hwm - hwm_before,
        cpu_s(pid) - cpu_before,
        " | ".join(answers),
    )


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    cases = {
        "2800 x 2800, the reference": [("ada", REFERENCE, TALL)],
        "2800 x 2800, 1e-3 off": [("ada", SLIGHTLY_OFF, TALL)],
        "2700 x 2700, largest, two at once": [("ada", LARGEST, TWICE), ("bob", LARGEST, TWICE)],
    }
    small = {"X": "np.zeros((2, 1))", "Y": "np.ones((2, 1))"}
    for name, tries in cases.items():  # a fresh server each: glibc keeps what a case freed
        with tempfile.TemporaryDirectory() as tmp:
            live = LiveServer(Path(tmp), f"sqlite:///{tmp}/numjudge.db", workers=4)
            live.start()
            try:
                assert live.process is not None
                clients = {
                    who: live.client(live.add_user(who, Role.LEARNER)) for who in ("ada", "bob")
                }
                for client in clients.values():  # each learner's first try warms the server
                    try_once(client, REFERENCE, small)
                measure(
                    live.process.pid,
                    name,
                    [(clients[who], code, inputs) for who, code, inputs in tries],
                )
            finally:
                live.kill(signal.SIGTERM)


if __name__ == "__main__":
    main()
