"""Custom inputs: the bytes reading one input allocates at its peak (``tracemalloc``: numpy's
arrays, ``ast``'s tree), against what the parser charges it (the smallest cap that reads it).

Compare two checkouts by running this in each (``PYTHONPATH=<checkout>`` picks the engine; the
charge is in bytes since the fix, in elements of 8 bytes before):

    .venv/bin/python bench/custom_inputs.py
"""

from __future__ import annotations

import tracemalloc
import warnings

from graders.api import CustomInputRefused, parse_inputs

IN_BYTES = "max_bytes" in parse_inputs.__code__.co_varnames
CAP_BYTES = 512 * 2**20 // 8
"""The cap of an exercise of 512 MB (pairwise-distances)."""
AT_THE_CAP = "np.linspace(np.zeros(4000000), 1, num=4000000)"
CASES = {
    "linspace(zeros(11585), 1, num=11585)": "np.linspace(np.zeros(11585), 1, num=11585)",
    "linspace(zeros((2000, 1)), zeros(2000), num=2)": (
        "np.linspace(np.zeros((2000, 1)), np.zeros(2000), num=2)"
    ),
    "linspace(0, 1, 10**6, dtype=float32)": "np.linspace(0, 1, 1000000, dtype='float32')",
    "full(10**6, 1j)": "np.full(1000000, 1j)",
    "full((1000, 1000), a list of 1000)": "np.full((1000, 1000), ["
    + ",".join(["0.5"] * 1000)
    + "])",
    "a list of 100 000 zeros (200 000 characters)": "[" + ",".join(["0"] * 99_999) + "]",
    "zeros(10**6)": "np.zeros(1000000)",
}


def read(text: str, cap_bytes: int) -> None:
    parse_inputs({"x": text}, ("x",), cap_bytes if IN_BYTES else cap_bytes // 8)


def charged(text: str) -> int:
    """The smallest cap, in bytes, that reads ``text``."""
    low, high = 0, 2**50
    while low < high:
        middle = (low + high) // 2
        try:
            read(text, middle)
            high = middle
        except CustomInputRefused:
            low = middle + 1
    return low


def peak(text: str) -> int:
    read(text, 2**50)  # numpy's and Python's caches filled
    tracemalloc.start()
    try:
        read(text, 2**50)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def at_the_cap(text: str) -> str:
    try:
        read(text, CAP_BYTES)
    except CustomInputRefused:
        return "refused"
    except MemoryError:
        return "MemoryError (a 500)"
    return "read"


def main() -> None:
    warnings.simplefilter("ignore")  # casts of complex values to float32
    print(f"rules {'after' if IN_BYTES else 'before'} the fix")
    print(f"{'input':48s} {'charged B':>13s} {'peak B':>13s} {'peak/charged':>12s}")
    for name, text in CASES.items():
        cost, most = charged(text), peak(text)
        ratio = f"{most / cost:12.2f}" if cost else f"{'infinite':>12s}"
        print(f"{name:48s} {cost:13,d} {most:13,d} {ratio}")
    print(f"at the cap of a 512 MB exercise, {AT_THE_CAP}: {at_the_cap(AT_THE_CAP)}")


if __name__ == "__main__":
    main()
