"""Read a .pte with ExecuTorch's own deserializer; write its operator list and memory plan.

ops.json:  {"model", "operators": [{"name", "overload", "dtypes", "count"}]} — every
           operator the execution plan calls (selective kernel builds read this).
plan.json: {"non_const_buffer_sizes", "inputs", "outputs", "tensors": [{"evalue", "shape",
           "dtype", "memory_id", "offset", "nbytes", "first_use", "last_use", "role"}]} —
           planned tensors with their lifetimes in instruction indices (inputs from -1,
           outputs to the end).
A human summary (parameters, constant bytes, arena bytes, op counts) goes to stdout.

usage: tinypte inspect_pte --pte M.pte --ops-json ops.json --plan-json plan.json
           [--summary summary.txt]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tinypte import dtypes, int8_flow, macs
from tinypte.errors import TinypteError


def load_program(pte: Path) -> Any:
    from executorch.exir._serialize._program import deserialize_pte_binary

    data = pte.read_bytes()
    if len(data) < 8 or data[4:6] != b"ET":
        raise TinypteError(f"{pte}: not an ExecuTorch program (no ET.. identifier at byte 4)")
    try:
        return deserialize_pte_binary(data).program
    except Exception as error:  # a corrupt file is the user's input
        raise TinypteError(f"{pte}: cannot be read as an ExecuTorch program: {error}") from error


def tensor_info(tensor: Any) -> tuple[str, list[int], int]:
    """(dtype name, shape, bytes) of a schema Tensor."""
    dtype = dtypes.by_fbs_name(tensor.scalar_type.name)
    shape = [int(s) for s in tensor.sizes]
    return dtype.name, shape, math.prod(shape) * dtype.size


def kernel_call_macs(operator: str, call: Any, values: Any) -> int:
    """MACs of one KernelCall (see tinypte.macs)."""
    shapes: macs.Shapes = []
    transposed = False
    for arg in call.args:
        value = values[arg].val
        kind = type(value).__name__
        shapes.append([int(s) for s in value.sizes] if kind == "Tensor" else None)
        if kind == "Bool" and operator == "aten::convolution":
            transposed = bool(value.bool_val)
    try:
        return macs.call_macs(operator, shapes, transposed)
    except (ValueError, IndexError) as error:
        raise TinypteError(f"{operator}: unexpected arguments for counting MACs ({error})") from error


def constant_sizes(program: Any) -> tuple[int, int]:
    """(elements, bytes) of the program's constant tensors."""
    values = program.execution_plan[0].values
    constants = [v.val for v in values if type(v.val).__name__ == "Tensor" and v.val.allocation_info is None]
    return sum(math.prod(t.sizes) for t in constants), sum(tensor_info(t)[2] for t in constants)


def analyse(program: Any, name: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    plan = program.execution_plan[0]
    values = plan.values
    instructions = [i.instr_args for i in plan.chains[0].instructions]
    kernel_calls = [i for i in instructions if type(i).__name__ == "KernelCall"]

    # Operators: dtypes of the tensor arguments, call counts and MACs.
    counts: Counter[int] = Counter()
    op_macs: Counter[int] = Counter()
    dtypes: dict[int, set[str]] = {}
    for call in kernel_calls:
        counts[call.op_index] += 1
        op_macs[call.op_index] += kernel_call_macs(plan.operators[call.op_index].name, call, values)
        for arg in call.args:
            if type(values[arg].val).__name__ == "Tensor":
                dtypes.setdefault(call.op_index, set()).add(tensor_info(values[arg].val)[0])
    operators = [
        {
            "name": op.name,
            "overload": op.overload,
            "dtypes": sorted(dtypes.get(i, ())),
            "count": counts[i],
            "macs": op_macs[i],
        }
        for i, op in enumerate(plan.operators)
    ]
    total_macs = sum(op_macs.values())
    ops: dict[str, Any] = {
        "model": name,
        "macs": total_macs,
        "operators": sorted(operators, key=lambda o: (o["name"], o["overload"])),
    }

    # Planned tensors and their lifetimes.
    uses: dict[int, list[int]] = {}
    for index, call in enumerate(instructions):
        for arg in getattr(call, "args", []):
            uses.setdefault(arg, []).append(index)
    end = len(instructions)
    tensors = []
    for index, value in enumerate(values):
        tensor = value.val
        if type(tensor).__name__ != "Tensor" or tensor.allocation_info is None:
            continue
        dtype, shape, nbytes = tensor_info(tensor)
        info = tensor.allocation_info
        used = uses.get(index, [])
        role = "input" if index in plan.inputs else "output" if index in plan.outputs else "intermediate"
        first = -1 if role == "input" else min(used, default=0)
        last = end if role == "output" else max(used, default=first)
        offset = info.memory_offset_low + (info.memory_offset_high << 32)
        tensors.append({"evalue": index, "shape": shape, "dtype": dtype, "memory_id": info.memory_id,
                        "offset": offset, "nbytes": nbytes, "first_use": first, "last_use": last, "role": role})  # fmt: skip
    sizes = [int(s) for s in plan.non_const_buffer_sizes]
    for t in tensors:
        if t["memory_id"] >= len(sizes) or t["offset"] + t["nbytes"] > sizes[t["memory_id"]]:
            raise TinypteError(f"{name}: tensor {t['evalue']} lies outside planned buffer {t['memory_id']}")
    memory_plan = {"non_const_buffer_sizes": sizes, "inputs": list(plan.inputs), "outputs": list(plan.outputs),
                   "instructions": end, "tensors": tensors}  # fmt: skip

    params, const_bytes = constant_sizes(program)
    lines = [
        f"{name}: method {plan.name}, {end} instructions, {len(values)} values",
        f"  parameters: {params} ({const_bytes} B of constants)",
        f"  planned arena: {sum(sizes)} B (per memory id: {sizes})",
        f"  MACs per inference: {total_macs}",
        "  operators: " + ", ".join(f"{o['name']}.{o['overload']} x{o['count']}" for o in ops["operators"]),
    ]
    return ops, memory_plan, "\n".join(lines) + "\n"


SUMMARY = "Operators and memory plan of a .pte."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pte", type=Path, required=True)
    parser.add_argument("--ops-json", type=Path, required=True)
    parser.add_argument("--plan-json", type=Path, required=True)
    parser.add_argument("--summary", type=Path)
    parser.add_argument("--name", help="model name for messages (default: the .pte file name)")
    parser.add_argument("--quant-report", type=Path, help="int8 models: export's report, added to the summary")


def run(args: argparse.Namespace) -> None:
    ops, plan, summary = analyse(load_program(args.pte), args.name or args.pte.name)
    pte_bytes = args.pte.stat().st_size
    summary = summary.replace("\n", f"\n  .pte: {pte_bytes} B\n", 1)
    if args.quant_report:
        report = json.loads(args.quant_report.read_text())
        summary += "\n".join(int8_flow.summary_lines(report)) + "\n"
    args.ops_json.write_text(json.dumps(ops, indent=2) + "\n")
    args.plan_json.write_text(json.dumps(plan, indent=2) + "\n")
    if args.summary:
        args.summary.write_text(summary)
    sys.stdout.write(summary)
