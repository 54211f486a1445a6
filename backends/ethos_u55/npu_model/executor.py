"""Run decoded commands: NPU_SET_* commands update the parameter registers, NPU_OP_* commands
run an operation with them, NPU_OP_STOP ends the stream. Operations run one after another
(the model has no concurrency, so KERNEL_WAIT, DMA_WAIT and BLOCKDEP need no action)."""

from __future__ import annotations

from ethos_u55.npu_model import convolution, dma, elementwise, pooling
from ethos_u55.npu_model.command_stream import Command
from ethos_u55.npu_model.feature_map import FeatureMapError
from ethos_u55.npu_model.memory import BusFault, RegionBus
from ethos_u55.npu_model.operation import OperationError, ParameterRegisters
from ethos_u55.npu_model.weights import WeightStreamError

# Commands that only tune the hardware's pipelining or profiling: no effect on results.
_NO_EFFECT = {"NPU_OP_DMA_WAIT", "NPU_OP_KERNEL_WAIT", "NPU_OP_PMU_MASK", "NPU_OP_IRQ"}


class StepError(Exception):
    """An operation failed; the message names the command's word offset. `bus` when the
    cause was a bus fault (a refused memory access) rather than registers the NPU rejects."""

    def __init__(self, message: str, bus: bool = False) -> None:
        super().__init__(message)
        self.bus = bus


def execute(commands: list[Command], bus: RegionBus, ofm_ublock_depth: int) -> dict[str, int]:
    """Run `commands` to NPU_OP_STOP; the count of each operation run."""
    registers = ParameterRegisters()
    counts: dict[str, int] = {}
    for command in commands:
        if not command.is_operation:
            if command.payload is None:
                registers.values[command.name] = command.param
            else:
                registers.values[command.name] = command.payload
                registers.params[command.name] = command.param
            continue
        if command.name == "NPU_OP_STOP":
            break
        counts[command.name] = counts.get(command.name, 0) + 1
        if command.name in _NO_EFFECT:
            continue
        try:
            if command.name == "NPU_OP_CONV":
                convolution.run(registers, bus, depthwise=False, ofm_ublock_depth=ofm_ublock_depth)
            elif command.name == "NPU_OP_DEPTHWISE":
                convolution.run(registers, bus, depthwise=True, ofm_ublock_depth=ofm_ublock_depth)
            elif command.name == "NPU_OP_POOL":
                pooling.run(registers, bus, command.param)
            elif command.name == "NPU_OP_ELEMENTWISE":
                elementwise.run(registers, bus, command.param)
            elif command.name == "NPU_OP_DMA_START":
                dma.run(registers, bus)
            else:
                raise StepError(f"{command.name} is not modelled")
        except BusFault as error:
            raise StepError(f"word {command.offset} ({command.name}): bus fault: {error}", bus=True) from error
        except (OperationError, FeatureMapError, WeightStreamError, StepError) as error:
            raise StepError(f"word {command.offset} ({command.name}): {error}") from error
    return counts
