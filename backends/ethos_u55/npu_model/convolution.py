"""NPU_OP_CONV (convolutions, fully connected layers as 1x1 convolutions) and NPU_OP_DEPTHWISE:
IFM minus its zero point (padding contributes zero), multiplied by the decoded kernel and
accumulated, then the per-channel bias, scale and shift of the scale stream, the OFM zero
point and the clamps."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ethos_u55.npu_model import output_stage, weights, windows
from ethos_u55.npu_model.memory import RegionBus
from ethos_u55.npu_model.operation import OperationError, ParameterRegisters


def _accumulator_bits(registers: ParameterRegisters) -> int:
    acc = registers.get("ACC_FORMAT") & 3
    if acc == 0:
        return 32
    if acc == 1:
        return 40
    raise OperationError(f"NPU_SET_ACC_FORMAT: {acc} (FP_S5_10) is not modelled")


def _wrap(values: NDArray[Any], bits: int) -> NDArray[Any]:
    half = 1 << (bits - 1)
    return ((values + half) & ((1 << bits) - 1)) - half


def run(registers: ParameterRegisters, bus: RegionBus, depthwise: bool, ofm_ublock_depth: int) -> None:
    ifm, ofm = registers.ifm_map(), registers.ofm_map()
    if registers.get("IFM_UPSCALE") & 3:
        raise OperationError("NPU_SET_IFM_UPSCALE: resampling is not modelled")
    kernel = registers.kernel
    ofm_height, ofm_width, ofm_depth = registers.ofm_shape
    ifm_depth = ofm_depth if depthwise else registers.ifm_depth
    layout = weights.Layout(
        ofm_depth=ofm_depth,
        kernel_height=kernel.height,
        kernel_width=kernel.width,
        ifm_depth=ifm_depth,
        ofm_block_depth=registers.get("OFM_BLK_DEPTH_M1") + 1,
        depthwise=depthwise,
        part_kernel=kernel.part_kernel,
        ifm_bits=8 * ifm.element_size,
        dilation_x=kernel.dilation_x,
        dilation_y=kernel.dilation_y,
        ofm_ublock_depth=ofm_ublock_depth,
    )
    stream = bus.read(registers.get("WEIGHT_REGION") & 7, registers.get("WEIGHT_BASE"), registers.get("WEIGHT_LENGTH"))
    kernel_ohwi = weights.decode_kernel(stream, layout)
    scales = weights.decode_scales(
        bus.read(registers.get("SCALE_REGION") & 7, registers.get("SCALE_BASE"), registers.get("SCALE_LENGTH")),
        ofm_depth,
    )
    values = windows.read_ifm(registers, bus, ifm, ifm_depth) - ifm.zero_point
    source = windows.padded(values, registers.padding, 0)
    accumulator = np.zeros((ofm_height, ofm_width, ofm_depth), dtype=np.int64)
    for ky, kx, window in windows.slices(source, kernel, ofm_height, ofm_width):
        if depthwise:
            accumulator += window * kernel_ohwi[:, ky, kx, 0]
        else:
            # Exact in float64: |sum| < 2^53 for 8 and 16-bit IFMs.
            product = window.reshape(-1, ifm_depth).astype(np.float64) @ kernel_ohwi[:, ky, kx, :].T.astype(np.float64)
            accumulator += np.rint(product).astype(np.int64).reshape(ofm_height, ofm_width, ofm_depth)
    bits = _accumulator_bits(registers)
    accumulator = _wrap(_wrap(accumulator, bits) + scales.bias, bits)
    if registers.ofm_global_scale:
        scale, shift = registers.ofm_scale
        scaled = output_stage.scale_shift(accumulator, scale, shift, registers.ofm_rounding)
    else:
        scaled = output_stage.scale_shift(accumulator, scales.scale, scales.shift, registers.ofm_rounding)
    output_stage.write_ofm(registers, bus, ofm, scaled)
