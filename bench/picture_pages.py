"""What error pictures cost a live server: ``GET /healthz``'s latency while eight pictures
are drawn, and the server's CPU time for eight page views of new pictures.

Starts ``numjudge serve`` (two grading threads, SQLite) as tests/app/live.py does, sends
eight runs of pairwise-distances whose last columns are off (each its own values: a new
picture each), then opens the eight submission pages at once. ``/healthz`` is asked every
20 ms throughout, by its own client. The server's CPU is read from ``/proc/<pid>/stat``.
Machines here are noisy: compare the phases, and the orders of magnitude.

    .venv/bin/python bench/picture_pages.py
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.models import Role  # noqa: E402
from tests.app.live import LiveServer  # noqa: E402

PAGES = 8
CODE = """
import numpy as np

def pairwise_distances(X, Y):
    D = np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=-1))
    return D + OFF * (np.arange(Y.shape[0]) >= Y.shape[0] - 2)
"""


def cpu_s(pid: int) -> float:
    """The process's user and system CPU time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def healthz_during(url: str, work: Callable[[], Any]) -> tuple[list[float], Any]:
    """``/healthz`` latencies (ms), asked every 20 ms while ``work`` runs, and its result."""
    latencies: list[float] = []
    done = threading.Event()

    def ask() -> None:
        with httpx.Client(base_url=url, timeout=30) as client:
            while not done.is_set():
                started = time.perf_counter()
                client.get("/healthz")
                latencies.append(1000 * (time.perf_counter() - started))
                time.sleep(0.02)

    asking = threading.Thread(target=ask)
    asking.start()
    try:
        result = work()
    finally:
        done.set()
        asking.join()
    return latencies, result


def report(phase: str, latencies: list[float]) -> None:
    print(
        f"{phase:<34} /healthz over {len(latencies):>3} asks: median "
        f"{statistics.median(latencies):6.1f} ms, max {max(latencies):6.1f} ms"
    )


def signed_in(url: str, name: str, password: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=120)
    page = client.get("/login").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    client.post("/login", data={"csrf_token": token[1], "username": name, "password": password})
    return client


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(Path(tmp), f"sqlite:///{tmp}/numjudge.db")
        live.start()
        try:
            assert live.process is not None
            pid = live.process.pid
            headers = live.add_user("ada", Role.LEARNER, password="correct horse")
            idle, _ = healthz_during(live.url, lambda: time.sleep(2))
            report("idle", idle)

            def grade_all() -> list[str]:
                with live.client(headers) as api, ThreadPoolExecutor(PAGES) as pool:
                    codes = [CODE.replace("OFF", str(1 + n / 10)) for n in range(PAGES)]
                    answers = pool.map(
                        lambda code: api.post(
                            "/run",
                            params={"wait": 120},
                            json={"exercise": "pairwise-distances", "code": code},
                        ).json(),
                        codes,
                    )
                    return [answer["id"] for answer in answers]

            grading, ids = healthz_during(live.url, grade_all)
            report(f"{PAGES} gradings (pictures drawn)", grading)

            pages = signed_in(live.url, "ada", "correct horse")
            before = cpu_s(pid)

            def open_pages() -> list[int]:
                with ThreadPoolExecutor(PAGES) as pool:
                    return list(pool.map(lambda i: pages.get(f"/history/{i}").status_code, ids))

            viewing, statuses = healthz_during(live.url, open_pages)
            spent = cpu_s(pid) - before
            report(f"{PAGES} new pages at once", viewing)
            print(f"statuses {statuses}; server CPU for the {PAGES} pages: {spent:.2f} s")
            pages.close()
        finally:
            live.kill()


if __name__ == "__main__":
    main()
