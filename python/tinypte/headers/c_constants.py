"""Read the constants that C headers define once as X-macro lists, for Python checks.

The runtime's headers are the single source of its status codes (`TP_STATUS_LIST` in
runtime/include/tinypte/status.h) and dtypes (`TP_DTYPE_LIST` in value.h). Python that
needs them reads them from there, or is checked against them. `x_macro_body` reads any such
list (the Ethos-U55 configurations' too: backends/ethos_u55/configs.py). Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# The runtime's public headers, beside python/ in the repository and in Bazel runfiles
# (//python/tinypte/headers carries the two it reads as data; the path is not resolved
# through symlinks, so a Bazel action reads the declared copy).
RUNTIME_INCLUDE = Path(__file__).absolute().parents[3] / "runtime" / "include" / "tinypte"
STATUS_H = RUNTIME_INCLUDE / "status.h"
VALUE_H = RUNTIME_INCLUDE / "value.h"


@dataclass(frozen=True)
class CStatus:
    name: str  # "TP_ERR_CORRUPT"
    code: int
    message: str  # what it means and what to do


@dataclass(frozen=True)
class CDtype:
    id: str  # "FLOAT32" (the enum is TP_DTYPE_FLOAT32)
    scalar_type: int  # ExecuTorch ScalarType number
    size: int  # bytes per element
    name: str  # "float32"
    fbs_name: str  # "FLOAT", as in scalar_type.fbs


def x_macro_body(header_text: str, macro: str) -> str:
    """The entries of `#define MACRO(X) ...`, with line continuations joined."""
    match = re.search(rf"#define {macro}\(X\)((?:[^\n]*\\\n)*[^\n]*)", header_text)
    if not match:
        raise ValueError(f"no #define {macro}(X) in the header")
    return re.sub(r"\\\n", " ", match.group(1))


def _c_string(literals: str) -> str:
    """Concatenate adjacent C string literals (no escapes other than \\" and \\\\ expected)."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', literals)
    return "".join(parts).replace('\\"', '"').replace("\\\\", "\\")


def read_statuses(status_h: Path = STATUS_H) -> list[CStatus]:
    body = x_macro_body(status_h.read_text(), "TP_STATUS_LIST")
    entries = re.findall(r'X\((TP_\w+),\s*(\d+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)', body)
    return [CStatus(name, int(code), _c_string(message)) for name, code, message in entries]


def read_dtypes(value_h: Path = VALUE_H) -> list[CDtype]:
    body = x_macro_body(value_h.read_text(), "TP_DTYPE_LIST")
    entries = re.findall(r'X\((\w+),\s*(\d+),\s*(\d+),\s*"(\w+)",\s*(\w+)\)', body)
    return [CDtype(ident, int(number), int(size), name, fbs) for ident, number, size, name, fbs in entries]
