"""Parse the processed blob of ExecuTorch's Ethos-U delegate (`EthosUBackend`).

The Arm backend (executorch/backends/arm/arm_vela.py, read by the runtime's VelaBinStream.cpp)
writes Vela's output as named blocks: a 32-byte header (16-byte NUL-padded name, u32
little-endian data length, a u8 flag that is 1 when the data is only a sha256 key of named data
held outside the blob, 11 reserved bytes), then the data padded to 16 bytes. The blocks are
`vela_bin_stream` (empty, first), `cmd_data`, `weight_data`, `scratch_size` (u32), `inputs`,
`outputs` and `vela_end_stream` (empty, last).

`cmd_data` is Vela's driver payload (ethosu/vela/driver_actions.py): the fourcc "COP1", a
CONFIG action (tag word, the NPU's CONFIG register value Vela compiled for, its ID register
value), NOPs to align, and a COMMAND_STREAM action whose tag carries the stream's length in
words; the NPU's command stream follows. `inputs`/`outputs` are an i32 count, then per
tensor nine i32: a 6-D shape, the element size, the byte offset and the region (base pointer
index) of the tensor. The runtime (EthosUBackend_Cortex_M.cpp) sets BASEP0 = weight_data,
BASEP1 = the scratch buffer (scratch_size bytes, inputs and outputs at their offsets in it),
BASEP2 = the fast scratch.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from tinypte.errors import TinypteError

_HEADER = struct.Struct("<16sIB11s")
_ALIGN = 16
_FIRST, _LAST = "vela_bin_stream", "vela_end_stream"
_REQUIRED = ("cmd_data", "weight_data", "scratch_size", "inputs", "outputs")
_COP1 = 0x31504F43
_ACTION_CONFIG, _ACTION_CMD_STREAM, _ACTION_NOP = 0x01, 0x02, 0x05
_SHAPE_DIMS = 6
_IO = struct.Struct("<9i")


@dataclass(frozen=True)
class Block:
    """A named block; `external` when `data` is the ASCII sha256 key of named data elsewhere."""

    name: str
    data: bytes
    external: bool


@dataclass(frozen=True)
class TensorIO:
    """An input or output: its 6-D shape, element size, offset in its region, and region."""

    shape: tuple[int, ...]
    element_size: int
    offset: int
    region: int

    @property
    def nbytes(self) -> int:
        size = self.element_size
        for dim in self.shape:
            size *= dim
        return size


@dataclass(frozen=True)
class CommandPayload:
    """Vela's driver payload: the NPU CONFIG and ID values it was compiled for, and the command
    stream (its byte offset in `cmd_data`, and its bytes)."""

    config: int
    npu_id: int
    stream_offset: int
    stream: bytes


@dataclass(frozen=True)
class VelaBlob:
    """The parsed blob: every block in order, and what the runtime takes from them."""

    blocks: tuple[Block, ...]
    cmd_data: bytes
    weight_data: bytes
    scratch_size: int
    inputs: tuple[TensorIO, ...]
    outputs: tuple[TensorIO, ...]
    payload: CommandPayload

    @property
    def command_stream(self) -> bytes:
        return self.payload.stream


def _blocks(blob: bytes) -> list[Block]:
    blocks: list[Block] = []
    offset = 0
    while offset < len(blob):
        if offset + _HEADER.size > len(blob):
            raise TinypteError(f"Ethos-U blob: truncated block header at byte {offset}")
        raw_name, length, flag, _ = _HEADER.unpack_from(blob, offset)
        name_bytes = raw_name.split(b"\0", 1)[0]
        try:
            name = name_bytes.decode("ascii")
        except UnicodeDecodeError:
            raise TinypteError(f"Ethos-U blob: block name at byte {offset} is not ASCII") from None
        start = offset + _HEADER.size
        if start + length > len(blob):
            raise TinypteError(f"Ethos-U blob: block {name!r} at byte {offset} overruns the blob ({length} bytes)")
        if flag not in (0, 1):
            raise TinypteError(f"Ethos-U blob: block {name!r} has an unknown flag {flag}")
        blocks.append(Block(name, bytes(blob[start : start + length]), flag == 1))
        offset = start + (length + _ALIGN - 1) // _ALIGN * _ALIGN
        if name == _LAST:
            if offset != len(blob):
                raise TinypteError(f"Ethos-U blob: {len(blob) - offset} bytes follow the {_LAST} block")
            break
    return blocks


def _ios(block: Block) -> tuple[TensorIO, ...]:
    data = block.data
    if len(data) < 4:
        raise TinypteError(f"Ethos-U blob: block {block.name!r} has no tensor count")
    (count,) = struct.unpack_from("<i", data)
    if count < 0 or len(data) != 4 + count * _IO.size:
        raise TinypteError(f"Ethos-U blob: block {block.name!r} is {len(data)} bytes for {count} tensors")
    ios: list[TensorIO] = []
    for i in range(count):
        fields = _IO.unpack_from(data, 4 + i * _IO.size)
        shape, (element_size, offset, region) = fields[:_SHAPE_DIMS], fields[_SHAPE_DIMS:]
        if element_size not in (1, 2, 4) or offset < 0 or min(shape) < 0 or not 0 <= region < 8:
            raise TinypteError(f"Ethos-U blob: {block.name} tensor {i} has a bad descriptor {fields}")
        ios.append(TensorIO(tuple(shape), element_size, offset, region))
    return tuple(ios)


def _payload(cmd_data: bytes) -> CommandPayload:
    if len(cmd_data) % 4:
        raise TinypteError(f"Ethos-U blob: cmd_data is {len(cmd_data)} bytes, not whole words")
    words = struct.unpack(f"<{len(cmd_data) // 4}I", cmd_data)
    if not words or words[0] != _COP1:
        raise TinypteError("Ethos-U blob: cmd_data does not start with the COP1 fourcc")
    config = npu_id = -1
    index = 1
    while index < len(words):
        tag = words[index]
        action, param = tag & 0xFF, tag >> 16
        if action == _ACTION_CONFIG:
            if index + 2 >= len(words):
                raise TinypteError(f"Ethos-U blob: cmd_data's CONFIG action at word {index} is truncated")
            config, npu_id = words[index + 1], words[index + 2]
            index += 3
        elif action == _ACTION_NOP:
            index += 1
        elif action == _ACTION_CMD_STREAM:
            length = ((tag >> 8) & 0xFF) << 16 | param
            start = index + 1
            if start + length > len(words):
                raise TinypteError(
                    f"Ethos-U blob: command stream at word {start} is {length} words, cmd_data has {len(words) - start}"
                )
            if config < 0:
                raise TinypteError("Ethos-U blob: cmd_data has no CONFIG action before its command stream")
            return CommandPayload(config, npu_id, start * 4, cmd_data[start * 4 : (start + length) * 4])
        else:
            raise TinypteError(f"Ethos-U blob: cmd_data word {index} is an unknown driver action 0x{tag:08x}")
    raise TinypteError("Ethos-U blob: cmd_data has no command stream")


def parse(blob: bytes) -> VelaBlob:
    """The blob's blocks and contents; a TinypteError names what is malformed."""
    blocks = _blocks(blob)
    if not blocks or blocks[0].name != _FIRST:
        raise TinypteError(f"Ethos-U blob: does not start with a {_FIRST} block")
    if blocks[-1].name != _LAST:
        raise TinypteError(f"Ethos-U blob: does not end with a {_LAST} block")
    by_name: dict[str, Block] = {}
    for block in blocks:
        if block.name in by_name:
            raise TinypteError(f"Ethos-U blob: block {block.name!r} appears twice")
        by_name[block.name] = block
    for name in _REQUIRED:
        if name not in by_name:
            raise TinypteError(f"Ethos-U blob: no {name} block")
    for name in ("scratch_size", "inputs", "outputs"):
        if by_name[name].external:
            raise TinypteError(f"Ethos-U blob: block {name} cannot be external")
    for name in ("cmd_data", "weight_data"):
        if by_name[name].external:
            key = by_name[name].data.decode("ascii", "replace")
            raise TinypteError(f"Ethos-U blob: {name} is external named data (key {key}); lower it inline")
    scratch = by_name["scratch_size"].data
    if len(scratch) != 4:
        raise TinypteError(f"Ethos-U blob: scratch_size block is {len(scratch)} bytes, not 4")
    cmd_data = by_name["cmd_data"].data
    return VelaBlob(
        blocks=tuple(blocks),
        cmd_data=cmd_data,
        weight_data=by_name["weight_data"].data,
        scratch_size=struct.unpack("<I", scratch)[0],
        inputs=_ios(by_name["inputs"]),
        outputs=_ios(by_name["outputs"]),
        payload=_payload(cmd_data),
    )
