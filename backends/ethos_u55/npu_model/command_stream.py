"""Decode an Ethos-U55 command stream (the words the NPU reads from QBASE) into commands.

A word's bits 9:0 are the opcode, bit 14 set makes it a cmd1 (bits 15:14 = payload size 1:
one more word, a 32-bit payload), bits 31:16 its 16-bit parameter; bits 13:10 (and bit 15 of
a cmd0) must be zero (ethos_u55_regs' command_no_payload_t / command_with_payload_t). The
opcodes and their names are Vela's `cmd0`/`cmd1` enums.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ethosu.vela.ethos_u55_regs.ethos_u55_regs import cmd0, cmd1  # type: ignore[import-untyped]

CMD0_NAMES: dict[int, str] = {c.value: c.name for c in cmd0}
CMD1_NAMES: dict[int, str] = {c.value: c.name for c in cmd1}


class CommandStreamError(Exception):
    """A malformed command stream; the message names the word offset."""


@dataclass(frozen=True)
class Command:
    """One decoded command: its word offset in the stream, name, 16-bit parameter and (cmd1) payload."""

    offset: int
    name: str
    param: int
    payload: int | None

    @property
    def is_operation(self) -> bool:
        return self.name.startswith("NPU_OP_")


def decode(stream: bytes) -> list[Command]:
    """Every command of `stream`, up to and including its first NPU_OP_STOP."""
    if len(stream) % 4:
        raise CommandStreamError(f"command stream is {len(stream)} bytes, not whole words")
    words = struct.unpack(f"<{len(stream) // 4}I", stream)
    commands: list[Command] = []
    index = 0
    while index < len(words):
        word = words[index]
        opcode, control, param = word & 0x3FF, (word >> 10) & 0x3F, word >> 16
        if control == 0:
            name = CMD0_NAMES.get(opcode)
            if name is None:
                raise CommandStreamError(f"word {index}: unknown cmd0 opcode 0x{opcode:03x} (0x{word:08x})")
            commands.append(Command(index, name, param, None))
            index += 1
            if name == "NPU_OP_STOP":
                return commands
        elif control == 0x10:
            name = CMD1_NAMES.get(opcode)
            if name is None:
                raise CommandStreamError(f"word {index}: unknown cmd1 opcode 0x{opcode:03x} (0x{word:08x})")
            if index + 1 >= len(words):
                raise CommandStreamError(f"word {index}: {name} has no payload word")
            commands.append(Command(index, name, param, words[index + 1]))
            index += 2
        else:
            raise CommandStreamError(f"word {index}: bad control bits 0x{control:02x} in 0x{word:08x}")
    raise CommandStreamError(f"word {len(words)}: command stream ends without NPU_OP_STOP")
