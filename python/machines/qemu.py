"""The QEMU command line of a board: the machines QEMU has, beside the ones modelled here.

A board's description (`emulator` in <board>.board.json: system, machine, cpu, args) gives the
command that runs a firmware ELF with its console on semihosting (QEMU writes it to standard error
when that is not a terminal, and reads the console's input from standard input). The stack
measurement (models/stacks.py), the perf bench's traces (tests/bench/instruction_count.py) and the
stream host (tools/stream.py) all start QEMU with it; rules/private/qemu_runner.sh is the shell twin
the tests run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

# What QEMU's -icount gives with these: one virtual nanosecond per guest instruction, so the
# firmware's timers count instructions, whatever the host's load.
ICOUNT = ["-icount", "shift=0,align=off,sleep=off"]


def qemu_command(emulator: Mapping[str, object], elf: Path | str, icount: bool = False) -> list[str]:
    """The command that runs `elf` under the board's QEMU (`icount`: timers count instructions)."""
    extra = emulator.get("args") or []
    assert isinstance(extra, list)
    return [f"qemu-system-{emulator['system']}", "-M", str(emulator["machine"]), "-cpu", str(emulator["cpu"]),
            *[str(a) for a in extra], *(ICOUNT if icount else []), "-nographic", "-monitor", "none",
            "-serial", "none", "-semihosting-config", "enable=on,target=native", "-kernel", str(elf)]  # fmt: skip
