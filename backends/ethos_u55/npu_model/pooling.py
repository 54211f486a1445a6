"""NPU_OP_POOL: max and average pooling over the kernel window, channel by channel (Vela also
emits 1x1 average pools as copies, transposes and reshapes through the IFM/OFM strides).

MAX takes the largest IFM value of the window (padding never wins), AVERAGE sums the window's
IFM values minus the IFM zero point, REDUCE_SUM sums them over the IFM depth too (IFM_DEPTH_M1+1
channels into one OFM channel: how regor lowers a mean over H and W on the U55). With OFM_PRECISION's global-scale bit the result is scaled
by OFM_SCALE (Vela folds the 1/N of an average into it); an AVERAGE without it (a padded
window) is divided by its count of IFM elements through the scale Vela's
scaling.quantise_pooling_scale gives for that count. Then the OFM zero point and the clamps.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.npu_model import output_stage, windows
from ethos_u55.npu_model.memory import RegionBus
from ethos_u55.npu_model.operation import OperationError, ParameterRegisters

MAX, AVERAGE, REDUCE_SUM = 0, 1, 2


def _pooling_scale(count: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    scales = np.zeros(count.shape, dtype=np.int64)
    shifts = np.zeros(count.shape, dtype=np.int64)
    for n in np.unique(count):
        _, k = math.frexp(int(n) - 1)
        shift = 31 + k
        scales[count == n] = ((1 << shift) + (1 << k)) // int(n)
        shifts[count == n] = shift
    return scales, shifts


def run(registers: ParameterRegisters, bus: RegionBus, mode: int) -> None:
    if mode not in (MAX, AVERAGE, REDUCE_SUM):
        raise OperationError(f"NPU_OP_POOL: reserved mode {mode}")
    if registers.get("IFM_UPSCALE") & 3:
        raise OperationError("NPU_SET_IFM_UPSCALE: resampling is not modelled")
    ifm, ofm = registers.ifm_map(), registers.ofm_map()
    kernel = registers.kernel
    ofm_height, ofm_width, depth = registers.ofm_shape
    if mode == REDUCE_SUM:
        if depth != 1:
            raise OperationError(f"NPU_SET_OFM_DEPTH_M1: REDUCE_SUM writes one channel, not {depth}")
        values = windows.read_ifm(registers, bus, ifm, registers.ifm_depth)
        values = (values - ifm.zero_point).sum(axis=2, keepdims=True) + ifm.zero_point
    else:
        values = windows.read_ifm(registers, bus, ifm, depth)
    inside = windows.padded(np.ones((*values.shape[:2], 1), dtype=np.int64), registers.padding, 0)
    count = np.zeros((ofm_height, ofm_width, 1), dtype=np.int64)
    for _, _, window in windows.slices(inside, kernel, ofm_height, ofm_width):
        count += window
    if mode == MAX:
        lowest = np.iinfo(np.int64).min
        source = windows.padded(values, registers.padding, lowest)
        result = np.full((ofm_height, ofm_width, depth), lowest, dtype=np.int64)
        for _, _, window in windows.slices(source, kernel, ofm_height, ofm_width):
            result = np.maximum(result, window)
        result = result - ifm.zero_point
    else:
        source = windows.padded(values - ifm.zero_point, registers.padding, 0)
        result = np.zeros((ofm_height, ofm_width, depth), dtype=np.int64)
        for _, _, window in windows.slices(source, kernel, ofm_height, ofm_width):
            result += window
    if registers.ofm_global_scale:
        scale, shift = registers.ofm_scale
        result = output_stage.scale_shift(result, scale, shift, registers.ofm_rounding)
    elif mode == AVERAGE:
        scales, shifts = _pooling_scale(np.maximum(count, 1))
        result = output_stage.scale_shift(result, scales, shifts, registers.ofm_rounding)
    output_stage.write_ofm(registers, bus, ofm, result)
