"""NPU_OP_DMA_START: the DMA channel's copy of DMA0_LEN bytes from DMA0_SRC in DMA0_SRC_REGION
to DMA0_DST in DMA0_DST_REGION (Vela's weight and scale streams into SRAM). The model runs the
copy at DMA_START, so NPU_OP_DMA_WAIT has nothing left to wait for. Only the 1-D stride mode
Vela emits is modelled (DMA0_*_REGION bits 10:9); the internal (SHRAM) destination is not.
"""

from __future__ import annotations

from ethos_u55.npu_model.memory import RegionBus
from ethos_u55.npu_model.operation import OperationError, ParameterRegisters


def run(registers: ParameterRegisters, bus: RegionBus) -> None:
    source_region, destination_region = registers.get("DMA0_SRC_REGION"), registers.get("DMA0_DST_REGION")
    for name, value in (("DMA0_SRC_REGION", source_region), ("DMA0_DST_REGION", destination_region)):
        if value >> 8 & 1:
            raise OperationError(f"NPU_SET_{name}: internal (SHRAM) transfers are not modelled")
        if value >> 9 & 3:
            raise OperationError(f"NPU_SET_{name}: stride mode {value >> 9 & 3} is not modelled")
    length = registers.get("DMA0_LEN")
    data = bus.read(source_region & 0xFF, registers.get("DMA0_SRC"), length)
    bus.write(destination_region & 0xFF, registers.get("DMA0_DST"), data)
