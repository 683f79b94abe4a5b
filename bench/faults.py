"""Recovery from engine faults and hostile frames, measured.

For each fault: the time from the fault to the end of the next successful grading of the
reference solution of gru-update-gate in the same pool, beside the time of a grading with no
fault. docs/reliability.md quotes what it prints.

    .venv/bin/python bench/faults.py
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from graders.api import ExerciseCatalog, Sandbox, SandboxLimits, Verdict, grade

ROOT = Path(__file__).resolve().parents[1]
LIMITS = SandboxLimits(time_s=3.0)
FORGED = """
import os, socket, struct
for fd in range(3, 64):
    try:
        channel = socket.socket(fileno=fd)
        channel.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE)
        break
    except OSError:
        continue
header = b'[' * 200000 + b']' * 200000
channel.sendall(struct.pack(">I", len(header)) + header)
os._exit(0)
"""


def main() -> None:
    prepared = ExerciseCatalog(ROOT / "exercises").prepared("gru-update-gate")
    solution = (ROOT / "exercises" / "gru-update-gate" / "solution.py").read_text()
    slow = solution + "\nimport time\ntime.sleep(1.0)\n"

    def passes(pool: Sandbox, code: str = solution) -> None:
        report = grade(prepared, code, pool, limits=LIMITS)
        assert report.verdict is Verdict.PASSED, report.to_dict()

    def kill_mid_grading(pool: Sandbox) -> float:
        thread = threading.Thread(target=passes, args=(pool, slow))
        thread.start()
        time.sleep(0.3)
        started = time.perf_counter()
        os.killpg(pool.zygotes[0].process.pid, signal.SIGKILL)
        thread.join()
        return time.perf_counter() - started

    def remove_folder(pool: Sandbox) -> float:
        started = time.perf_counter()
        shutil.rmtree(pool.zygotes[0].state_folder)
        passes(pool)
        return time.perf_counter() - started

    def hostile_frame(pool: Sandbox) -> float:
        started = time.perf_counter()
        grade(prepared, FORGED, pool, limits=LIMITS)
        passes(pool)
        return time.perf_counter() - started

    def nothing(pool: Sandbox) -> float:
        started = time.perf_counter()
        passes(pool)
        return time.perf_counter() - started

    faults: dict[str, Callable[[Sandbox], float]] = {
        "no fault (one grading)": nothing,
        "zygote killed mid-grading (1 s solution)": kill_mid_grading,
        "state folder removed": remove_folder,
        "hostile frame, then a grading": hostile_frame,
    }
    for name, fault in faults.items():
        samples = []
        for _ in range(3):
            with Sandbox(workers=1, limits=LIMITS) as pool:
                passes(pool)
                samples.append(fault(pool))
        print(f"{name:45s} {max(samples):6.2f} s (worst of 3)")


if __name__ == "__main__":
    main()
