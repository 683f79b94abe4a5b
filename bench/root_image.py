"""What the sandboxes' root image costs: a pool's start, its memory, and a grading.

Alternates, in one run, this checkout and a baseline checkout (an earlier commit: one whose
sandboxes bind the host's folders, or one whose zygotes each copy an image of their own):
each round starts, in a fresh process with the baseline's or this checkout's engine on
``PYTHONPATH``, a pool of ``--workers`` zygotes, waits for them to be ready, reads what their
mount namespaces hold in memory (the images' tmpfs, seen through ``/proc/<pid>/root``, each
file system counted once) and the first zygote's resident memory, then grades the reference
of gru-update-gate ``--gradings`` times. Prints medians and ratios; machines here are noisy, so
only the ratios mean much.

    .venv/bin/python bench/root_image.py --baseline CHECKOUT [--workers 4] [--rounds 5]
        [--gradings 30]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUND = """
import json, os, statistics, sys, time
from pathlib import Path
from graders.api import ExerciseCatalog, Sandbox, grade

def resident_kib(pid):
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return sum(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

def zygote_processes(pid):
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid, *map(int, children)]

prepared = ExerciseCatalog(Path("exercises")).prepared("gru-update-gate")
code = Path("exercises/gru-update-gate/solution.py").read_text()
started = time.perf_counter()
with Sandbox(workers=int(sys.argv[2])) as pool:
    ready = time.perf_counter() - started
    file_systems = {}
    # _all, not the public zygotes: a baseline is an earlier commit, which has only _all.
    for zygote in pool._all:
        root = Path(f"/proc/{zygote.process.pid}/root") / str(zygote.state_folder).lstrip("/")
        disk = os.statvfs(root / "root")
        file_systems[os.stat(root / "root").st_dev] = (disk.f_blocks - disk.f_bfree) * disk.f_frsize
    in_memory = sum(file_systems.values())
    zygote = pool._all[0]
    grade(prepared, code, pool)  # the first grading warms the zygote
    resident = sum(resident_kib(pid) for pid in zygote_processes(zygote.process.pid)) * 1024
    times = []
    for _ in range(int(sys.argv[1])):
        begun = time.perf_counter()
        grade(prepared, code, pool)
        times.append(time.perf_counter() - begun)
print(json.dumps({"start_s": ready, "image_bytes": in_memory, "resident_bytes": resident,
                  "grading_s": statistics.median(times)}))
"""


def one_round(checkout: Path, workers: int, gradings: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", ROUND, str(gradings), str(workers)],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    measured: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--gradings", type=int, default=30)
    arguments = parser.parse_args()
    sides = {"baseline": arguments.baseline.resolve(), "image": ROOT}
    results: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for _ in range(arguments.rounds):
        for side, checkout in sides.items():
            results[side].append(one_round(checkout, arguments.workers, arguments.gradings))
    medians = {
        side: {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
        for side, rounds in results.items()
    }
    mib = 2**20
    for side, values in medians.items():
        sys.stdout.write(
            f"{side:9} pool of {arguments.workers} started in {values['start_s']:.2f} s, images "
            f"in memory {values['image_bytes'] / mib:.0f} MiB, a zygote resident "
            f"{values['resident_bytes'] / mib:.0f} MiB, "
            f"grading {values['grading_s'] * 1e3:.1f} ms\n"
        )
    base, image = medians["baseline"], medians["image"]
    sys.stdout.write(
        f"ratios image/baseline: start {image['start_s'] / base['start_s']:.2f}, "
        f"grading {image['grading_s'] / base['grading_s']:.2f}; "
        f"images' memory {(image['image_bytes'] - base['image_bytes']) / mib:+.0f} MiB\n"
    )


if __name__ == "__main__":
    main()
