"""What a reader of Japanese reads on a page: its text and the words of its attributes a
reader meets (labels, titles, placeholders), without code, mathematics or Python's own error
text; and the English words left in it."""

from __future__ import annotations

import ast
import builtins
import html
import keyword
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

CODE_ELEMENTS = re.compile(
    r"<(script|style|code|pre|textarea|kbd|metadata)\b[^>]*>.*?</\1>|"
    r'<(span|div) class="math (?:inline|block)">.*?</\2>',
    re.S,
)
"""Elements whose text is code, mathematics (KaTeX draws it), the editor's content or a
picture's metadata (which no reader is shown)."""
READ_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|alt|placeholder)="([^"]*)"')
INLINE_TAG = re.compile(r"</?span>")
"""A bare span inside a word (the brand: num<span>judge</span>)."""
TAG = re.compile(r"<[^>]+>")
PATH = re.compile(r"[^\s（）、。]*/[^\s（）、。]*")
"""A URL, a path of the site or a file (/run, docs/lms.md), a time zone (Europe/Berlin)."""
WORK_TITLE = re.compile(r"『[^』]*』")
"""A cited work's title as it was published, in Japanese quotation marks."""
GLOSS = re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])\s*（[A-Za-z][A-Za-z -]*）|「[A-Za-z ]+」")
"""The English term after its Japanese one, for reading the literature (漏れ積分器（leaky
integrator）), or an English term a text quotes from it (「active」)."""
PLACEHOLDER = re.compile(r"\{\w*\}")
PYTHON_ERROR = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b:?[^\n<。]*")
"""Python's own error text: an exception's name and its message, as Python wrote it."""
MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$|\\\(.*?\\\)", re.S)
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.'’-]*")
SAME_IN_JAPANESE = """
numpy NumPy PyTorch torch nn GRUCell GRU GRUs LSTM LSTMs Adam SVD QR CSV API LMS LTI VS
Code Jupyter Python NaN Inf inf nan dtype float int bool True False None ReLU im2col
log-sum-exp BPTT IEEE ID URL SVG OK e.g numjudge English rtol atol Cho Hochreiter
Schmidhuber Kingma Ba Ioffe Szegedy JPlag KaTeX sigmoid tanh softmax argmax argsort einsum
i.e Keras TensorFlow ONNX cuDNN BLAS LAPACK arXiv JMLR Srivastava Chung Gers Cummins Ctrl
Shift Enter Tab Esc MB MiB KB KiB CPU UTC CET CEST reduce num judge ms Cookie SMTP Moodle
Canvas OpenID Connect JWKS URI Elman Winograd FFT k-means top-k GB Jozefowicz Zaremba
Sutskever RNN
"""
NAMES = (
    frozenset(SAME_IN_JAPANESE.split()) | set(keyword.kwlist) | set(dir(builtins)) | set(dir(np))
)
"""Words that are the same in Japanese text: names of libraries, models, people and keys,
units, time zones, the language switch's own name of English, the site's name, numpy's names
and Python's (its keywords and builtins, functools.reduce)."""


def read_text(page: str) -> str:
    """The page as a reader reads it: text and read attributes, code and math left out."""
    body = PYTHON_ERROR.sub(" ", INLINE_TAG.sub("", CODE_ELEMENTS.sub(" ", page)))
    attributes = " ".join(READ_ATTRIBUTES.findall(body))
    text = html.unescape(TAG.sub(" ", body) + " " + attributes)
    for left_out in (MATH, PATH, WORK_TITLE, GLOSS):
        text = left_out.sub(" ", text)
    return text


def identifiers(folder: Path) -> set[str]:
    """Every name and string of an exercise's Python files: the code a text may name."""
    found: set[str] = set()
    for file in folder.rglob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
            elif isinstance(node, ast.arg):
                found.add(node.arg)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                found.add(node.name)
            elif isinstance(node, ast.alias):
                found.update((node.name, node.asname or ""))
            elif isinstance(node, ast.keyword) and node.arg:
                found.add(node.arg)
    return found


def english_words(page: str, code_names: Iterable[str] = ()) -> list[str]:
    """The English words a reader of the page meets: each word of Latin letters that is not
    code (a name of the exercise's code, a word with a digit, an underscore or a dot), a
    single letter (a variable), or a name in ``NAMES``."""
    allowed = NAMES | set(code_names)
    words = []
    for word in WORD.findall(read_text(page)):
        word = word.rstrip(".'’-")
        if len(word) <= 1 or word in allowed or re.search(r"[\d_.]", word):
            continue
        words.append(word)
    return words
