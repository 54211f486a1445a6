"""NPU_OP_ELEMENTWISE: binary MUL, ADD, SUB, MIN, MAX (and unary ABS) of the IFM and IFM2 (a
feature map broadcast along H/W/C, or a 16-bit scalar), each minus its zero point.

IFM2_BROADCAST (Vela's IFM2Broadcast): bits 0-2 broadcast IFM2 along H, W, C; bit 6 swaps the
operands (IFM2 becomes operand A); bit 7 uses IFM2_SCALAR. ADD/SUB scale their operands as
IFM_PRECISION bits 9:8 say: 0 (16-bit scales) A*OPA_SCALE and B*OPB_SCALE; 1 (OPA 32-bit) A
scaled by OPA_SCALE >> shift with IFM_PRECISION's rounding, B left-shifted by 19 (8-bit) or 14
(16-bit) operands (the pre-shift regor leaves in the TOSA rescales of B); 2 the same with A and B
swapped. The result is scaled by OFM_SCALE when OFM_PRECISION's global-scale bit is set.
"""

from __future__ import annotations

import numpy as np

from ethos_u55.npu_model import output_stage
from ethos_u55.npu_model.memory import RegionBus
from ethos_u55.npu_model.operation import OperationError, ParameterRegisters

MUL, ADD, SUB, MIN, MAX, LRELU, ABS, CLZ, SHR, SHL = range(10)
_NAMES = ("MUL", "ADD", "SUB", "MIN", "MAX", "LRELU", "ABS", "CLZ", "SHR", "SHL")


def _unscaled_shift(element_size: int) -> int:
    return 19 if element_size == 1 else 14


def run(registers: ParameterRegisters, bus: RegionBus, mode: int) -> None:
    if mode not in (MUL, ADD, SUB, MIN, MAX, ABS):
        name = _NAMES[mode] if mode < len(_NAMES) else str(mode)
        raise OperationError(f"NPU_OP_ELEMENTWISE: mode {name} is not modelled")
    ifm, ofm = registers.ifm_map(), registers.ofm_map()
    height, width, depth = registers.ofm_shape
    a = ifm.read(bus, height, width, depth) - ifm.zero_point
    b = np.zeros_like(a)
    broadcast = registers.get("IFM2_BROADCAST")
    if mode != ABS:
        ifm2 = registers.ifm_map("IFM2")
        if broadcast >> 7 & 1:
            scalar = registers.get("IFM2_SCALAR")
            if ifm2.signed and scalar & 0x8000:
                scalar -= 0x10000
            b = np.full_like(a, scalar - ifm2.zero_point)
        else:
            shape = (1 if broadcast & 1 else height, 1 if broadcast & 2 else width, 1 if broadcast & 4 else depth)
            b = np.broadcast_to(ifm2.read(bus, *shape) - ifm2.zero_point, a.shape)
        if broadcast >> 6 & 1:
            a, b = b, a
    if mode in (ADD, SUB):
        scale_mode = registers.ifm_scale_mode
        opa_scale, opa_shift = registers.opa_scale
        if scale_mode == 0:
            a = output_stage.scale_shift(a, opa_scale & 0xFFFF, opa_shift, registers.ifm_rounding)
            b = b * (registers.opb_scale & 0xFFFF)
        elif scale_mode in (1, 2):
            shift = _unscaled_shift(ifm.element_size)
            if scale_mode == 1:
                a, b = output_stage.scale_shift(a, opa_scale, opa_shift, registers.ifm_rounding), b << shift
            else:
                a, b = a << shift, output_stage.scale_shift(b, opa_scale, opa_shift, registers.ifm_rounding)
        else:
            raise OperationError(f"NPU_SET_IFM_PRECISION: reserved scale mode {scale_mode}")
        result = a + b if mode == ADD else a - b
    elif mode == MUL:
        result = a * b
    elif mode == MIN:
        result = np.minimum(a, b)
    elif mode == MAX:
        result = np.maximum(a, b)
    else:
        result = np.abs(a)
    if registers.ofm_global_scale:
        scale, shift = registers.ofm_scale
        result = output_stage.scale_shift(result, scale, shift, registers.ofm_rounding)
    output_stage.write_ofm(registers, bus, ofm, result)
