"""A running server's working folders removed as a cleaner of /tmp does: what the learners and
``/healthz`` see, as root and as cloudsdk (uid 1000). Run as root:

    .venv/bin/python bench/self_healing.py [root|rootless]

It starts the server of ``tests/app/test_self_healing.py`` (a /tmp and hostname of its own),
grades once, removes everything in its /tmp (and, as root, its sandboxes' cgroups), polls
``/healthz`` 10 times 0.2 s apart with no grading, then sends 3 submissions at once and prints
their verdicts and how long they took, and ``/healthz`` until 30 s after the removal
(docs/reliability.md).
"""

from __future__ import annotations

import itertools
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.app.conftest import read_exercise_file  # noqa: E402
from tests.app.live import wait_all_done  # noqa: E402
from tests.app.test_self_healing import (  # noqa: E402
    CLOUDSDK,
    EXERCISE,
    private_tmp_server,
    submit,
)

POLLS = 10
WATCH_S = 30.0
"""Longer than a canary period (10 s): a failing canary shows by then."""


def main(variant: str) -> None:
    solution = read_exercise_file(EXERCISE, "solution.py")
    with (
        private_tmp_server(CLOUDSDK if variant == "rootless" else None) as server,
        server.client(server.headers) as client,
    ):
        first = submit(client, solution, wait_s=60)["verdict"]
        names = sorted(path.name for path in server.own_tmp.iterdir())
        cgroups = server.cgroups(server.state_folders())
        for name in names:
            shutil.rmtree(server.own_tmp / name)
        for cgroup in cgroups:
            cgroup.rmdir()
        removed = time.perf_counter()
        polls = []
        for _ in range(POLLS):
            polls.append(client.get("/healthz").status_code)
            time.sleep(0.2)
        started = time.perf_counter()
        ids = [submit(client, solution)["id"] for _ in range(3)]
        done = wait_all_done(client, ids, timeout=600)
        graded_s = time.perf_counter() - started
        later = []
        while time.perf_counter() - removed < WATCH_S:
            later.append(client.get("/healthz").status_code)
            time.sleep(0.5)
    runs = [f"{len(list(group))} x {code}" for code, group in itertools.groupby(later)]
    print(f"{variant}: first grading {first}; removed {names} and {len(cgroups)} cgroups")
    print(f"{variant}: /healthz without a grading: {polls}")
    print(f"{variant}: verdicts {[done[i]['verdict'] for i in ids]}, graded in {graded_s:.2f} s")
    print(f"{variant}: /healthz then, every 0.5 s up to {WATCH_S:g} s after the removal: {runs}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "root")
