"""`tinypte inspect_pte`: a .pte's operator list and memory plan.

ops.json:  {"model", "operators": [{"name", "overload", "dtypes", "count"}], "extensions",
           "delegates"} — every operator the execution plan calls, the kernel extensions its
           calls need (extensions.py) and the backends its delegate calls go to (selective
           kernel builds read all three).
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
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError
from tinypte.inspect_pte import extensions, macs
from tinypte.program_files import io_quantization
from tinypte.program_files.pte import (
    Program,
    constant_sizes,
    forward_plan,
    is_planned,
    is_tensor,
    load_program,
    tensor_info,
)


def kernel_call_macs(operator: str, call: dict[str, Any], values: list[dict[str, Any]]) -> int:
    """MACs of one KernelCall (see macs.py)."""
    shapes: macs.Shapes = []
    transposed = False
    for arg in call["args"]:
        value = values[arg]
        shapes.append([int(s) for s in value["val"]["sizes"]] if is_tensor(value) else None)
        if value["val_type"] == "Bool" and operator == "aten::convolution":
            transposed = bool(value["val"]["bool_val"])
    try:
        return macs.call_macs(operator, shapes, transposed)
    except (ValueError, IndexError) as error:
        raise TinypteError(f"{operator}: unexpected arguments for counting MACs ({error})") from error


def analyse(program: Program, name: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    plan = forward_plan(program)
    values = plan["values"]
    instructions = plan["chains"][0]["instructions"]
    kernel_calls = [i["instr_args"] for i in instructions if i["instr_args_type"] == "KernelCall"]
    delegates = sorted(
        {delegate_id(plan, i["instr_args"]) for i in instructions if i["instr_args_type"] == "DelegateCall"}
    )

    # Operators: dtypes of the tensor arguments, call counts and MACs.
    counts: Counter[int] = Counter()
    op_macs: Counter[int] = Counter()
    dtypes: dict[int, set[str]] = {}
    needed: set[str] = extensions.for_values(values)
    for call in kernel_calls:
        index = call["op_index"]
        counts[index] += 1
        needed |= extensions.needed(
            plan["operators"][index]["name"], plan["operators"][index]["overload"], call, values
        )
        op_macs[index] += kernel_call_macs(plan["operators"][index]["name"], call, values)
        for arg in call["args"]:
            if is_tensor(values[arg]):
                dtypes.setdefault(index, set()).add(tensor_info(values[arg]["val"])[0])
    operators = [
        {
            "name": op["name"],
            "overload": op["overload"],
            "dtypes": sorted(dtypes.get(i, ())),
            "count": counts[i],
            "macs": op_macs[i],
        }
        for i, op in enumerate(plan["operators"])
    ]
    total_macs = sum(op_macs.values())
    ops: dict[str, Any] = {
        "model": name,
        "macs": total_macs,
        "operators": sorted(operators, key=lambda o: (o["name"], o["overload"])),
        "extensions": sorted(needed),
        # Backends the program delegates to (selective builds link exactly these).
        "delegates": delegates,
    }

    # Planned tensors and their lifetimes.
    uses: dict[int, list[int]] = {}
    for index, instruction in enumerate(instructions):
        for arg in instruction["instr_args"].get("args", []):
            uses.setdefault(arg, []).append(index)
    end = len(instructions)
    tensors = []
    for index, value in enumerate(values):
        if not is_planned(value):
            continue
        dtype, shape, nbytes = tensor_info(value["val"])
        info = value["val"]["allocation_info"]
        used = uses.get(index, [])
        role = "input" if index in plan["inputs"] else "output" if index in plan["outputs"] else "intermediate"
        first = -1 if role == "input" else min(used, default=0)
        last = end if role == "output" else max(used, default=first)
        offset = int(info["memory_offset_low"]) + (int(info["memory_offset_high"]) << 32)
        tensors.append({"evalue": index, "shape": shape, "dtype": dtype, "memory_id": info["memory_id"],
                        "offset": offset, "nbytes": nbytes, "first_use": first, "last_use": last, "role": role})  # fmt: skip
    sizes = [int(s) for s in plan["non_const_buffer_sizes"]]
    for t in tensors:
        if t["memory_id"] >= len(sizes) or t["offset"] + t["nbytes"] > sizes[t["memory_id"]]:
            raise TinypteError(f"{name}: tensor {t['evalue']} lies outside planned buffer {t['memory_id']}")
    bound, bound_pc, bound_operator = call_bound(plan)
    memory_plan = {"non_const_buffer_sizes": sizes, "inputs": list(plan["inputs"]), "outputs": list(plan["outputs"]),
                   "instructions": end, "tensors": tensors,
                   "call_bound": {"bytes": bound, "instruction": bound_pc, "operator": bound_operator}}  # fmt: skip

    params, const_bytes = constant_sizes(program)
    lines = [
        f"{name}: method {plan['name']}, {end} instructions, {len(values)} values",
        f"  parameters: {params} ({const_bytes} B of constants)",
        f"  planned arena: {sum(sizes)} B (per memory id: {sizes}); largest call: {bound} B"
        + (f" (instruction {bound_pc}, {bound_operator})" if bound_pc >= 0 else ""),
        f"  MACs per inference: {total_macs}",
        "  operators: " + ", ".join(f"{o['name']}.{o['overload']} x{o['count']}" for o in ops["operators"]),
        *([f"  delegates to: {', '.join(delegates)}"] if delegates else []),
        *io_lines(program, plan, name),
    ]
    return ops, memory_plan, "\n".join(lines) + "\n"


def delegate_id(plan: dict[str, Any], call: dict[str, Any]) -> str:
    """The backend id of a DelegateCall's delegate."""
    index = int(call.get("delegate_index", 0))
    found = plan.get("delegates") or []
    return str(found[index].get("id", "?")) if index < len(found) else "?"


def call_bound(plan: dict[str, Any]) -> tuple[int, int, str]:
    """The largest sum of one kernel call's planned tensors (inputs, outputs, scratch; tensor-list
    items included, each tensor once): (bytes, instruction index, operator). No arena can be smaller
    while tensors live whole; 0, -1, "" for a program without calls."""
    values = plan["values"]
    best = (0, -1, "")
    for pc, instruction in enumerate(plan["chains"][0]["instructions"]):
        if instruction["instr_args_type"] not in ("KernelCall", "DelegateCall"):
            continue
        call = instruction["instr_args"]
        tensors: set[int] = set()
        for arg in call["args"]:
            value = values[arg]
            items = value["val"].get("items", []) if value["val_type"].endswith("TensorList") else [arg]
            tensors.update(int(i) for i in items if int(i) >= 0 and is_planned(values[int(i)]))
        total = sum(tensor_info(values[i]["val"])[2] for i in tensors)
        if total > best[0] and instruction["instr_args_type"] == "DelegateCall":
            best = (total, pc, f"delegate {delegate_id(plan, call)}")
        elif total > best[0]:
            operator = plan["operators"][call.get("op_index", 0)]
            best = (total, pc, f"{operator['name']}.{operator['overload']}")
    return best


def io_lines(program: Program, plan: dict[str, Any], name: str) -> list[str]:
    """One summary line per input and output: dtype, shape, and how a quantized one is quantized."""
    quantized = io_quantization.from_program_json(program, name)
    lines = []
    for kind, indices in (("input", plan["inputs"]), ("output", plan["outputs"])):
        for number, (index, io) in enumerate(
            zip(indices, io_quantization.by_slot(quantized, kind, len(indices)), strict=True)
        ):
            value = plan["values"][index]
            if not is_tensor(value):
                lines.append(f"  {kind} {number}: {value['val_type']}")
                continue
            dtype, shape, _ = tensor_info(value["val"])
            how = f", quantized: scale {io.scale:.9g}, zero point {io.zero_point}" if io else ""
            lines.append(f"  {kind} {number}: {dtype} {shape}{how}")
    return lines


def quant_summary_lines(report: dict[str, Any]) -> list[str]:
    """The int8-vs-float lines of a model summary, from the quantize stage's report."""
    f, q = report["float"], report["int8"]

    def ratio(key: str) -> str:
        return f"{q[key]} B int8 vs {f[key]} B float ({100 * q[key] / max(f[key], 1):.0f} %)"

    quantizer = "Ethos-U" if "delegate" in report else "Cortex-M"
    lines = [f"  int8 (ExecuTorch {quantizer} quantizer):", f"    constants: {ratio('constant_bytes')}",
             f"    arena: {ratio('arena_bytes')}"]  # fmt: skip
    for metric in sorted(q["metrics"]):
        lines.append(
            f"    {metric}: {q['metrics'][metric]:.6g} int8 vs {f['metrics'].get(metric, float('nan')):.6g} float"
        )
    pipeline = report.get("pipeline", {})
    if pipeline.get("refused"):
        lines.append(f"    pipeline: {pipeline['name']} ({pipeline['refused']})")
    left = report.get("io", {}).get("float", [])
    lines += [f"    float I/O: {why}" for why in left]
    nodes = report["float_nodes"]
    lines.append(f"    nodes left in float32: {len(nodes)}" + ("" if nodes else " (fully quantized)"))
    lines += [f"      {n.get('layer', n['name'])}: {n['operator']}: {n['reason']}" for n in nodes]
    if "delegate" in report:
        lines += delegate_summary_lines(report["delegate"])
    return lines


def delegate_summary_lines(delegate: dict[str, Any]) -> list[str]:
    """Vela's estimates for each NPU graph, per layer, and what stayed on the CPU and why."""
    lines = [f"  {delegate['target']} ({delegate['backend']}; Vela estimates at {delegate['system_config']}, "
             f"{delegate['memory_mode']}; not measured):"]  # fmt: skip
    for number, graph in enumerate(delegate["graphs"]):
        clock = graph.get("npu_clock_hz", 0)
        micros = f", {1e6 * graph['npu_cycles'] / clock:.1f} us at {clock / 1e6:g} MHz" if clock else ""
        lines.append(
            f"    graph {number}: {graph.get('npu_cycles', 0):,} NPU cycles{micros}, {graph.get('macs', 0):,} MACs, "
            f"{graph.get('sram_bytes', 0):,} B SRAM (scratch), {graph.get('flash_bytes', 0):,} B flash (weights, in "
            "the delegate's blob)"
        )
        lines.append(f"      {'layer':<32} {'operator':<18} {'cycles':>9} {'MACs':>10} {'SRAM B':>8} {'MAC util':>8}")
        for layer in graph.get("layers", []):
            lines.append(
                f"      {layer['name'][:32]:<32} {layer['operator'][:18]:<18} {layer['cycles']:>9,} {layer['macs']:>10,} "
                f"{layer['sram_bytes']:>8,} {layer['mac_utilisation']:>7.1f}%"
            )
    cpu = delegate["cpu_operators"]
    lines.append(f"    on the CPU: {len(cpu)} operators" + ("" if cpu else " (the NPU takes the whole model)"))
    lines += [f"      {c['name']}: {c['operator']}: {c['reason']}" for c in cpu]
    return lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pte", type=Path, required=True)
    parser.add_argument("--ops-json", type=Path, required=True)
    parser.add_argument("--plan-json", type=Path, required=True)
    parser.add_argument("--summary", type=Path)
    parser.add_argument("--name", help="model name for messages (default: the .pte file name)")
    parser.add_argument(
        "--quant-report", type=Path, help="int8 models: the quantize stage's report, added to the summary"
    )


def run(args: argparse.Namespace) -> None:
    ops, plan, summary = analyse(load_program(args.pte), args.name or args.pte.name)
    pte_bytes = args.pte.stat().st_size
    summary = summary.replace("\n", f"\n  .pte: {pte_bytes} B\n", 1)
    if args.quant_report:
        report = json.loads(args.quant_report.read_text())
        summary += "\n".join(quant_summary_lines(report)) + "\n"
    args.ops_json.write_text(json.dumps(ops, indent=2) + "\n")
    args.plan_json.write_text(json.dumps(plan, indent=2) + "\n")
    if args.summary:
        args.summary.write_text(summary)
    sys.stdout.write(summary)
