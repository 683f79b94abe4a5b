"""What a submission's results can cost the trusted side, with and without the header budget.

Grades the reference of gru-update-gate, then submissions whose every call returns a large or
deep value (lists of floats, of objects, nested tuples, long text) or that forge a results
frame as dense in values as fits the budget, and measures this process's CPU time per grading
(``time.process_time``: decoding and judging happen here; the sandbox is another process).
Each is run with the budget (``protocol.MAX_RESULT_VALUES``, ``MAX_RESULT_HEADER_BYTES``) and
without it (both raised out of reach), and the ratios to the reference's grading are printed.
Machines here are noisy: the ratios and the order of magnitude are what count.

    .venv/bin/python bench/hostile_results.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from graders.api import ExerciseCatalog, PreparedExercise, Sandbox, SandboxLimits, grade
from graders.sandbox import protocol

ROOT = Path(__file__).resolve().parents[1]
LIMITS = SandboxLimits(time_s=10.0, memory_mb=1024)
RETURNING = """
import numpy as np

def update_gate(x_t, h_prev, W_z, b_z):
    return VALUE
"""
DENSE_FRAME = """
import os, socket, struct, json
for fd in range(3, 64):
    try:
        channel = socket.socket(fileno=fd)
        channel.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE)
        break
    except OSError:
        continue

def frame(header):
    encoded = json.dumps({**header, "buffers": []}, separators=(",", ":")).encode()
    return struct.pack(">I", len(encoded)) + encoded

value = {"t": "list", "items": [{"t": "foreign", "type": "x"}] * COUNT}
channel.sendall(frame({"kind": "loaded", "stdout": ""}))
channel.sendall(frame({"kind": "results", "first": 0, "results": [{"ok": True, "value": value}]}))
os._exit(0)
"""
ATTACKS = {
    "200 000-item lists of floats": RETURNING.replace("VALUE", "[0.5] * 200_000"),
    "20 000-item lists of floats": RETURNING.replace("VALUE", "[0.5] * 20_000"),
    "2 000-item lists of floats": RETURNING.replace("VALUE", "[0.5] * 2_000"),
    "200-item lists of floats": RETURNING.replace("VALUE", "[0.5] * 200"),
    "2 000-item lists of objects": RETURNING.replace("VALUE", "[object()] * 2_000"),
    "tuples nested 900 deep": RETURNING.replace(
        "VALUE", "__import__('functools').reduce(lambda v, _: (v,), range(900), 0.5)"
    ),
    "1 MB strings": RETURNING.replace("VALUE", "'x' * 1_000_000"),
    "one forged frame of 4 000 objects": DENSE_FRAME.replace("COUNT", "4_000"),
}
OUT_OF_REACH = 1 << 40


def cpu_per_grading(prepared: PreparedExercise, pool: Sandbox, code: str, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.process_time()
        grade(prepared, code, pool, limits=LIMITS)
        samples.append(time.process_time() - started)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    prepared = ExerciseCatalog(ROOT / "exercises").prepared("gru-update-gate")
    solution = (ROOT / "exercises" / "gru-update-gate" / "solution.py").read_text()
    budget = (protocol.MAX_RESULT_VALUES, protocol.MAX_RESULT_HEADER_BYTES)
    with Sandbox(workers=1, limits=LIMITS) as pool:
        reference = cpu_per_grading(prepared, pool, solution, runs)
        print(f"{'the reference':40s} {reference * 1000:8.1f} ms of server CPU per grading")
        print(f"{'submission':40s} {'budget':>10s} {'ratio':>6s} {'no budget':>10s} {'ratio':>6s}")
        for name, code in ATTACKS.items():
            protocol.MAX_RESULT_VALUES, protocol.MAX_RESULT_HEADER_BYTES = budget
            kept = cpu_per_grading(prepared, pool, code, runs)
            protocol.MAX_RESULT_VALUES = protocol.MAX_RESULT_HEADER_BYTES = OUT_OF_REACH
            unbounded = cpu_per_grading(prepared, pool, code, runs)
            print(
                f"{name:40s} {kept * 1000:7.1f} ms {kept / reference:6.1f} "
                f"{unbounded * 1000:7.1f} ms {unbounded / reference:6.1f}"
            )
    protocol.MAX_RESULT_VALUES, protocol.MAX_RESULT_HEADER_BYTES = budget


if __name__ == "__main__":
    main()
