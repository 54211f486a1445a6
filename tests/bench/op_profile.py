"""Instructions per kernel call of one inference: which operator call of a program costs what.

Runs a model firmware under its board's QEMU like function_profile.py (instruction_count.py:
one traced instruction per line) and splits the instructions of the first `tp_method_execute`
call at its kernel calls: each time the PC leaves tp_method_execute's code, until it comes back,
is one call of a kernel's run routine (method.c: `instruction->run(&instruction->call)`), made
in the order of the .pte's KernelCall instructions (the zoo's programs have no control flow,
and MOVE and FREE call nothing). What runs in tp_method_execute itself is the interpreter's.
Prints each call (the plan's instruction index, operator, tensor shapes, MACs as
`tinypte inspect_pte` counts them, instructions, instructions per MAC, share of the total),
the interpreter's line, the total (function_profile's), and a summary per operator.

    bazel build //models/kws:int8_mps2_an505_elf //models/kws:kws_int8.pte
    bazel run //tests/bench:op_profile -- $PWD/bazel-bin/models/kws/int8_mps2_an505_elf.elf \\
        $PWD/bazel-bin/platforms/mps2_an505/mps2_an505.board.json \\
        $PWD/bazel-bin/models/kws/kws_int8.pte [--sort] [--top N]

Shapes: `in` the planned tensors of two or more dimensions the call reads, `w` its first
constant tensor of two or more dimensions (a weight), `out` what it returns (its last
argument); biases, per-channel multipliers and shifts, tables and scratch buffers are left out.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import instruction_count

from machines import execute_count
from machines.qemu import qemu_command
from tinypte.errors import TinypteError
from tinypte.inspect_pte.command import kernel_call_macs
from tinypte.program_files.pte import Program, forward_plan, is_planned, is_tensor, load_program

INTERPRETER = "interpreter"


@dataclass(frozen=True)
class Call:
    """One KernelCall instruction of a program."""

    index: int  # the instruction's index in the plan's chain (plan.json's, the runtime's pc)
    operator: str  # "cortex_m::quantized_conv2d_nhwc"
    shapes: str  # "in [1,25,5,64] w [64,1,1,64] out [1,25,5,64]"
    macs: int


def split_calls(
    addresses: Iterable[int], execute: int, execute_end: int, counter: execute_count.ExecuteCounter
) -> tuple[int, list[int]]:
    """Instructions of the first call of tp_method_execute in `addresses` (its code is
    [execute, execute_end)), stepping `counter` until that call returns: (those executed in
    tp_method_execute itself, those of each excursion out of it, in order)."""
    interpreter = 0
    calls: list[int] = []
    started = inside = False
    for address in addresses:
        counter.step(address)
        if not counter.in_call:
            if started:
                break  # the first call returned
            continue
        started = True
        if execute <= address < execute_end:
            interpreter += 1
            inside = True
        else:
            if inside or not calls:
                calls.append(0)
            calls[-1] += 1
            inside = False
    return interpreter, calls


def _shape(value: dict[str, Any]) -> list[int]:
    return [int(s) for s in value["val"]["sizes"]]


def tensor_shapes(args: list[int], values: list[dict[str, Any]]) -> str:
    """A call's tensors, compactly (see the module's docstring): "in [1,64] w [12,64] out [1,12]"."""
    if not args:
        return ""
    returned = values[args[-1]]
    outs = [int(i) for i in returned["val"]["items"]] if returned["val_type"] == "TensorList" else [args[-1]]
    reads: list[int] = []  # the tensors read, in argument order (a list argument's items in place)
    for index in args[:-1]:
        value = values[index]
        items = [int(i) for i in value["val"]["items"]] if value["val_type"] == "TensorList" else [index]
        reads += [i for i in items if i not in outs and i not in reads and is_tensor(values[i])]
    parts: list[str] = []
    weight = False
    for index in reads:
        value = values[index]
        if len(_shape(value)) < 2:
            continue
        if is_planned(value):
            parts.append("in")
        elif weight:
            continue
        else:
            parts.append("w")
            weight = True
        parts[-1] += " " + format_shape(_shape(value))
    if not any(p.startswith("in ") for p in parts):
        # Inputs of one dimension (or none planned): name the first planned tensor read.
        first = next((i for i in reads if is_planned(values[i])), None)
        if first is not None:
            parts.insert(0, "in " + format_shape(_shape(values[first])))
    parts += ["out " + format_shape(_shape(values[i])) for i in outs if is_tensor(values[i])]
    return " ".join(parts)


def format_shape(shape: list[int]) -> str:
    return "[" + ",".join(str(s) for s in shape) + "]"


def kernel_calls(program: Program) -> list[Call]:
    """The KernelCall instructions of the program's first plan, in order."""
    plan = forward_plan(program)
    values = plan["values"]
    calls = []
    for index, instruction in enumerate(plan["chains"][0]["instructions"]):
        if instruction["instr_args_type"] != "KernelCall":
            continue
        call = instruction["instr_args"]
        operator = str(plan["operators"][call["op_index"]]["name"])
        args = [int(a) for a in call["args"]]
        calls.append(Call(index, operator, tensor_shapes(args, values), kernel_call_macs(operator, call, values)))
    return calls


def _per_mac(instructions: int, macs: int) -> str:
    return f"{instructions / macs:.2f}" if macs else ""


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    """Rows of cells as aligned columns (those in `right` right-aligned)."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if c in right else cell.ljust(w) for c, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def report(
    calls: list[Call], interpreter: int, counts: list[int], sort: bool = False, top: int | None = None
) -> list[str]:
    """The table of calls (`counts[i]` the instructions of `calls[i]`), the interpreter's and
    total lines, and the summary per operator."""
    total = interpreter + sum(counts)
    macs = sum(c.macs for c in calls)

    def percent(instructions: int) -> str:
        return f"{100 * instructions / total:.1f} %" if total else ""

    order = list(zip(calls, counts, strict=True))
    if sort:
        order.sort(key=lambda pair: -pair[1])
    listed = order if top is None else order[:top]
    rows = [["#", "operator", "shapes", "MACs", "instructions", "instr/MAC", "%"]]
    for call, count in listed:
        rows.append([str(call.index), call.operator, call.shapes, str(call.macs), str(count),
                     _per_mac(count, call.macs), percent(count)])  # fmt: skip
    if len(listed) < len(order):
        rows.append(["", f"({len(order) - len(listed)} more calls)", "", "", "", "", ""])
    rows.append(["", INTERPRETER, "", "", str(interpreter), "", percent(interpreter)])
    rows.append(
        ["", "total", f"{len(calls)} kernel calls", str(macs), str(total), _per_mac(total, macs), percent(total)]
    )
    lines = _table(rows, right={0, 3, 4, 5, 6})

    operators: dict[str, list[int]] = {}  # operator: [calls, MACs, instructions]
    for call, count in zip(calls, counts, strict=True):
        sums = operators.setdefault(call.operator, [0, 0, 0])
        sums[0] += 1
        sums[1] += call.macs
        sums[2] += count
    summary = [["operator", "calls", "MACs", "instructions", "instr/MAC", "%"]]
    for operator, (n, op_macs, instructions) in sorted(operators.items(), key=lambda item: -item[1][2]):
        summary.append([operator, str(n), str(op_macs), str(instructions), _per_mac(instructions, op_macs),
                        percent(instructions)])  # fmt: skip
    return [*lines, "", "per operator:", *_table(summary, right={1, 2, 3, 4, 5})]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("elf", type=Path, help="a model firmware ELF (absolute path under bazel run)")
    parser.add_argument("board_json", type=Path, help="its board's <board>.board.json")
    parser.add_argument("pte", type=Path, help="the .pte of the program the firmware runs")
    parser.add_argument("--sort", action="store_true", help="list calls by instructions, most first")
    parser.add_argument("--top", type=int, default=None, help="calls to list (default: all)")
    args = parser.parse_args(argv)
    try:
        calls = kernel_calls(load_program(args.pte))
    except TinypteError as error:
        print(f"op_profile: {error}", file=sys.stderr)
        return 1
    emulator = json.loads(args.board_json.read_text())["emulator"]
    firmware = execute_count.Firmware(args.elf)
    counter = execute_count.ExecuteCounter(firmware, wanted=1)
    # Nothing else holds the trace: it is dropped as split_calls returns, which stops QEMU (the
    # generator's finally), as function_profile's loop does.
    command = qemu_command(emulator, args.elf)
    interpreter, counts = split_calls(
        instruction_count.trace_addresses(command), firmware.execute, firmware.execute_end, counter
    )
    if not counter.counts:
        what = "ended inside the first" if interpreter else "has no"
        print(f"op_profile: the trace of {args.elf} {what} tp_method_execute call", file=sys.stderr)
        return 1
    (execute,) = counter.counts
    if execute.instructions != interpreter + sum(counts) or execute.kernel_calls != len(counts):
        print(f"op_profile: split {interpreter} + {sum(counts)} instructions into {len(counts)} calls, but the "
              f"counter counted {execute.instructions} in {execute.kernel_calls} calls", file=sys.stderr)  # fmt: skip
        return 1
    if len(counts) != len(calls):
        print(f"op_profile: {args.elf.name} made {len(counts)} calls out of tp_method_execute, but {args.pte.name} "
              f"has {len(calls)} KernelCall instructions: cannot tell which call is which (control flow, a MOVE "
              "that calls a function, or an ELF of another program?)", file=sys.stderr)  # fmt: skip
        return 1
    print(
        f"op_profile: {args.elf.name} running {args.pte.name}: {interpreter + sum(counts)} instructions in one inference"
    )
    for line in report(calls, interpreter, counts, sort=args.sort, top=args.top):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
