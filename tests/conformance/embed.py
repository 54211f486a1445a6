"""Embed the conformance cases of a manifest (from generate.py) in C source for firmware.

cases.h declares `tp_conformance_case` / `tp_conformance_tensor`, the case table and
`TP_CONFORMANCE_ARENA_BYTES`, the memory the largest case needs (state pool plus planned
buffers, as the runtime computes them with --requirements-tool, pte_requirements built for
the boards' data layout); cases.c holds, per case, the .pte bytes (static const, 16-byte
aligned), its inputs and expected outputs (8-byte aligned) and one table entry, and
asserts the data layout the arena was sized for. Files are named relative to the
manifest; the output holds no paths or timestamps, so the same manifest gives the same bytes.

usage: python tests/conformance/embed.py --manifest DIR/manifest.json --requirements-tool TOOL
           --out-c cases.c --out-h cases.h [--only REGEX] [--exclude REGEX] [--shard I/N]
           [--max-flash-bytes N] [--max-arena-bytes N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinypte.errors import TinypteError
from tinypte.firmware.header import c_initializer
from tinypte.firmware.requirements import Requirements, layout_assertions
from tinypte.headers import dtypes

HEADER_BODY = """\
typedef struct tp_conformance_tensor { const uint8_t *data; uint32_t nbytes; uint8_t dtype; \
/* a tp_dtype */ } tp_conformance_tensor;
typedef struct tp_conformance_case {
  const char *name; const uint8_t *pte; uint32_t pte_size;
  const tp_conformance_tensor *inputs; uint32_t num_inputs;
  const tp_conformance_tensor *expected; uint32_t num_outputs;
  float rel_tol; float abs_tol; uint32_t ulps;
} tp_conformance_case;
extern const tp_conformance_case tp_conformance_cases[];
extern const uint32_t tp_conformance_case_count;
"""


class EmbedError(Exception):
    """A manifest or case file that cannot be embedded."""


@dataclass(frozen=True)
class Tensor:
    data: bytes
    dtype: str  # the C enumerator, e.g. TP_DTYPE_FLOAT32


@dataclass(frozen=True)
class Embedded:
    """One case, its bytes read from the manifest's directory."""

    name: str
    pte_path: Path
    pte: bytes
    inputs: list[Tensor]
    outputs: list[Tensor]
    rel_tol: float
    abs_tol: float
    ulps: int  # float32 units in the last place also accepted (libm functions)


# The dtype of an input entry that is not a tensor (a scalar the program holds as a
# constant): the app leaves the program's own value in place (conformance_app.c).
PROGRAM_VALUE = "255"


def read_tensor(directory: Path, record: dict[str, Any], case: str) -> Tensor:
    if "scalar" in record:
        return Tensor(b"", PROGRAM_VALUE)
    try:
        dtype = dtypes.by_name(record["dtype"])
    except TinypteError as error:
        raise EmbedError(f"{case}: {error}") from error
    data = (directory / record["file"]).read_bytes()
    count = 1
    for size in record["shape"]:
        count *= int(size)
    if len(data) != count * dtype.size:
        raise EmbedError(
            f"{case}: {record['file']} holds {len(data)} B, shape {record['shape']} {dtype} needs "
            f"{count * dtype.size} B"
        )
    return Tensor(data, dtype.c_enum)


def read_case(directory: Path, entry: dict[str, Any]) -> Embedded:
    name = entry["name"]
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise EmbedError(f"case name {name!r} is not a C identifier")
    return Embedded(
        name=name,
        pte_path=directory / entry["pte"],
        pte=(directory / entry["pte"]).read_bytes(),
        inputs=[read_tensor(directory, r, name) for r in entry["inputs"]],
        outputs=[read_tensor(directory, r, name) for r in entry["outputs"]],
        rel_tol=float(entry["tolerance"]["rel"]),
        abs_tol=float(entry["tolerance"]["abs"]),
        ulps=int(entry["tolerance"].get("ulps", 0)),
    )


def load(
    manifest: Path, pattern: str | None, shard: tuple[int, int] = (0, 1), exclude: str | None = None
) -> list[Embedded]:
    """The cases matching `pattern` and not `exclude`, and of those every shard[1]-th from
    shard[0] (one firmware's share: the whole suite does not fit the smallest board's flash)."""
    entries = json.loads(manifest.read_text())["cases"]
    chosen = [e for e in entries if pattern is None or re.search(pattern, e["name"])]
    chosen = [e for e in chosen if exclude is None or not re.search(exclude, e["name"])]
    index, count = shard
    chosen = chosen[index::count]
    if not chosen:
        raise EmbedError(f"{manifest.name}: no case matches --only {pattern!r} in shard {index}/{count}")
    return [read_case(manifest.parent, e) for e in chosen]


def check_budget(cases: list[Embedded], memory: Memory, flash: int | None, arena: int | None) -> None:
    """The bytes the cases add to flash (programs, inputs, expected outputs) and the arena they
    need, against the budget the build planned the firmware with (conformance_firmware)."""
    data = sum(len(c.pte) + sum(len(t.data) for t in c.inputs + c.outputs) for c in cases)
    names = ", ".join(c.name for c in cases[:3]) + (", ..." if len(cases) > 3 else "")
    if flash is not None and data > flash:
        raise EmbedError(f"{names}: {data} B of programs and data, over the {flash} B this image was planned "
                         "with (conformance_firmware): more shards, or the biggest cases in large_cases")  # fmt: skip
    if arena is not None and memory.arena_bytes > arena:
        raise EmbedError(f"{names}: the largest case needs a {memory.arena_bytes} B arena, over the {arena} B "
                         "this image was planned with (conformance_firmware): the case belongs in large_cases")  # fmt: skip


def parse_shard(text: str) -> tuple[int, int]:
    """'I/N' -> (I, N), 0 <= I < N."""
    index, _, count = text.partition("/")
    shard = (int(index), int(count))
    if not 0 <= shard[0] < shard[1]:
        raise ValueError(f"--shard {text!r}: expected I/N with 0 <= I < N")
    return shard


def byte_array(name: str, data: bytes, alignment: int) -> str:
    size = max(len(data), 1)  # no bytes: one zero byte, as an empty initializer list gave
    return f"static const uint8_t {name}[{size}] __attribute__((aligned({alignment}))) =\n{c_initializer(data)};\n"


@dataclass(frozen=True)
class Memory:
    """What the firmware must give the cases: the largest case's arena, for this layout."""

    arena_bytes: int
    layout: dict[str, int]


def measure(cases: list[Embedded], tool: Path) -> Memory:
    """Each case's requirements from the runtime (pte_requirements); the largest wins."""
    needs = [Requirements.measure(tool, case.pte_path) for case in cases]
    layouts = {tuple(n.layout.items()) for n in needs}
    if len(layouts) != 1:
        raise EmbedError(f"pte_requirements reported {len(layouts)} different data layouts")
    return Memory(max(n.memory_bytes() for n in needs), needs[0].layout)


def c_float(value: float) -> str:
    return f"{float(value)!r}f"


def tensor_table(name: str, tensors: list[Tensor]) -> tuple[str, str]:
    """(definitions, C expression for the table pointer) of a case's inputs or outputs."""
    if not tensors:
        return "", "NULL"
    arrays, rows = [], []
    for index, tensor in enumerate(tensors):
        data_name = f"{name}{index}"
        if tensor.data:
            arrays.append(byte_array(data_name, tensor.data, 8))
        pointer = data_name if tensor.data else "NULL"
        rows.append(f"  {{ {pointer}, {len(tensor.data)}u, {tensor.dtype} }},")
    table = (
        f"static const tp_conformance_tensor {name}[] __attribute__((aligned(8))) = {{\n" + "\n".join(rows) + "\n};\n"
    )
    return "".join(arrays) + table, name


def case_source(case: Embedded) -> tuple[str, str]:
    """(definitions, table entry) of one case."""
    prefix = f"tp_case_{case.name}"
    inputs, input_table = tensor_table(f"{prefix}_in", case.inputs)
    outputs, output_table = tensor_table(f"{prefix}_expected", case.outputs)
    definitions = f"/* {case.name} */\n" + byte_array(f"{prefix}_pte", case.pte, 16) + inputs + outputs
    entry = (
        f'  {{ "{case.name}", {prefix}_pte, {len(case.pte)}u, {input_table}, {len(case.inputs)}u, '
        f"{output_table}, {len(case.outputs)}u, {c_float(case.rel_tol)}, {c_float(case.abs_tol)}, {case.ulps}u }},"
    )
    return definitions, entry


def render_header(guard: str, memory: Memory) -> str:
    return (
        f"/* Generated by tests/conformance/embed.py: do not edit. */\n#ifndef {guard}\n#define {guard}\n\n"
        f"#include <stdint.h>\n\n{HEADER_BODY}\n"
        "/* Bytes of state pool and planned buffers the largest case needs (each 16-byte aligned). */\n"
        f"#define TP_CONFORMANCE_ARENA_BYTES {memory.arena_bytes}u\n\n#endif /* {guard} */\n"
    )


def render_source(cases: list[Embedded], header_name: str, memory: Memory) -> str:
    parts = [
        f"/* Generated by tests/conformance/embed.py: do not edit. {len(cases)} cases. */\n",
        f'#include "{header_name}"\n\n#include <stdalign.h>\n#include <stddef.h>\n\n#include "tinypte/runtime.h"\n\n',
        layout_assertions(memory.layout, "TP_CONFORMANCE_ARENA_BYTES") + "\n",
    ]
    entries = []
    for case in cases:
        definitions, entry = case_source(case)
        parts.append(definitions + "\n")
        entries.append(entry)
    parts.append(
        "const tp_conformance_case tp_conformance_cases[] __attribute__((aligned(8))) = {\n"
        + "\n".join(entries)
        + "\n};\n\n"
    )
    parts.append(f"const uint32_t tp_conformance_case_count = {len(cases)}u;\n")
    return "".join(parts)


def render(cases: list[Embedded], header_name: str, memory: Memory) -> tuple[str, str]:
    """(cases.h, cases.c) text."""
    guard = re.sub(r"[^A-Za-z0-9]", "_", header_name).upper()
    return render_header(guard, memory), render_source(cases, header_name, memory)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Embed conformance cases in C source.")
    parser.add_argument("--manifest", type=Path, required=True, help="manifest.json written by generate.py")
    parser.add_argument("--requirements-tool", type=Path, required=True, help="pte_requirements for the boards")
    parser.add_argument("--out-c", type=Path, required=True)
    parser.add_argument("--out-h", type=Path, required=True)
    parser.add_argument("--only", help="embed only the cases whose name matches this regular expression")
    parser.add_argument("--shard", default="0/1", help="I/N: embed every N-th case from the I-th (default: all)")
    parser.add_argument("--exclude", help="leave out the cases whose name matches this regular expression")
    parser.add_argument("--max-flash-bytes", type=int, help="fail when the cases' programs and data exceed this")
    parser.add_argument("--max-arena-bytes", type=int, help="fail when the largest case's arena exceeds this")
    parser.add_argument(
        "--subset", action="store_true", help="the cases are a chosen subset: the firmware accepts fewer than MIN_CASES"
    )
    args = parser.parse_args(argv)
    try:
        cases = load(args.manifest, args.only, parse_shard(args.shard), args.exclude)
        memory = measure(cases, args.requirements_tool)
        check_budget(cases, memory, args.max_flash_bytes, args.max_arena_bytes)
        header, source = render(cases, args.out_h.name, memory)
    except (EmbedError, TinypteError, OSError, KeyError, ValueError) as error:
        print(f"error: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    if args.subset:
        header = header.replace(
            "#define TP_CONFORMANCE_ARENA_BYTES", "#define TP_CONFORMANCE_SUBSET 1\n#define TP_CONFORMANCE_ARENA_BYTES"
        )
    args.out_h.write_text(header)
    args.out_c.write_text(source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
