"""Attack submissions to the vault exercise, one per channel of issue 8 ("What was found" 1, 2).

Each defines ``gate(x, w)`` and tries to carry the digits of its inputs out of the sandbox.
The public case runs first, then the hidden ones: code that needs to know whether a call is
hidden counts calls (the vault has one public call). ``control`` marks attacks that, by the
same means, must show the public inputs somewhere: proof that the attack itself works and that
only the hidden inputs are kept from it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

PRELUDE = '''
import gc, os, sys, threading, time, warnings
import numpy as np

_calls = [0]


def _numbers(obj):
    """The input-like numbers in an array or a raw buffer (ten significant digits, < 1)."""
    try:
        if isinstance(obj, np.ndarray) and obj.dtype == np.float64:
            values = obj.ravel()
        elif isinstance(obj, (bytes, bytearray, memoryview)):
            data = bytes(obj)
            values = np.frombuffer(data[: len(data) // 8 * 8], dtype=np.float64)
        else:
            return []
        return [repr(float(v)) for v in values[:50000]
                if 0.1 <= abs(v) < 1 and round(float(v), 10) == float(v)]
    except Exception:
        return []


def _dump(objects):
    found = []
    for obj in objects:
        inner = list(obj.values()) if isinstance(obj, dict) else (
            list(obj) if isinstance(obj, (list, tuple)) else [obj])
        for item in [obj, *inner]:
            found += _numbers(item)
    print("found:", " ".join(dict.fromkeys(found)))


def _leak(*arrays):
    return " ".join(repr(float(v)) for a in arrays for v in np.ravel(a)[:3])


def _hidden():
    _calls[0] += 1
    return _calls[0] > 1


def _right(x, w):
    return np.tanh(x * w)
'''


@dataclass(frozen=True)
class Attack:
    name: str
    body: str
    control: bool = False
    """The same means show the public inputs (in the output or a public test's message)."""
    hidden_sleep_s: float = 0.0
    """At least this long spent in hidden calls, which the report's duration must not count."""

    @property
    def code(self) -> str:
        return PRELUDE + textwrap.dedent(self.body)


FRAME_WALK = """
def _walk():
    seen, frame = [], sys._getframe()
    while frame is not None:
        seen += list(frame.f_locals.values())
        frame = frame.f_back
    _dump(seen)
"""

ATTACKS = (
    Attack(
        "frames walked at import time",
        FRAME_WALK
        + """
_walk()

def gate(x, w):
    return _right(x, w)
""",
        control=True,
    ),
    Attack(
        "frames walked during every call",
        FRAME_WALK
        + """
def gate(x, w):
    _walk()
    return _right(x, w)
""",
        control=True,
    ),
    Attack(
        "gc.get_objects at import time and in every call",
        """
def _scan():
    _dump([o for o in gc.get_objects() if isinstance(o, (list, dict, tuple, np.ndarray))])

_scan()

def gate(x, w):
    _scan()
    return _right(x, w)
""",
        control=True,
    ),
    Attack(
        "module globals of every module, at import time and in every call",
        """
def _globals():
    _dump([vars(module) for module in list(sys.modules.values()) if module is not None])

_globals()

def gate(x, w):
    _globals()
    return _right(x, w)
""",
    ),
    Attack(
        "a class whose qualname and module are the inputs",
        """
def gate(x, w):
    cls = type("Leak", (), {})
    cls.__qualname__ = cls.__module__ = _leak(x, w)
    return cls()
""",
        control=True,
    ),
    Attack(
        "a structured dtype whose field names are the inputs",
        """
def gate(x, w):
    return np.zeros(np.shape(x), dtype=[(_leak(x), "f8"), (_leak(w), "f8")])
""",
        control=True,
    ),
    Attack(
        "the shape of the output encodes four digits",
        """
def gate(x, w):
    return np.zeros(int(f"{abs(np.ravel(x)[0]):.10f}"[2:6]))
""",
        control=True,
    ),
    Attack(
        "the index of the first NaN encodes four digits",
        """
def gate(x, w):
    out = _right(x, w)
    out.flat[int(f"{abs(np.ravel(x)[0]):.10f}"[2:6]) % out.size] = np.nan
    return out
""",
    ),
    Attack(
        "the exit code encodes two digits",
        """
def gate(x, w):
    if _hidden():
        os._exit(int(f"{abs(np.ravel(x)[0]):.10f}"[2:4]))
    return _right(x, w)
""",
    ),
    Attack(
        "the signal that ends the process encodes a digit",
        """
import ctypes

def gate(x, w):
    if _hidden():
        if int(f"{abs(np.ravel(x)[0]):.10f}"[2]) % 2:
            os.abort()
        ctypes.string_at(0)
    return _right(x, w)
""",
    ),
    Attack(
        "warnings carry the inputs and name a ufunc chosen by them",
        """
def gate(x, w):
    warnings.warn(_leak(x, w))
    ufunc = [np.exp, np.power, np.multiply, np.square, np.cosh][int(abs(x.flat[0]) * 10) % 5]
    with np.errstate(all="warn"):
        ufunc(np.float64(1e300), np.float64(1e300)) if ufunc.nin == 2 else ufunc(1e300)
    return _right(x, w)
""",
        control=True,
    ),
    Attack(
        "hidden calls take a time that encodes a digit",
        """
def gate(x, w):
    if _hidden() and _calls[0] == 2:
        time.sleep(2.0 + abs(np.ravel(x)[0]))
    return _right(x, w)
""",
        hidden_sleep_s=2.0,
    ),
    Attack(
        "the harness's changed-input check replaced to name the inputs",
        """
# The engine's modules are out of sys.modules and the harness runs on sealed copies
# (graders/sandbox/sealed.py): its namespace is reached from the frame that loads this code.
_harness = sys._getframe(1).f_globals
_real_changed = _harness["changed_inputs"]

def _changed(names, args, pristine):
    return [_leak(*args)] if _calls[0] > 1 else _real_changed(names, args, pristine)

_harness["changed_inputs"] = _changed

def gate(x, w):
    _hidden()
    return _right(x, w)
""",
    ),
    Attack(
        "the harness's hidden call replaced by its public one, text and timing included",
        """
# The engine's modules are out of sys.modules and the harness runs on sealed copies
# (graders/sandbox/sealed.py): its namespace is reached from the frame that loads this code.
_harness = sys._getframe(1).f_globals
_printed = sys.stdout

def _run_hidden(function, task, buffers):
    header, out = _harness["run_public"](function, task, buffers, _printed)
    header["stdout"] = header["stdout"] + _LEAKED[0]
    header["warnings"] = [_LEAKED[0]]
    header["error"] = {"type": _LEAKED[0], "message": _LEAKED[0], "line": 5678,
                       "traceback": _LEAKED[0]}
    header["seconds"] = float(_LEAKED[0].split()[0])
    return header, out

_harness["run_hidden"] = _run_hidden
_LEAKED = [""]

def gate(x, w):
    _LEAKED[0] = _leak(x, w)
    print(_LEAKED[0])
    if _hidden():
        raise ValueError(_LEAKED[0])
    return _right(x, w)
""",
        control=True,
    ),
    Attack(
        "stdout, stderr and a saved stdout written during hidden calls",
        """
_saved = sys.stdout

def gate(x, w):
    text = _leak(x, w)
    print(text)
    sys.stderr.write(text + "\\n")
    _saved.write(text + "\\n")
    sys.__stdout__.write(text + "\\n")
    os.write(1, text.encode())
    return _right(x, w)
""",
        control=True,
    ),
    Attack(
        "a thread started at import time prints what the calls stash",
        """
_stash = []

def _printer():
    while True:
        if _stash:
            print(_stash.pop())
        time.sleep(0.001)

threading.Thread(target=_printer, daemon=True).start()

def gate(x, w):
    _stash.append(_leak(x, w))
    time.sleep(0.05)
    return _right(x, w)
""",
    ),
    Attack(
        "exception messages and exception classes named by the inputs",
        """
def gate(x, w):
    hidden = _hidden()
    if hidden and _calls[0] % 2:
        raise type(_leak(x), (Exception,), {})(_leak(x, w))
    if hidden:
        raise SystemExit(_leak(x, w))
    raise ValueError(_leak(x, w))
""",
        control=True,
    ),
    Attack(
        "frames forged on the channel during a hidden call",
        """
import json, socket, struct

def _channel():
    for fd in range(3, 64):
        try:
            sock = socket.socket(fileno=fd)
            sock.getsockopt(socket.SOL_SOCKET, socket.SO_TYPE)
            return sock
        except OSError:
            continue

def gate(x, w):
    if _hidden():
        text = _leak(x, w)
        channel = _channel()
        for header in ({"kind": "results", "first": 1, "results": [
                            {"ok": False, "stdout": text, "warnings": [text], "mutated": [],
                             "seconds": 1, "error": {"type": text, "message": text, "line": 1}}]},
                       {"kind": "results", "first": 0, "results": [
                            {"ok": True, "stdout": text, "value": {"t": "py", "v": text}}]},
                       {"kind": "loaded", "stdout": text},
                       {"kind": "load_error", "stdout": text, "error": {"type": text}},
                       {"kind": "setup_error", "message": text},
                       {"kind": "public_done", "dropped_chars": 5678}):
            data = json.dumps({**header, "buffers": []}).encode()
            channel.sendall(struct.pack(">I", len(data)) + data)
        os._exit(3)
    return _right(x, w)
""",
    ),
    Attack(
        "dicts and containers whose keys, methods and types carry the inputs",
        """
class _Text(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class _Tricky(dict):
    text = ""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __getattr__(self, name):
        return _Tricky.text

    def __len__(self):
        return len(_Tricky.text)

    def __iter__(self):
        return iter([_Tricky.text])

    def keys(self):
        return [_Tricky.text]

    def items(self):
        return [(_Tricky.text, _Tricky.text)]

    def values(self):
        return [_Tricky.text]

    def __getitem__(self, key):
        return _Tricky.text

    def __repr__(self):
        return _Tricky.text


def gate(x, w):
    _hidden()
    _Tricky.text = text = _leak(x, w)
    which = _calls[0] % 5
    if which == 0:
        return _Tricky({text: _right(x, w)})
    if which == 1:
        return {_Text(text): _right(x, w)}
    if which == 2:
        return {text: _right(x, w), "values": [text, {text: x}]}
    if which == 3:
        return (_right(x, w), [_Tricky(), {text: w}, type(text, (dict,), {})()])
    return [_right(x, w), {"x": x, "w": w}]
""",
    ),
    Attack(
        "returned text, and a foreign object whose type carries the inputs",
        """
class Sneaky(np.ndarray):
    pass

def gate(x, w):
    if _calls[0] % 2:
        _hidden()
        return _leak(x, w)
    _hidden()
    kind = type(_leak(x, w), (np.ndarray,), {})
    return _right(x, w).view(kind)
""",
        control=True,
    ),
)
