"""Generate a model firmware's static data: golden data, planned buffers, state pool, and how the
program's inputs and outputs are quantized (the model API's, runtime/app/model.h).

The inference app (runtime/app) declares these in app_data.h; this writes the matching C
file. The program itself comes from the model's program library (`:<model>_program`, see
tinypte.firmware.header), which the file includes. Buffer and pool sizes come from the model's
requirements JSON, which the runtime computes for the boards' data layout
(//runtime/tools:pte_requirements); the file asserts that layout at compile time, so the
firmware's RAM use is fixed and visible to the size check before anything runs.

Before writing anything it places the model on the board (--board; tinypte.firmware.placement):
stack, state pool and planned buffers in its writable regions by speed, program and golden
data in flash or a region the board's loader writes, and fails naming what fits nowhere,
with each region's numbers; the exact check of the linked image comes later (tinypte.size),
but a model that cannot fit is reported here, naming the model.

usage: tinypte app_data --program-header sine_program.h --program-name sine --requirements R.json
           --golden M.golden.bin --name sine --out-c app_data.c
           [--board B.board.json [--stack-size BYTES] [--pte M.pte]]
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
from tinypte.firmware import io_header, method_image
from tinypte.firmware.header import array_name, c_initializer, size_macro
from tinypte.firmware.placement import Placement, firmware_items, place, problem_messages
from tinypte.firmware.requirements import Requirements, layout_assertions
from tinypte.golden.format import Golden


@dataclass(frozen=True)
class FitProblem:
    """Something of a model that fits no memory region of a board."""

    region: str  # "RAM" or "flash"
    message: str  # with the numbers


def plan_placement(board: dict[str, Any], golden_bytes: int, needs: Requirements, stack_size: int) -> Placement:
    """Where the stack, pool, planned buffers, program and golden data go on `board` (its JSON
    description; tinypte.firmware.placement)."""
    stack = stack_size or int(board["stack_size"])
    return place(board, firmware_items(needs, golden_bytes, stack))


def fit_problems(board: dict[str, Any], golden_bytes: int, needs: Requirements, stack_size: int) -> list[FitProblem]:
    """What of the model fits no region of `board`: RAM for the stack, runtime pool and planned
    buffers, flash for the program and golden data."""
    placement = plan_placement(board, golden_bytes, needs, stack_size)
    return [FitProblem(region, message) for region, message in problem_messages(placement)]


def check_fit(name: str, board: dict[str, Any], golden_bytes: int, needs: Requirements, stack_size: int) -> Placement:
    """The placement of the model on the board; fails when something fits nowhere, before
    anything is compiled."""
    placement = plan_placement(board, golden_bytes, needs, stack_size)
    problems = problem_messages(placement)
    if problems:
        raise TinypteError(
            f"model {name} does not fit board {board['name']}: "
            + "; ".join(message for _, message in problems)
            + ". Make the model smaller (fewer or narrower layers, smaller inputs), or build it for a board with "
            "more memory."
        )
    return placement


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


def _section(placement: Placement | None, key: str, default: str) -> str:
    """The section attribute of item `key`: its region's, or `default` in the board's main regions."""
    placed = placement.section(key) if placement is not None else None
    return placed or default


def render(
    name: str,
    program_header: str,
    program_name: str,
    golden: bytes,
    needs: Requirements,
    placement: Placement | None = None,
    program: bytes | None = None,
) -> str:
    """app_data.c. With a `placement`, each buffer, the pool and the golden data go to their
    regions' sections; a program placed outside flash is embedded here (`program`: its bytes)
    in its region, and the program library's copy in flash is left for the linker to drop."""
    buffers = []
    pointers = []
    for memory_id, size in enumerate(needs.buffer_bytes):
        if memory_id == 0 or size == 0:
            pointers.append("0")
            continue
        section = _section(placement, f"buffer{memory_id}", ".bss.tinypte.arena")
        buffers.append(
            f'static uint8_t buffer_{memory_id}[{size}] __attribute__((aligned(16), section("{section}")));\n'
        )
        pointers.append(f"buffer_{memory_id}")
    layout_checks = layout_assertions(needs.layout, f"the state pool of {name}")
    sizes = ", ".join(str(size) for size in needs.buffer_bytes)
    program_section = placement.section("program") if placement is not None else None
    if program_section is None:
        program_c = (
            f"/* The program, from the model's program library ({program_header}). */\n"
            f"const uint8_t *const tp_app_program = {array_name(program_name)};\n"
        )
    else:
        if program is None or len(program) != needs.program_bytes:
            raise TinypteError(f"the program of {name} goes to {program_section}: app_data needs its bytes (--pte)")
        program_c = (
            f"/* The program, too big for {placement.flash_region if placement else 'flash'}: its bytes, "
            "placed where the board's loader writes them. */\n"
            f'static const uint8_t program[{len(program)}] __attribute__((aligned(16), section("{program_section}"))) =\n'
            f"{c_initializer(program)};\n"
            f'_Static_assert(sizeof program == {size_macro(program_name)}, "{program_header} is another program");\n'
            "const uint8_t *const tp_app_program = program;\n"
        )
    placed = f"/* Placement on the board: {placement.summary()}. */\n" if placement is not None else ""
    if needs.image is not None:
        program_array = "program" if program_section is not None else array_name(program_name)
        buffer_arrays = {memory_id: f"buffer_{memory_id}" for memory_id, size in enumerate(needs.buffer_bytes) if size}
        image_c = method_image.render(needs.image, program_array, buffer_arrays, "forward", size_macro(program_name))
        pool_comment = "the kernel calls and their prepared state (the rest is in the image above)"
    else:
        image_c = (
            f"/* No image: {needs.image_unavailable}. tp_method_init decodes the method into the pool. */\n"
            "tp_status tp_app_method_init(tp_method *method, const tp_program *program, const tp_method_memory *memory) {\n"
            '  return tp_method_init(method, program, "forward", memory, &tp_selected_kernels);\n'
            "}\n"
        )
        pool_comment = "values, tensors, kernels, instructions and lists of the program"
    golden_section = _section(placement, "golden", ".rodata.tinypte.golden")
    return (
        f"/* Generated by tinypte app_data for model {name}: do not edit. */\n"
        '#include <stdalign.h>\n\n#include "app_data.h"\n'
        f'#include "{program_header}"\n#include "tinypte/image.h"\n#include "tinypte/runtime.h"\n\n'
        f"{placed}"
        f'const char tp_app_model_name[] = "{name}";\n\n'
        f"{program_c}"
        f"const size_t tp_app_program_size = {size_macro(program_name)};\n\n"
        + quantization_c(Golden.from_bytes(golden), program_name)
        + f'__attribute__((aligned(8), section("{golden_section}")))\n'
        f"const uint8_t tp_app_golden[{len(golden)}] =\n{c_initializer(golden)};\n"
        f"const size_t tp_app_golden_size = {len(golden)};\n\n"
        f"/* Planned buffers (memory ids 0..{len(needs.buffer_bytes) - 1}; id 0 is never used). */\n"
        + "".join(buffers)
        + f"void *const tp_app_buffers[] = {{{', '.join(pointers)}}};\n"
        f"const size_t tp_app_buffer_sizes[] = {{{sizes}}};\n"
        f"const uint32_t tp_app_num_buffers = {len(needs.buffer_bytes)};\n\n"
        + image_c
        + f"\n/* Runtime state: {pool_comment},\n"
        f" * {needs.firmware_pool_bytes} B as the runtime computed it for this data layout: */\n"
        + layout_checks
        + f'static uint64_t pool[{(needs.firmware_pool_bytes + 7) // 8}] __attribute__((section("{_section(placement, "pool", ".bss.tinypte.pool")}")));\n'
        "void *const tp_app_pool = pool;\n"
        "const size_t tp_app_pool_size = sizeof pool;\n" + worker_scratch_c(needs.worker_scratch_bytes)
    )


def quantization_c(golden: Golden, program_name: str) -> str:
    """`tp_app_quantization[]`: each input's, then each output's quantization, from the program
    header's macros (NAME_INPUT0_SCALE, ... of io_header) where the golden data says it is
    quantized, else all zero (not quantized); the reciprocal as the header's quantize computes it."""
    slots = golden.slots()
    entries = []
    for position, slot in enumerate(slots):
        n_inputs = len(golden.inputs[0])
        kind, index = ("INPUT", position) if position < n_inputs else ("OUTPUT", position - n_inputs)
        if slot.quantization is None:
            entries.append(f"    {{0.0f, 0.0f, 0, 0, 0}}, /* {kind.lower()} {index}: not quantized */\n")
            continue
        macro = f"{program_name.upper()}_{kind}{index}"
        reciprocal = io_header.c_float(float(np.float32(1.0 / float(np.float32(slot.quantization[0])))))
        entries.append(f"    {{{macro}_SCALE, {reciprocal}, {macro}_ZERO_POINT, {macro}_MIN, {macro}_MAX}},\n")
    return (
        f"const uint32_t tp_app_num_inputs = {len(golden.inputs[0])};\n"
        f"const uint32_t tp_app_num_outputs = {len(golden.outputs[0])};\n"
        "/* How each input, then each output, is quantized: real = (q - zero_point) * scale. */\n"
        "const tp_model_quantization tp_app_quantization[] = {\n" + "".join(entries) + "};\n\n"
    )


def worker_scratch_c(size: int) -> str:
    """The second core's scratch, in firmware built for two cores only (TP_BOARD_CORES == 2):
    `size` bytes, the most a call split over two cores needs (at least one word)."""
    words = max(1, (size + 3) // 4)
    return (
        "\n#if TP_BOARD_CORES == 2\n"
        f"/* Scratch of the second core's half of a split call: {size} B, the most any call needs. */\n"
        f'static uint32_t worker_scratch[{words}] __attribute__((section(".bss.tinypte.worker")));\n'
        "void *const tp_app_worker_scratch = worker_scratch;\n"
        "const uint32_t tp_app_worker_scratch_size = sizeof worker_scratch;\n"
        "#endif\n"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--program-header", required=True, help="the model's program header, e.g. sine_program.h")
    parser.add_argument("--program-name", required=True, help="C name of the program (the model's target name)")
    parser.add_argument("--requirements", type=Path, required=True, help="<model>.requirements.json")
    parser.add_argument("--golden", type=Path, required=True)
    parser.add_argument("--name", required=True, help="model name printed by the firmware")
    parser.add_argument("--label", help="the model's Bazel label, which a fit error names (default: --name)")
    parser.add_argument("--out-c", type=Path, required=True)
    parser.add_argument("--board", type=Path, help="board description (JSON) to place the model on")
    parser.add_argument("--pte", type=Path, help="the program's bytes, for a program placed outside flash")
    parser.add_argument("--stack-size", type=int, default=0, help="stack reserve (default: the board's)")
    parser.add_argument("--corrupt-golden", type=int, metavar="CASE", help="test builds only")


def run(args: argparse.Namespace) -> None:
    if not re.fullmatch(r"[A-Za-z0-9_.:/-]+", args.name):
        raise TinypteError(f"--name {args.name!r}: use letters, digits and _.:/- only")
    needs = Requirements.from_json(args.requirements.read_text())
    golden = args.golden.read_bytes()
    placement = None
    if args.board:
        board = json.loads(args.board.read_text())
        placement = check_fit(args.label or args.name, board, len(golden), needs, args.stack_size)
    if args.corrupt_golden is not None:
        golden = corrupt(golden, args.corrupt_golden)
    program = args.pte.read_bytes() if args.pte else None
    args.out_c.write_text(render(args.name, args.program_header, args.program_name, golden, needs, placement, program))
