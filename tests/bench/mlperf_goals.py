"""Issue 44's MLPerf Tiny goals, each marked met or not met against the measured rows.

The goals are instructions per inference on one core (perf.py's rows, exact):
- int8 on the Cortex-M33 (mps2_an505, the Pico 2 W's core) and the Cortex-M55 (corstone300):
  a fixed count per model;
- int8 on RISC-V (rv32imac, rv32imafc): at most twice the Cortex-M33's count of the same run;
- float kws and vww on the Cortex-M33: at most 2.5 instructions per MAC.

Beside each int8 row, the physical limit it is measured against (the field notes: 2 int8 MACs an
instruction with SMLAD on the M33, about 8 with Helium on the M55) and the row's multiple of it.
The table prints only the goals whose rows were measured (`bazel run //tests/bench:zoo_perf` has
them all; the perf guard's rows the M33 and M55 ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

M33 = "mps2_an505"
M55 = "corstone300"
RISCV_BOARDS = ("rv32imac", "rv32imafc")
RISCV_TIMES_M33 = 2.0
FLOAT_PER_MAC = 2.5

# Goal instructions per inference, int8, one core.
INT8_GOALS: dict[str, dict[str, int]] = {
    "resnet8_int8": {M33: 12_500_000, M55: 3_300_000},
    "kws_int8": {M33: 3_500_000, M55: 1_300_000},
    "vww_int8": {M33: 8_000_000, M55: 3_400_000},
    "anomaly_int8": {M33: 400_000, M55: 100_000},
}
FLOAT_MODELS = ("kws", "vww")

# int8 MACs an instruction at best (arithmetic only): SMLAD on the M33, Helium on the M55.
MACS_PER_INSTRUCTION = {M33: 2, M55: 8}


class MeasuredRow(Protocol):
    """What the table reads of a perf.py row."""

    @property
    def model(self) -> str: ...
    @property
    def board(self) -> str: ...
    @property
    def instructions(self) -> int: ...
    @property
    def macs(self) -> int: ...


@dataclass(frozen=True)
class Goal:
    model: str
    board: str
    measured: str
    goal: str
    met: bool
    limit: str  # the row's multiple of the physical limit, or "-"


def goals(rows: list[MeasuredRow]) -> list[Goal]:
    """Every goal whose rows (and, for RISC-V, the M33's row of the same model) were measured."""
    by_key = {(r.model, r.board): r for r in rows}
    found: list[Goal] = []
    for model, targets in INT8_GOALS.items():
        for board, target in targets.items():
            row = by_key.get((model, board))
            if row is None:
                continue
            floor = row.macs / MACS_PER_INSTRUCTION[board]
            found.append(Goal(model, board, f"{row.instructions:,}", f"<= {target:,}", row.instructions <= target,
                              f"{row.instructions / floor:.2f}x" if floor else "-"))  # fmt: skip
        m33 = by_key.get((model, M33))
        for board in RISCV_BOARDS:
            row = by_key.get((model, board))
            if row is None or m33 is None:
                continue
            times = row.instructions / m33.instructions
            found.append(Goal(model, board, f"{row.instructions:,} ({times:.2f}x M33)",
                              f"<= {RISCV_TIMES_M33:.0f}x M33", times <= RISCV_TIMES_M33, "-"))  # fmt: skip
    for model in FLOAT_MODELS:
        row = by_key.get((model, M33))
        if row is None or not row.macs:
            continue
        per_mac = row.instructions / row.macs
        found.append(Goal(model, M33, f"{per_mac:.2f} per MAC", f"<= {FLOAT_PER_MAC} per MAC",
                          per_mac <= FLOAT_PER_MAC, "-"))  # fmt: skip
    return found


def goals_table(rows: list[MeasuredRow]) -> str:
    """Issue 44's goal table (Markdown), or "" when none of its rows were measured."""
    found = goals(rows)
    if not found:
        return ""
    lines = [
        "Issue 44's goals (instructions per inference, one core; limit: the row over MACs / MACs an instruction at best)",
        "",
        "| Model | Board | Measured | Goal | | Of the limit |",
        "|---|---|---:|---:|---|---:|",
    ]
    for g in found:
        lines.append(
            f"| `{g.model}` | {g.board} | {g.measured} | {g.goal} | {'met' if g.met else 'NOT MET'} | {g.limit} |"
        )
    met = sum(g.met for g in found)
    lines.append("")
    lines.append(f"{met} of {len(found)} goals met")
    return "\n".join(lines)
