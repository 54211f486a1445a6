"""Feature maps as the NPU addresses them: up to four tiles (BASE0..3 with HEIGHT0/HEIGHT1/
WIDTH0 splitting the map), the Y/X/C strides, NHWC or the brick format NHCWB16, and the
element precision. Reads gather a whole map into an (H, W, C) array, writes scatter one back.

Addressing follows Vela's register_command_stream_util.get_address: tile 1 holds x >= WIDTH0
(tile 3 also y >= HEIGHT1), tile 2 holds y >= HEIGHT0 (x < WIDTH0); an element is at
base + y*STRIDE_Y + x*STRIDE_X + c*size in NHWC, and in NHCWB16 at
base + y*STRIDE_Y + x*16*size + (c // 16)*STRIDE_C + (c % 16)*size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.npu_model.memory import RegionBus

_DTYPES: dict[tuple[int, bool], type[np.integer[Any]]] = {
    (1, True): np.int8,
    (1, False): np.uint8,
    (2, True): np.int16,
    (2, False): np.uint16,
    (4, True): np.int32,
}
NHWC, NHCWB16 = 0, 1


class FeatureMapError(Exception):
    """A feature map the registers describe but the NPU cannot access (bad precision/format)."""


@dataclass(frozen=True)
class FeatureMap:
    """One IFM/IFM2/OFM as the registers describe it."""

    name: str
    region: int
    bases: tuple[int, int, int, int]
    height0: int
    height1: int
    width0: int
    stride_y: int
    stride_x: int
    stride_c: int
    element_size: int
    signed: bool
    layout: int
    zero_point: int

    @property
    def dtype(self) -> type[np.integer[Any]]:
        key = (self.element_size, self.signed)
        if key not in _DTYPES:
            raise FeatureMapError(
                f"{self.name}: unsupported precision ({self.element_size} bytes, signed={self.signed})"
            )
        return _DTYPES[key]

    def offsets(self, height: int, width: int, depth: int) -> NDArray[Any]:
        """Region offsets of every element of an (height, width, depth) map, shape (H, W, C)."""
        if self.layout not in (NHWC, NHCWB16):
            raise FeatureMapError(f"{self.name}: reserved format {self.layout}")
        y = np.arange(height, dtype=np.int64)[:, None, None]
        x = np.arange(width, dtype=np.int64)[None, :, None]
        c = np.arange(depth, dtype=np.int64)[None, None, :]
        right = x >= self.width0
        tile = np.where(right, np.where(y >= self.height1, 3, 1), np.where(y >= self.height0, 2, 0))
        ty = np.where(tile == 3, y - self.height1, np.where(tile == 2, y - self.height0, y))
        tx = np.where(right, x - self.width0, x)
        base = np.asarray(self.bases, dtype=np.int64)[tile]
        size = self.element_size
        if self.layout == NHWC:
            channel = c * size
            column = tx * self.stride_x
        else:
            channel = (c // 16) * self.stride_c + (c % 16) * size
            column = tx * 16 * size
        offsets: NDArray[Any] = base + ty * self.stride_y + column + channel
        return offsets

    def read(self, bus: RegionBus, height: int, width: int, depth: int) -> NDArray[Any]:
        """The map's (H, W, C) elements as int64."""
        offsets = self.offsets(height, width, depth)
        low = int(offsets.min())
        high = int(offsets.max()) + self.element_size
        raw = np.frombuffer(bus.read(self.region, low, high - low), dtype=np.uint8)
        index = (offsets - low)[..., None] + np.arange(self.element_size)
        elements = raw[index].copy().view(np.dtype(self.dtype).newbyteorder("<"))[..., 0]
        return elements.astype(np.int64)

    def write(self, bus: RegionBus, values: NDArray[Any]) -> None:
        """Store (H, W, C) `values` (already in the map's range) at the map's addresses."""
        height, width, depth = values.shape
        offsets = self.offsets(height, width, depth)
        low = int(offsets.min())
        high = int(offsets.max()) + self.element_size
        raw = np.frombuffer(bus.read(self.region, low, high - low), dtype=np.uint8).copy()
        data = values.astype(np.dtype(self.dtype).newbyteorder("<")).view(np.uint8).reshape(height, width, depth, -1)
        index = (offsets - low)[..., None] + np.arange(self.element_size)
        raw[index] = data
        bus.write(self.region, low, raw.tobytes())
