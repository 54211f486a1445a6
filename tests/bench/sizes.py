"""Flash and RAM of tinypte firmware: the runtime's own budgets, and every board's table.

The runtime core and kernel sizes are measured by linking, at -Os, on the reference board
(REFERENCE_BOARD in platforms/boards.bzl):
    core    = .text(runtime_only, no kernels)   - .text(baseline)
    kernels = .text(runtime_only, sine kernels) - .text(runtime_only, no kernels)
so they include whatever library code each part pulls in. The state pool is the size of
the sine firmware's `pool` symbol (an error when the ELF has none). With --check, exits 1
when a budget is exceeded or when the sine firmware links a kernel the sine program does
not call. --console-cost USB UART compares the sine Pico 2 W firmware with its USB console
(the default) and with the UART console: what USB costs in flash and RAM.

usage: sizes.py --baseline B.size.json --core C.size.json --core-kernels K.size.json
           --sine-elf sine.elf [--console-cost USB.size.json UART.size.json]
           [--firmware F.size.json ...] [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

# The kernels' budget was 2 KiB; relu's check that its in and out share a memory order (it takes
# channels-last tensors, issue 24) costs 32 B of it, and the branches by which addmm and relu take
# every dtype ExecuTorch's kernels take (integer addmm, int8/uint8/int16 relu; the routines are the
# dtype extension's, linked only for programs using them) 192 B: 2 KiB + 256 B. addmm deriving
# its product's description each run instead of keeping 48 B of state per call in the pool (issue
# 26: sine's pool 360 -> 240 B) costs 112 B more: 2 KiB + 384 B. Getting those instructions back
# with the same pool (issue 44: the product's sizes kept in addmm's 8 B of state and filled in
# inline, a single column four k a step by vldm, the 8-column loop tested at its bottom; sine
# 1,633 -> 1,431 instructions) and the one-row loop's share of the float GEMM rework cost 408 B
# (2,416 -> 2,824 B): 2 KiB + 832 B. The two-row loop is an extension sine does not link.
BUDGETS = {"core": 8 * 1024, "kernels": 2 * 1024 + 832, "pool": 1024}
SINE_KERNELS = {"tp_kernel_aten_addmm_out", "tp_kernel_aten_relu_out"}


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def text(size: dict[str, Any]) -> int:
    return int(size["flash"]["sections"].get(".text", 0))


def elf_symbols(elf: Path, kind: str | None = None) -> dict[str, int]:
    """Every symbol of `elf` (of type `kind`, e.g. "STT_OBJECT", if given) with its size."""
    with elf.open("rb") as stream:
        table = ELFFile(stream).get_section_by_name(".symtab")
        if not isinstance(table, SymbolTableSection):
            raise SystemExit(f"{elf}: no symbol table")
        return {
            s.name: int(s["st_size"])
            for s in table.iter_symbols()
            if s.name and (kind is None or s["st_info"]["type"] == kind)
        }


def symbol_size(symbols: dict[str, int], name: str, elf: Path) -> int:
    if name not in symbols:
        raise SystemExit(f"sizes: FAIL {elf} has no symbol {name!r}; where did the state pool go?")
    return symbols[name]


def board_table(paths: list[Path]) -> list[str]:
    lines = [f"  {'firmware':34} {'board':11} {'flash B':>8} {'RAM B':>7}  RAM parts"]
    for path in paths:
        size = load(path)
        ram = size["ram"]
        parts = ", ".join(f"{name.lstrip('.')} {n}" for name, n in sorted(ram["sections"].items()))
        lines.append(f"  {size['firmware']:34} {size['board']:11} {size['flash']['used']:>8} {ram['used']:>7}  {parts}")
    return lines


def console_cost(usb: Path, uart: Path) -> list[str]:
    """The Pico 2 W's USB console against its UART console, same model: what USB costs."""
    with_usb, with_uart = load(usb), load(uart)
    lines = ["what the Pico 2 W's USB console costs (sine; --//platforms/pico2w:console=uart for UART0):",
             f"  {'console':34} {'flash B':>8} {'RAM B':>7}"]  # fmt: skip
    for name, size in (("usb (CDC ACM, the default)", with_usb), ("uart (UART0, GPIO0/1)", with_uart)):
        lines.append(f"  {name:34} {size['flash']['used']:>8} {size['ram']['used']:>7}")
    flash = int(with_usb["flash"]["used"]) - int(with_uart["flash"]["used"])
    ram = int(with_usb["ram"]["used"]) - int(with_uart["ram"]["used"])
    lines.append(f"  {'USB costs':34} {flash:>+8} {ram:>+7}")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--baseline", "--core", "--core-kernels", "--sine-elf"):
        parser.add_argument(flag, type=Path, required=True)
    parser.add_argument("--console-cost", type=Path, nargs=2, metavar=("USB_SIZE_JSON", "UART_SIZE_JSON"))
    parser.add_argument("--firmware", type=Path, nargs="*", default=[])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)

    symbols = elf_symbols(args.sine_elf)
    measured = {
        "core": text(load(args.core)) - text(load(args.baseline)),
        "kernels": text(load(args.core_kernels)) - text(load(args.core)),
        "pool": symbol_size(symbols, "pool", args.sine_elf),
    }
    labels = {
        "core": "runtime core (loader + executor), .text",
        "kernels": "sine's kernels (addmm, relu), .text",
        "pool": "sine's runtime state pool, RAM",
    }
    # Each kernel's registry entry is a `const tp_kernel tp_kernel_<ns>_<name>_<overload>`.
    linked = {name for name in elf_symbols(args.sine_elf, "STT_OBJECT") if name.startswith("tp_kernel_")}
    print(f"tinypte runtime on board {load(args.core)['board']} (-Os), measured by linking:")
    problems = []
    for key, value in measured.items():
        verdict = "ok" if value <= BUDGETS[key] else "OVER"
        print(f"  {labels[key]:42} {value:6} B   budget {BUDGETS[key]:5} B  {verdict}")
        if value > BUDGETS[key]:
            problems.append(f"{labels[key]}: {value} B over the budget of {BUDGETS[key]} B")
    print(f"  kernels linked into the sine firmware: {', '.join(sorted(linked))}")
    if linked != SINE_KERNELS:
        problems.append(f"the sine firmware links kernels {sorted(linked)}, expected exactly {sorted(SINE_KERNELS)}")
    if args.firmware:
        print("firmware per board (flash = text + rodata + data image; RAM = data + bss + stack):")
        print("\n".join(board_table(args.firmware)))
    if args.console_cost:
        print("\n".join(console_cost(*args.console_cost)))
    for problem in problems:
        print(f"sizes: FAIL {problem}")
    return 1 if problems and args.check else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
