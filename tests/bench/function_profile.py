"""Instructions per function of one inference: where a firmware's time goes, exactly.

Runs a model firmware under its board's QEMU like the perf bench (instruction_count.py: one
traced instruction per line), and attributes each instruction executed inside the first
`tp_method_execute` to the ELF function whose address range holds it (inlined code counts
for the function it was inlined into). Prints the total and the busiest functions.

    bazel build //models/digits:int8_mps2_an505_elf
    bazel run //tests/bench:function_profile -- $PWD/bazel-bin/models/digits/int8_mps2_an505_elf.elf \\
        $PWD/bazel-bin/platforms/mps2_an505/mps2_an505.board.json [--top 25]
"""

from __future__ import annotations

import argparse
import bisect
import json
import sys
from collections import Counter
from pathlib import Path

import instruction_count
from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

from machines import execute_count
from machines.qemu import qemu_command


def functions(elf: Path) -> list[tuple[int, int, str]]:
    """(start address, size, name) of the ELF's functions, by address (Thumb bit cleared)."""
    found = []
    with elf.open("rb") as f:
        symbols = ELFFile(f).get_section_by_name(".symtab")
        if not isinstance(symbols, SymbolTableSection):
            raise ValueError(f"{elf}: no symbol table")
        for s in symbols.iter_symbols():
            if s["st_info"]["type"] == "STT_FUNC" and s["st_size"] > 0:
                found.append((int(s["st_value"]) & ~1, int(s["st_size"]), str(s.name)))
    return sorted(found)


def profile(elf: Path, emulator: dict[str, object]) -> Counter[str]:
    """Instructions of the first inference, per function."""
    table = functions(elf)
    starts = [start for start, _, _ in table]
    counter = execute_count.ExecuteCounter(execute_count.Firmware(elf), wanted=1)
    counts: Counter[str] = Counter()
    for address in instruction_count.trace_addresses(qemu_command(emulator, elf)):
        counter.step(address)
        if counter.done:
            break
        if counter.in_call:
            i = bisect.bisect_right(starts, address) - 1
            start, size, name = table[i] if i >= 0 else (0, 0, "?")
            counts[name if start <= address < start + size else hex(address)] += 1
    return counts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("elf", type=Path, help="a model firmware ELF (absolute path under bazel run)")
    parser.add_argument("board_json", type=Path, help="its board's <board>.board.json")
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    args = parser.parse_args(argv)
    emulator = json.loads(args.board_json.read_text())["emulator"]
    counts = profile(args.elf, emulator)
    total = sum(counts.values())
    if total == 0:
        print(f"function_profile: no tp_method_execute call traced in {args.elf}")
        return 1
    print(f"function_profile: {args.elf.name}: {total} instructions in one inference")
    for name, count in counts.most_common(args.top):
        print(f"{count:10d} {100 * count / total:5.1f} %  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
