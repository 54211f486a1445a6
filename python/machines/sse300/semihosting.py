"""Arm semihosting as the firmware's start-up uses it (platforms/common/cortex_m/semihosting.c:
BKPT 0xAB, the operation in r0, its argument in r1, the result back in r0).

Operations (Arm's semihosting specification, 32-bit): SYS_WRITE0 (0x04) prints the
NUL-terminated string at r1 (platforms/common/semihosting_console.c's console); SYS_EXIT
(0x18, r1 the reason) and SYS_EXIT_EXTENDED (0x20, r1 pointing at the reason and the status)
end the run, ADP_Stopped_ApplicationExit (0x20026) with the status (SYS_EXIT: 0), any other
reason with status 1. Any other operation is an error naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

BKPT_SEMIHOSTING = 0xBEAB  # the Thumb encoding of BKPT 0xAB
SYS_WRITE0 = 0x04
SYS_EXIT = 0x18
SYS_EXIT_EXTENDED = 0x20
APPLICATION_EXIT = 0x20026
MAX_STRING = 1 << 16  # a SYS_WRITE0 string longer than this has lost its NUL


class SemihostingError(Exception):
    """A call the model does not implement, or a string without its NUL."""


@dataclass(frozen=True)
class Exit:
    """The firmware asked to stop: its exit status."""

    status: int


def call(op: int, arg: int, read: Callable[[int, int], bytes], write: Callable[[bytes], None]) -> Exit | None:
    """Carry out operation `op` with argument `arg`; `read(address, size)` reads the firmware's
    memory, `write(text)` is the console. Returns Exit when the firmware stops."""
    if op == SYS_WRITE0:
        text = bytearray()
        while b"\0" not in text:
            if len(text) >= MAX_STRING:
                raise SemihostingError(f"SYS_WRITE0 string at 0x{arg:08x} has no NUL in {MAX_STRING} bytes")
            text += read(arg + len(text), 64 - (arg + len(text)) % 64)  # up to the next 64-byte boundary
        write(bytes(text[: text.index(b"\0")]))
        return None
    if op == SYS_EXIT:
        return Exit(0 if arg == APPLICATION_EXIT else 1)
    if op == SYS_EXIT_EXTENDED:
        block = read(arg, 8)
        reason, status = int.from_bytes(block[:4], "little"), int.from_bytes(block[4:], "little", signed=True)
        return Exit(status if reason == APPLICATION_EXIT else 1)
    raise SemihostingError(f"semihosting operation 0x{op:02x} (r1 0x{arg:08x}) is not implemented")
