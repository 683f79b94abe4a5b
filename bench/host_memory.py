"""The host's price of a process per submission: what the kernel charges, per page, for the
memory management a fork of a warm process needs.

A sandbox is a fork of a warm zygote (docs/sandbox.md). Before any call runs, the kernel copies
the zygote's page tables, then copies on write each shared page the sandbox's interpreter
writes to (reference counts), fills fresh pages with zeros, and unmaps everything at exit.
How much each costs depends on the host far more than on the code: under a hypervisor that
manages page tables for the guest, a copy-on-write fault can cost several times what it does
on bare metal. This measures, in one process, with MB of touched anonymous memory like a
zygote's:

- the fork: until it returns in the parent, per MB of the parent's touched memory;
- a copy-on-write fault in the child, per page;
- a zero-fill fault (a fresh page), per page;
- the child's exit and reaping, per MB it wrote.

Each is the median of a few rounds, less the Python loop's own time on pages already mapped.
Multiply the copy-on-write figure by a sandbox's page faults (``bench/engine_cpu.py``) for the
kernel's share of a grading on this host.

    python bench/host_memory.py [--mb 16] [--rounds 7]
"""

from __future__ import annotations

import argparse
import mmap
import os
import statistics
import time

PAGE = mmap.PAGESIZE


def touched(size: int) -> mmap.mmap:
    """``size`` bytes of private anonymous memory, every page written once."""
    memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    write_pages(memory, size)
    return memory


def write_pages(memory: mmap.mmap, size: int) -> float:
    """Write one byte in each page; the seconds it took."""
    started = time.perf_counter()
    for offset in range(0, size, PAGE):
        memory[offset] = 1
    return time.perf_counter() - started


def one_round(memory: mmap.mmap, size: int) -> dict[str, float]:
    """Seconds for each part of one fork of this process, its child writing every page."""
    loop = write_pages(memory, size)  # mapped already: the loop's own time
    report_read, report_write = os.pipe()
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        copied = write_pages(memory, size)
        fresh = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        filled = write_pages(fresh, size)
        os.write(report_write, f"{copied} {filled} {time.perf_counter()}".encode())
        os._exit(0)
    forked = time.perf_counter() - started
    os.close(report_write)
    with os.fdopen(report_read, "rb") as report:
        copied, filled, exiting = (float(field) for field in report.read().split())
    os.waitpid(pid, 0)
    return {
        "fork": forked,
        "copy on write": copied - loop,
        "zero fill": filled - loop,
        "exit": time.perf_counter() - exiting,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=16, help="touched memory, like a zygote's")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    size = args.mb * 1024 * 1024
    pages = size // PAGE
    memory = touched(size)
    rounds = [one_round(memory, size) for _ in range(args.rounds)]
    median = {part: statistics.median(r[part] for r in rounds) for part in rounds[0]}
    print(f"{args.mb} MB touched, {pages} pages of {PAGE} bytes, median of {args.rounds} rounds:")
    per_page = {part: median[part] / pages * 1e6 for part in ("copy on write", "zero fill")}
    per_mb = {"fork": median["fork"] / args.mb * 1e6, "exit": median["exit"] / (2 * args.mb) * 1e6}
    print(f"  fork (until it returns):  {per_mb['fork']:8.1f} us per MB")
    print(f"  copy-on-write fault:      {per_page['copy on write']:8.2f} us per page")
    print(f"  zero-fill fault:          {per_page['zero fill']:8.2f} us per page")
    print(f"  exit and reaping:         {per_mb['exit']:8.1f} us per MB")
    print(
        f"  so 1,000 copies on write cost {per_page['copy on write']:.1f} ms "
        "(a sandbox makes about 1,100 page faults: bench/engine_cpu.py)"
    )


if __name__ == "__main__":
    main()
