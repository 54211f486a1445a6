"""Run an ExecuTorch Ethos-U delegate blob on the NPU model the way tinypte's runtime does
(weights at BASEP0, a scratch at BASEP1 holding the inputs and outputs at the blob's offsets):
what npu_model_test and compare.py check against tosa_reference_model. It reads the blob with
the toolkit's parser (tinypte.program_files.vela_blob), so it runs in the toolkit's venv; the machine
model (platforms/corstone300_npu) needs only device.py, whose memory the firmware lays out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.aot import vela_blob
from ethos_u55.npu_model import registers as regs
from ethos_u55.npu_model.device import EthosU55
from ethos_u55.npu_model.memory import BusFault


class FlatMemory:
    """A sparse machine memory: byte arrays at base addresses; other addresses fault."""

    def __init__(self) -> None:
        self.areas: list[tuple[int, bytearray]] = []

    def add(self, base: int, data: bytes | bytearray) -> None:
        self.areas.append((base, bytearray(data)))

    def _find(self, address: int, length: int) -> tuple[bytearray, int]:
        for base, area in self.areas:
            if base <= address and address + length <= base + len(area):
                return area, address - base
        raise BusFault(f"no memory at 0x{address:x}..0x{address + length:x}")

    def read(self, address: int, length: int) -> bytes:
        area, start = self._find(address, length)
        return bytes(area[start : start + length])

    def write(self, address: int, data: bytes) -> None:
        area, start = self._find(address, len(data))
        area[start : start + len(data)] = data


# Where run_blob places things in the model's address space (any non-overlapping places do).
COMMAND_BASE, WEIGHT_BASE, SCRATCH_BASE, FAST_SCRATCH_BASE = 0x1000_0000, 0x2000_0000, 0x3000_0000, 0x4000_0000
NPU_REGISTERS = 0x4100_0000


class BlobError(Exception):
    """The blob and the inputs given do not go together, or the NPU stopped with an error."""


def _dtype(element_size: int) -> np.dtype[Any]:
    return np.dtype({1: "<i1", 2: "<i2", 4: "<i4"}[element_size])


def run_blob(
    blob: bytes, inputs: list[NDArray[Any]], macs: int = 128, device: EthosU55 | None = None
) -> list[NDArray[Any]]:
    """Run an ExecuTorch Ethos-U delegate blob on `inputs` as the runtime would: weight_data at
    BASEP0, a zeroed scratch of scratch_size at BASEP1 with each input copied to its offset,
    and return each output (its 6-D shape, int8/int16/int32 by element size) from the scratch."""
    parsed = vela_blob.parse(blob)
    if len(inputs) != len(parsed.inputs):
        raise BlobError(f"blob has {len(parsed.inputs)} inputs, got {len(inputs)}")
    memory = FlatMemory()
    memory.add(COMMAND_BASE, parsed.command_stream)
    memory.add(WEIGHT_BASE, parsed.weight_data)
    scratch = bytearray(parsed.scratch_size)
    for i, (io, value) in enumerate(zip(parsed.inputs, inputs, strict=True)):
        data = np.ascontiguousarray(value).tobytes()
        if io.region != 1:
            raise BlobError(f"input {i} is in region {io.region}; the runtime places I/O in the scratch (region 1)")
        if len(data) != io.nbytes or io.offset + len(data) > len(scratch):
            raise BlobError(
                f"input {i} is {len(data)} bytes; the blob expects {io.nbytes} at scratch offset {io.offset}"
            )
        scratch[io.offset : io.offset + len(data)] = data
    memory.add(SCRATCH_BASE, scratch)
    memory.add(FAST_SCRATCH_BASE, bytearray(0))
    npu = device or EthosU55(memory.read, memory.write, macs)
    npu.write_register(regs.RESET, regs.PENDING_CPL)
    bases = (WEIGHT_BASE, SCRATCH_BASE, FAST_SCRATCH_BASE)
    for region, base in enumerate(bases):
        npu.write_register(regs.BASEP[2 * region], base & 0xFFFFFFFF)
        npu.write_register(regs.BASEP[2 * region + 1], base >> 32)
    npu.write_register(regs.QBASE0, COMMAND_BASE)
    npu.write_register(regs.QBASE1, 0)
    npu.write_register(regs.QSIZE, len(parsed.command_stream))
    npu.write_register(regs.CMD, regs.TRANSITION_TO_RUNNING)
    status = npu.read_register(regs.STATUS)
    if npu.error is not None or not status & regs.CMD_END_REACHED:
        raise BlobError(f"NPU stopped with STATUS 0x{status:08x}: {npu.error}")
    outputs: list[NDArray[Any]] = []
    for io in parsed.outputs:
        if io.region != 1:
            raise BlobError(f"an output is in region {io.region}; the runtime reads I/O from the scratch (region 1)")
        raw = memory.read(SCRATCH_BASE + io.offset, io.nbytes)
        outputs.append(np.frombuffer(raw, dtype=_dtype(io.element_size)).reshape(io.shape).copy())
    return outputs
