"""Generate a model firmware's static data: golden data, planned buffers, state pool.

The inference app (runtime/app) declares these in app_data.h; this writes the matching C
file. The program itself comes from the model's program library (`:<model>_program`, see
tinypte.firmware.header), which the file includes. Buffer and pool sizes come from the model's
requirements JSON, which the runtime computes for the boards' data layout
(//runtime/tools:pte_requirements); the file asserts that layout at compile time, so the
firmware's RAM use is fixed and visible to the size check before anything runs.

Before writing anything it checks that the model can fit the board (--board): the
program against the flash region, and planned arena + state pool + stack against the RAM
region, failing with the numbers; the exact check of the linked image comes later
(tinypte.size), but a model that cannot fit is reported here, naming the model.

usage: tinypte app_data --program-header sine_program.h --program-name sine --requirements R.json
           --golden M.golden.bin --name sine --out-c app_data.c
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
from tinypte.firmware.header import array_name, c_bytes, size_macro
from tinypte.firmware.requirements import Requirements, layout_assertions
from tinypte.golden.format import Golden


@dataclass(frozen=True)
class FitProblem:
    """A memory region a model does not fit."""

    region: str  # "RAM" or "flash"
    message: str  # with the numbers


def fit_problems(board: dict[str, Any], golden_bytes: int, needs: Requirements, stack_size: int) -> list[FitProblem]:
    """The regions of `board` (its JSON description) the model does not fit: RAM for the
    planned arena, the runtime pool and the stack, flash for the program and golden data."""
    regions = {region["name"]: int(region["size"]) for region in board["memory"]}
    flash = regions[board["flash_region"]]
    ram = regions[board["ram_region"]]
    arena = sum(needs.buffer_bytes)
    pool = needs.pool_bytes
    pte_bytes = needs.program_bytes
    stack = stack_size or int(board["stack_size"])
    needed_ram = arena + pool + stack
    problems = []
    if needed_ram > ram:
        problems.append(FitProblem("RAM",
            f"RAM: planned arena {arena} B + runtime pool {pool} B + stack {stack} B = {needed_ram} B, "
            f"over the {board['ram_region']} region of {ram} B by {needed_ram - ram} B"
        ))  # fmt: skip
    if pte_bytes + golden_bytes > flash:
        problems.append(FitProblem("flash",
            f"flash: program {pte_bytes} B + golden data {golden_bytes} B = {pte_bytes + golden_bytes} B, "
            f"over the {board['flash_region']} region of {flash} B"
        ))  # fmt: skip
    return problems


def check_fit(name: str, board: dict[str, Any], golden_bytes: int, needs: Requirements, stack_size: int) -> None:
    """Fail when the model cannot fit the board, before anything is compiled."""
    problems = fit_problems(board, golden_bytes, needs, stack_size)
    if problems:
        raise TinypteError(
            f"model {name} does not fit board {board['name']}: "
            + "; ".join(p.message for p in problems)
            + ". Make the model smaller (fewer or narrower layers, smaller inputs), or build it for a board with "
            "more memory."
        )


def corrupt(golden_bytes: bytes, case: int) -> bytes:
    """Shift the first element of `case`'s first output (for the tests that the firmware fails on
    a wrong output): by 1.0 when it is float32, by one step (+1, or -1 at the top of the range)
    when it is an int8 program's quantized output."""
    golden = Golden.from_bytes(golden_bytes)
    if case >= len(golden.outputs):
        raise TinypteError(f"--corrupt-golden {case}: the golden data has {len(golden.outputs)} cases")
    first = golden.outputs[case][0]
    if first.dtype == np.float32:
        first.flat[0] += np.float32(1.0)
    elif first.dtype == np.int8:
        first.flat[0] += np.int8(1 if first.flat[0] < 127 else -1)
    else:
        raise TinypteError(f"--corrupt-golden needs a float32 or int8 first output, not {first.dtype}")
    return golden.to_bytes()


def render(name: str, program_header: str, program_name: str, golden: bytes, needs: Requirements) -> str:
    buffers = []
    pointers = []
    for memory_id, size in enumerate(needs.buffer_bytes):
        if memory_id == 0 or size == 0:
            pointers.append("0")
            continue
        buffers.append(
            f'static uint8_t buffer_{memory_id}[{size}] __attribute__((aligned(16), section(".bss.tinypte.arena")));\n'
        )
        pointers.append(f"buffer_{memory_id}")
    layout_checks = layout_assertions(needs.layout, f"the state pool of {name}")
    sizes = ", ".join(str(size) for size in needs.buffer_bytes)
    return (
        f"/* Generated by tinypte app_data for model {name}: do not edit. */\n"
        '#include <stdalign.h>\n\n#include "app_data.h"\n'
        f'#include "{program_header}"\n#include "tinypte/runtime.h"\n\n'
        f'const char tp_app_model_name[] = "{name}";\n\n'
        f"/* The program, from the model's program library ({program_header}). */\n"
        f"const uint8_t *const tp_app_program = {array_name(program_name)};\n"
        f"const size_t tp_app_program_size = {size_macro(program_name)};\n\n"
        '__attribute__((aligned(8), section(".rodata.tinypte.golden")))\n'
        f"const uint8_t tp_app_golden[{len(golden)}] = {{\n{c_bytes(golden)}\n}};\n"
        f"const size_t tp_app_golden_size = {len(golden)};\n\n"
        f"/* Planned buffers (memory ids 0..{len(needs.buffer_bytes) - 1}; id 0 is never used). */\n"
        + "".join(buffers)
        + f"void *const tp_app_buffers[] = {{{', '.join(pointers)}}};\n"
        f"const size_t tp_app_buffer_sizes[] = {{{sizes}}};\n"
        f"const uint32_t tp_app_num_buffers = {len(needs.buffer_bytes)};\n\n"
        "/* Runtime state: values, tensors, kernels, instructions and lists of the program,\n"
        f" * {needs.pool_bytes} B as the runtime computed it for this data layout: */\n"
        + layout_checks
        + f'static uint64_t pool[{(needs.pool_bytes + 7) // 8}] __attribute__((section(".bss.tinypte.pool")));\n'
        "void *const tp_app_pool = pool;\n"
        "const size_t tp_app_pool_size = sizeof pool;\n"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--program-header", required=True, help="the model's program header, e.g. sine_program.h")
    parser.add_argument("--program-name", required=True, help="C name of the program (the model's target name)")
    parser.add_argument("--requirements", type=Path, required=True, help="<model>.requirements.json")
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--name", required=True, help="model name printed by the firmware")
    parser.add_argument("--out-c", type=Path, required=True)
    parser.add_argument("--board", type=Path, help="board description (JSON) to check the model against")
    parser.add_argument("--stack-size", type=int, default=0, help="stack reserve (default: the board's)")
    parser.add_argument("--corrupt-golden", type=int, metavar="CASE", help="test builds only")


def run(args: argparse.Namespace) -> None:
    if not re.fullmatch(r"[A-Za-z0-9_.:/-]+", args.name):
        raise TinypteError(f"--name {args.name!r}: use letters, digits and _.:/- only")
    needs = Requirements.from_json(args.requirements.read_text())
    golden = args.golden.read_bytes()
    if args.board:
        board = json.loads(args.board.read_text())
        check_fit(args.name, board, len(golden), needs, args.stack_size)
    if args.corrupt_golden is not None:
        golden = corrupt(golden, args.corrupt_golden)
    args.out_c.write_text(render(args.name, args.program_header, args.program_name, golden, needs))
