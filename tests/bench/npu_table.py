"""The perf bench's NPU rows: Vela's estimate for each MLPerf Tiny model lowered to an Ethos-U55,
beside the same model's int8 program measured on the CPUs.

Vela's numbers are estimates (its performance model of the NPU at its system configuration's
clock and memory bandwidths), not measurements: no Ethos-U55 silicon or Arm FVP runs here. They
come from the quantize stage's report of the `<model>_npu` program (`delegate` section,
backends/ethos_u55/aot/lowering.py). The CPU column is the int8 program's instructions per
inference, counted exactly by the same bench (its `<model>_int8` rows), when measured; and the
NPU program's on the boards with that NPU (its `<model>_npu` rows): what the CPU does around the
NPU's run (inputs into the scratch, the driver, outputs out). The machine model gives the NPU's
run no time, so that count is the CPU's share only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NpuRow:
    model: str  # "kws"
    target: str  # "ethos-u55-128"
    npu_cycles: int  # Vela's estimate, all graphs
    clock_hz: int
    macs: int
    sram_bytes: int
    flash_bytes: int
    layers: int
    cpu_operators: int

    @property
    def micros(self) -> float:
        return 1e6 * self.npu_cycles / self.clock_hz if self.clock_hz else 0.0


def npu_row(model: str, quant_report: Path) -> NpuRow:
    """The row of `model` from its NPU program's quantize report."""
    try:
        delegate = json.loads(quant_report.read_text())["delegate"]
        graphs = delegate["graphs"]
        return NpuRow(
            model, str(delegate["target"]),
            sum(int(g["npu_cycles"]) for g in graphs),
            max((int(g.get("npu_clock_hz", 0)) for g in graphs), default=0),
            sum(int(g["macs"]) for g in graphs),
            max((int(g["sram_bytes"]) for g in graphs), default=0),
            sum(int(g["flash_bytes"]) for g in graphs),
            sum(len(g.get("layers", [])) for g in graphs),
            len(delegate["cpu_operators"]),
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SystemExit(f"perf: {quant_report}: no Ethos-U delegate report ({error})") from error


def npu_table(rows: list[NpuRow], cpu: dict[tuple[str, str], int], npu_boards: set[str]) -> str:
    """Markdown: one line per model; `cpu[(program, board)]` = measured instructions: the NPU
    program's on the boards with that NPU (the CPU's part: inputs in, the driver, outputs out),
    the int8 program's on the others."""
    boards = sorted({board for _, board in cpu if board not in npu_boards})
    head = "| Model | NPU | NPU cycles (Vela estimate) | at clock | MACs | MACs/cycle | SRAM | Flash | Ops on CPU |"
    rule = "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    for board in sorted(npu_boards):
        head += f" CPU instructions with the NPU on {board} (measured) |"
        rule += "---:|"
    for board in boards:
        head += f" int8 instructions on {board} (measured) |"
        rule += "---:|"
    lines = [head, rule]
    for r in rows:
        per_cycle = f"{r.macs / r.npu_cycles:.1f}" if r.npu_cycles else "-"
        line = (f"| `{r.model}` | {r.target} | {r.npu_cycles:,} | {r.micros:,.0f} us at {r.clock_hz / 1e6:g} MHz | "
                f"{r.macs:,} | {per_cycle} | {r.sram_bytes:,} B | {r.flash_bytes:,} B | {r.cpu_operators} |")  # fmt: skip
        for board in sorted(npu_boards):
            count = cpu.get((f"{r.model}_npu", board))
            line += f" {count:,} |" if count is not None else " - |"
        for board in boards:
            count = cpu.get((f"{r.model}_int8", board))
            line += f" {count:,} |" if count is not None else " - |"
        lines.append(line)
    return "\n".join(lines)
