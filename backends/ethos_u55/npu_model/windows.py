"""Kernel windows over a padded IFM: read the IFM area a kernel operation covers, pad it, and
give, per kernel element, the (OFM height, OFM width, C) slice it multiplies."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.npu_model.feature_map import FeatureMap
from ethos_u55.npu_model.memory import RegionBus
from ethos_u55.npu_model.operation import Kernel, OperationError, ParameterRegisters


def read_ifm(registers: ParameterRegisters, bus: RegionBus, ifm: FeatureMap, depth: int) -> NDArray[Any]:
    """The IFM area the kernel covers (padding excluded), (H, W, depth), as int64."""
    ofm_height, ofm_width, _ = registers.ofm_shape
    height, width = registers.kernel.input_extent(ofm_height, ofm_width, registers.padding)
    if height <= 0 or width <= 0:
        raise OperationError(f"NPU_SET_IFM_PAD_*: padding leaves an empty IFM ({height}x{width})")
    return ifm.read(bus, height, width, depth)


def padded(values: NDArray[Any], padding: tuple[int, int, int, int], fill: float | int) -> NDArray[Any]:
    top, left, bottom, right = padding
    return np.pad(values, ((top, bottom), (left, right), (0, 0)), constant_values=fill)


def slices(
    array: NDArray[Any], kernel: Kernel, ofm_height: int, ofm_width: int
) -> Iterator[tuple[int, int, NDArray[Any]]]:
    """(ky, kx, the (OH, OW, C) elements kernel element (ky, kx) sees) over a padded IFM."""
    for ky in range(kernel.height):
        y0 = ky * kernel.dilation_y
        for kx in range(kernel.width):
            x0 = kx * kernel.dilation_x
            yield (
                ky,
                kx,
                array[
                    y0 : y0 + (ofm_height - 1) * kernel.stride_y + 1 : kernel.stride_y,
                    x0 : x0 + (ofm_width - 1) * kernel.stride_x + 1 : kernel.stride_x,
                ],
            )
