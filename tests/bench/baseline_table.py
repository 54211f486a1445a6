"""The perf guard's baseline as the Markdown table tests/bench/README.md quotes.

`render(baseline)` writes one row per guarded program and board from perf_baseline.json, then the
two-core table's rows (keys `cores:<program>/<board>`: one core's instructions and the wall);
`splice(readme, table)` puts it between the README's `<!-- perf_baseline.json -->` markers.
perf.py's `--update-baseline` rewrites both files together, and //tests/docs:readmes_test fails
when the README's table is not the rendering of the checked-in baseline (which
//tests/bench:perf_guard_test holds against a measurement).
"""

from __future__ import annotations

import re

BEGIN = "<!-- perf_baseline.json: written by `bazel run //tests/bench:perf -- --update-baseline` -->"
END = "<!-- end of perf_baseline.json -->"

_COLUMNS = ("instructions", "flash", "ram", "stack", "arena", "pool")


def render(baseline: dict[str, dict[str, int]]) -> str:
    """The baseline as a Markdown table, rows sorted by model and board."""
    lines = [
        "| program | board | instructions | flash | RAM | stack | arena | pool |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for key in sorted(k for k in baseline if not k.startswith("cores:")):
        model, board = key.split("/")
        row = baseline[key]
        instructions, *bytes_ = (row[c] for c in _COLUMNS)
        lines.append(f"| `{model}` | {board} | {instructions:,} | " + " | ".join(f"{b:,} B" for b in bytes_) + " |")
    cores = sorted(k for k in baseline if k.startswith("cores:"))
    if cores:
        lines += [
            "",
            "| program | board | one core: instructions | two cores: wall (core 0's instructions + its waits) |",
            "|---|---|---:|---:|",
        ]
        for key in cores:
            model, board = key.removeprefix("cores:").split("/")
            lines.append(f"| `{model}` | {board} | {baseline[key]['one_core']:,} | {baseline[key]['wall']:,} |")
    return "\n".join(lines)


def quoted(readme: str) -> str | None:
    """The table between the markers, or None when the README has no such block."""
    found = re.search(re.escape(BEGIN) + r"\n(.*?)\n" + re.escape(END), readme, re.DOTALL)
    return found.group(1) if found else None


def splice(readme: str, table: str) -> str:
    """`readme` with `table` between the markers (which must be there)."""
    if quoted(readme) is None:
        raise ValueError(f"the README has no {BEGIN!r} ... {END!r} block")
    return re.sub(
        re.escape(BEGIN) + r"\n.*?\n" + re.escape(END), lambda _: f"{BEGIN}\n{table}\n{END}", readme, flags=re.DOTALL
    )
