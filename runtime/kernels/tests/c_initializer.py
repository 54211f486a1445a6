"""Formatting shared by the kernel case generators (gen_kernels_a_cases.py, gen_kernels_b_cases.py)."""

from __future__ import annotations


def wrap_initializer(body: str) -> str:
    """A comma-separated C initializer body, broken into lines of about 100 characters."""
    lines: list[str] = []
    line = ""
    for part in body.split(", "):
        if len(line) + len(part) > 100:
            lines.append(line.rstrip())
            line = ""
        line += part + ", "
    lines.append(line.rstrip(", "))
    return "\n  ".join(lines)
