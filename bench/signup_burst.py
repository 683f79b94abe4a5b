"""A burst of sign-ups against a real ``numjudge serve`` (SQLite, no grading threads): how the
answers split between 303, 429 and anything else, and how long /healthz takes meanwhile.

Starts the server on a fresh database, times 10 /healthz answers (the baseline), then sends
``--burst`` sign-ups at the same moment, each from a client of its own, while asking /healthz
every 50 ms; ``--spinners`` CPU-bound processes beside it load the host (the issue's 500s came
from a loaded host). Prints the answers' status codes and the slowest /healthz answers.
Nothing is asserted (tests/app/test_signup_burst.py asserts the bounds):

    .venv/bin/python bench/signup_burst.py [--burst 40] [--spinners 0]
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.db import upgrade_database  # noqa: E402
from tests.app import test_signup_burst as scenario  # noqa: E402
from tests.app.live import LiveServer  # noqa: E402

logger = logging.getLogger("bench.signup_burst")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=scenario.BURST)
    parser.add_argument("--spinners", type=int, default=0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        url = f"sqlite:///{tmp / 'numjudge.db'}"
        upgrade_database(url)
        server = LiveServer(
            tmp, url, workers=0, extra_env={"NUMJUDGE_SIGNUP_LIMIT": str(10 * args.burst)}
        )
        server.start()
        try:
            with scenario.loaded_host(args.spinners):
                baseline = [scenario.healthz_seconds(server.url) for _ in range(10)]
                started = time.perf_counter()
                with scenario.polling_healthz(server.url) as during:
                    codes = scenario.burst(
                        server,
                        "/signup",
                        lambda i: {
                            "username": f"burst{i}",
                            "password": scenario.PASSWORD,
                            "password2": scenario.PASSWORD,
                        },
                        args.burst,
                    )
                elapsed = time.perf_counter() - started
        finally:
            server.kill()
    logger.info("%d sign-ups in %.1f s: %s", args.burst, elapsed, dict(Counter(codes)))
    logger.info(
        "/healthz: slowest %.3f s before the burst, %.3f s during it (%d answers)",
        max(baseline),
        max(during),
        len(during),
    )


if __name__ == "__main__":
    main()
