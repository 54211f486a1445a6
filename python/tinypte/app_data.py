"""Generate a model firmware's static data: program, golden data, planned buffers, pool.

The inference app (runtime/app) declares these in app_data.h; this writes the matching
C file. Buffer sizes come from the program's memory plan, and the state pool is sized at
compile time with TP_METHOD_POOL_BYTES from counts read out of the .pte, so the firmware's
RAM use is fixed and visible to the size check before anything runs.

Before writing anything it checks that the model can fit the board (--board): the
program against the flash region, and planned arena + state pool + stack against the RAM
region, failing with the numbers; the exact check of the linked image comes later
(tinypte.size), but a model that cannot fit is reported here, naming the model.

usage: tinypte app_data --pte M.pte --golden M.golden.bin --name sine --out-c app_data.c
           [--board B.board.json [--stack-size BYTES]]
           [--corrupt-golden CASE]   (test builds: shift one expected output far off)
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tinypte.errors import TinypteError
from tinypte.golden import Golden
from tinypte.header import c_bytes
from tinypte.inspect_pte import load_program


@dataclass(frozen=True)
class PoolCounts:
    values: int
    tensors: int
    operators: int
    instructions: int
    int_items: int
    double_items: int
    tensor_items: int


def pool_counts(program: Any) -> tuple[PoolCounts, list[int]]:
    """The counts TP_METHOD_POOL_BYTES takes, and the planned buffer sizes, of "forward"."""
    plans = {plan.name: plan for plan in program.execution_plan}
    if "forward" not in plans:
        raise TinypteError(f"the program has no 'forward' method (methods: {sorted(plans)})")
    plan = plans["forward"]
    kinds = [type(value.val).__name__ for value in plan.values]
    items = {kind: 0 for kind in ("IntList", "DoubleList", "TensorList", "OptionalTensorList")}
    for value, kind in zip(plan.values, kinds, strict=True):
        if kind in items:
            items[kind] += len(value.val.items)
    counts = PoolCounts(
        values=len(plan.values),
        tensors=kinds.count("Tensor"),
        operators=len(plan.operators),
        instructions=len(plan.chains[0].instructions),
        int_items=items["IntList"],
        double_items=items["DoubleList"],
        tensor_items=items["TensorList"] + items["OptionalTensorList"],
    )
    return counts, [int(size) for size in plan.non_const_buffer_sizes]


# Bytes per pool entry on the 32-bit targets (runtime/include/tinypte: tp_value, tp_tensor,
# kernel pointer, tp_instruction, int64 item, double item, tensor pointer).
POOL_ENTRY_BYTES_32 = (16, 20, 4, 16, 8, 8, 4)


def pool_bytes_32(counts: PoolCounts) -> int:
    fields = (counts.values, counts.tensors, counts.operators, counts.instructions, counts.int_items,
              counts.double_items, counts.tensor_items)  # fmt: skip
    return sum((n * size + 7) // 8 * 8 for n, size in zip(fields, POOL_ENTRY_BYTES_32, strict=True))


def check_fit(name: str, board: dict[str, Any], pte_bytes: int, golden_bytes: int, counts: PoolCounts,
              buffer_sizes: list[int], stack_size: int) -> None:  # fmt: skip
    """Fail when the model cannot fit the board, before anything is compiled."""
    regions = {region["name"]: int(region["size"]) for region in board["memory"]}
    flash = regions[board["flash_region"]]
    ram = regions[board["ram_region"]]
    arena = sum(buffer_sizes)
    pool = pool_bytes_32(counts)
    stack = stack_size or int(board["stack_size"])
    needed_ram = arena + pool + stack
    problems = []
    if needed_ram > ram:
        problems.append(
            f"RAM: planned arena {arena} B + runtime pool {pool} B + stack {stack} B = {needed_ram} B, "
            f"over the {board['ram_region']} region of {ram} B by {needed_ram - ram} B"
        )
    if pte_bytes + golden_bytes > flash:
        problems.append(
            f"flash: program {pte_bytes} B + golden data {golden_bytes} B = {pte_bytes + golden_bytes} B, "
            f"over the {board['flash_region']} region of {flash} B"
        )
    if problems:
        raise TinypteError(
            f"model {name} does not fit board {board['name']}: " + "; ".join(problems) + ". Make the model smaller "
            "(fewer or narrower layers, smaller inputs), or build it for a board with more memory."
        )


def corrupt(golden_bytes: bytes, case: int) -> bytes:
    """Add 1.0 to the first element of `case`'s first output (for the tolerance-failure test)."""
    golden = Golden.from_bytes(golden_bytes)
    if case >= len(golden.outputs):
        raise TinypteError(f"--corrupt-golden {case}: the golden data has {len(golden.outputs)} cases")
    first = golden.outputs[case][0]
    if first.dtype != np.float32:
        raise TinypteError("--corrupt-golden needs a float32 first output")
    first.flat[0] += np.float32(1.0)
    return golden.to_bytes()


def render(name: str, pte: bytes, golden: bytes, counts: PoolCounts, buffer_sizes: list[int]) -> str:
    buffers = []
    pointers = []
    for memory_id, size in enumerate(buffer_sizes):
        if memory_id == 0 or size == 0:
            pointers.append("0")
            continue
        buffers.append(
            f'static uint8_t buffer_{memory_id}[{size}] __attribute__((aligned(16), section(".bss.tinypte.arena")));\n'
        )
        pointers.append(f"buffer_{memory_id}")
    c = counts
    pool_expr = (
        f"TP_METHOD_POOL_BYTES({c.values}, {c.tensors}, {c.operators}, {c.instructions}, "
        f"{c.int_items}, {c.double_items}, {c.tensor_items})"
    )
    return (
        f"/* Generated by tinypte.app_data for model {name}: do not edit. */\n"
        '#include "app_data.h"\n#include "tinypte/runtime.h"\n\n'
        f'const char tp_app_model_name[] = "{name}";\n\n'
        '__attribute__((aligned(16), section(".rodata.tinypte.model")))\n'
        f"const uint8_t tp_app_program[{len(pte)}] = {{\n{c_bytes(pte)}\n}};\n"
        f"const size_t tp_app_program_size = {len(pte)};\n\n"
        '__attribute__((aligned(8), section(".rodata.tinypte.golden")))\n'
        f"const uint8_t tp_app_golden[{len(golden)}] = {{\n{c_bytes(golden)}\n}};\n"
        f"const size_t tp_app_golden_size = {len(golden)};\n\n"
        f"/* Planned buffers (memory ids 0..{len(buffer_sizes) - 1}; id 0 is never used). */\n"
        + "".join(buffers)
        + f"void *const tp_app_buffers[] = {{{', '.join(pointers)}}};\n"
        f"const size_t tp_app_buffer_sizes[] = {{{', '.join(str(s) for s in buffer_sizes)}}};\n"
        f"const uint32_t tp_app_num_buffers = {len(buffer_sizes)};\n\n"
        "/* Runtime state: values, tensors, kernels, instructions and lists of the program. */\n"
        f"static uint64_t pool[({pool_expr} + 7) / 8] "
        '__attribute__((section(".bss.tinypte.pool")));\n'
        "void *const tp_app_pool = pool;\n"
        "const size_t tp_app_pool_size = sizeof pool;\n"
    )


SUMMARY = "Static data of a model firmware."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pte", type=Path, required=True)
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--name", required=True, help="model name printed by the firmware")
    parser.add_argument("--out-c", type=Path, required=True)
    parser.add_argument("--board", type=Path, help="board description (JSON) to check the model against")
    parser.add_argument("--stack-size", type=int, default=0, help="stack reserve (default: the board's)")
    parser.add_argument("--corrupt-golden", type=int, metavar="CASE", help="test builds only")


def run(args: argparse.Namespace) -> None:
    if not re.fullmatch(r"[A-Za-z0-9_.:/-]+", args.name):
        raise TinypteError(f"--name {args.name!r}: use letters, digits and _.:/- only")
    pte = args.pte.read_bytes()
    counts, buffer_sizes = pool_counts(load_program(args.pte))
    golden = args.golden.read_bytes()
    if args.board:
        board = json.loads(args.board.read_text())
        check_fit(args.name, board, len(pte), len(golden), counts, buffer_sizes, args.stack_size)
    if args.corrupt_golden is not None:
        golden = corrupt(golden, args.corrupt_golden)
    args.out_c.write_text(render(args.name, pte, golden, counts, buffer_sizes))
