"""The golden data format: a model's inputs over its domain and the reference outputs for them.

Binary layout (all little-endian, described once by `Golden`; firmware parses it without
malloc):
    magic b"TPGD", u32 version (2), u32 cases, u32 inputs, u32 outputs, f32 tolerance
    for each input slot, then each output slot: u32 dtype (ExecuTorch ScalarType code),
        u32 ndim, u32 dims[ndim], u32 nbytes, f32 scale, i32 zero_point (a quantized slot's
        real = (q - zero_point) * scale; scale 0 for a slot that is not quantized)
    for each case: the raw bytes of each input tensor, then of each output tensor,
        each padded to a multiple of 4 bytes

The golden stage (command.py) writes it; firmware, app data, benches and tests read it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from tinypte.errors import TinypteError
from tinypte.headers import dtypes


@dataclass(frozen=True)
class Slot:
    """Shape and dtype of one input or output (the same in every case)."""

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    quantization: tuple[float, int] | None = None  # (scale, zero point) of a quantized slot

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


@dataclass
class Golden:
    """Golden cases: `inputs[c][i]` and `outputs[c][o]` arrays, and the tolerance."""

    MAGIC: ClassVar[bytes] = b"TPGD"
    VERSION: ClassVar[int] = 2
    tolerance: float
    inputs: list[list[npt.NDArray[Any]]] = field(default_factory=list)
    outputs: list[list[npt.NDArray[Any]]] = field(default_factory=list)
    # (scale, zero point) of each quantized slot, inputs then outputs; empty: none is
    quantization: list[tuple[float, int] | None] = field(default_factory=list)

    def slots(self) -> list[Slot]:
        first = self.inputs[0] + self.outputs[0]
        quantization = self.quantization or [None] * len(first)
        if len(quantization) != len(first):
            raise TinypteError(f"golden data: {len(quantization)} quantizations for {len(first)} slots")
        return [Slot(a.dtype, tuple(a.shape), q) for a, q in zip(first, quantization, strict=True)]

    def to_bytes(self) -> bytes:
        if not self.inputs:
            raise TinypteError("golden data needs at least one case")
        slots = self.slots()
        out = bytearray(self.MAGIC)
        out += struct.pack(
            "<4If", self.VERSION, len(self.inputs), len(self.inputs[0]), len(self.outputs[0]), self.tolerance
        )
        for slot in slots:
            scalar_type = dtypes.by_numpy(slot.dtype).scalar_type
            scale, zero_point = slot.quantization or (0.0, 0)
            out += struct.pack(f"<2I{len(slot.shape)}II", scalar_type, len(slot.shape), *slot.shape, slot.nbytes)
            out += struct.pack("<fi", scale, zero_point)
        for case_in, case_out in zip(self.inputs, self.outputs, strict=True):
            for array, slot in zip(case_in + case_out, slots, strict=True):
                if array.dtype != slot.dtype or tuple(array.shape) != slot.shape:
                    raise TinypteError(
                        f"golden data: every case must match the first ({slot}), got {array.dtype}{array.shape}"
                    )
                raw = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
                out += raw + bytes(-len(raw) % 4)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data: bytes) -> Golden:
        if data[:4] != cls.MAGIC:
            raise TinypteError(f"not golden data: magic {data[:4]!r}, expected {cls.MAGIC!r}")
        version, cases, n_in, n_out, tolerance = struct.unpack_from("<4If", data, 4)
        if version != cls.VERSION:
            raise TinypteError(f"golden data version {version}, this tool reads {cls.VERSION}")
        offset, slots = 24, []
        for _ in range(n_in + n_out):
            code, ndim = struct.unpack_from("<2I", data, offset)
            shape = struct.unpack_from(f"<{ndim}I", data, offset + 8)
            scale, zero_point = struct.unpack_from("<fi", data, offset + 8 + 4 * ndim + 4)
            offset += 8 + 4 * ndim + 4 + 8
            quantization = (float(scale), int(zero_point)) if scale != 0 else None
            slots.append(Slot(dtypes.by_scalar_type(code).numpy, tuple(shape), quantization))
        golden = cls(tolerance, quantization=[s.quantization for s in slots])
        for _ in range(cases):
            arrays = []
            for slot in slots:
                arrays.append(
                    np.frombuffer(data, slot.dtype, int(np.prod(slot.shape)), offset).reshape(slot.shape).copy()
                )
                offset += slot.nbytes + (-slot.nbytes % 4)
            golden.inputs.append(arrays[:n_in])
            golden.outputs.append(arrays[n_in:])
        if offset != len(data):
            raise TinypteError(f"golden data: {len(data) - offset} trailing bytes (truncated or corrupt)")
        return golden
