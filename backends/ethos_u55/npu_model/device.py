"""The Ethos-U55 as the machine model attaches it: an MMIO register block whose CMD register
runs the command queue (blob_runner.py lays out an ExecuTorch Ethos-U delegate the way its
runtime does and runs it here, for the tests against tosa_reference_model).

Writing CMD with transition_to_running_state runs the queue (QSIZE bytes at QBASE) to
NPU_OP_STOP synchronously, so STATUS.state reads 0 (stopped) again by the next access. After a
run STATUS holds cmd_end_reached, and the NPU_OP_IRQ/NPU_OP_STOP masks in irq_history_mask
with irq_raised (Vela's stop has mask 0xffff); on failure irq_raised with cmd_parse_error (a
malformed stream, an unknown opcode, registers an operation cannot run with or that the model
does not model) or bus_status (a memory access the machine refused), and `error` holds a
one-line reason naming the word offset. The error bits stay until the next run or a reset.
CMD clear_irq clears irq_raised, clear_irq_history (bits 31:16) the history bits; CMD keeps
the clock/power Q-enable bits the driver reads back. A RESET write resets at once:
reset_status never reads 1 (the driver's poll ends at once), PROT takes the pending_cpl and
pending_csl bits written.

Region convention of ExecuTorch's Arm runtime (backends/arm/runtime/EthosUBackend_Cortex_M.cpp,
ethosu_invoke_v3 with bases {weight_data, scratch, fast scratch}): BASEP0 = the blob's
weight_data (read-only, DMA source of weight/scale streams), BASEP1 = the scratch buffer of
scratch_size bytes holding the intermediate tensors and the inputs and outputs, at their
descriptors' offsets (the runtime copies inputs to scratch + offset and outputs from it),
BASEP2 = the fast scratch (ethosu_fast_scratch; unused by the Shared_Sram memory mode).
"""

from __future__ import annotations

from collections.abc import Callable

from ethos_u55.npu_model import command_stream, executor
from ethos_u55.npu_model import registers as regs
from ethos_u55.npu_model.memory import BusFault, RegionBus, read_at

__all__ = ["EthosU55"]

_OFM_UBLOCK_DEPTH = {32: 4, 64: 8, 128: 8, 256: 8}


class EthosU55:
    """One Ethos-U55 NPU behind its register block."""

    def __init__(
        self,
        read_memory: Callable[[int, int], bytes],
        write_memory: Callable[[int, bytes], None],
        macs: int = 128,
    ) -> None:
        self.registers = regs.RegisterFile(macs)
        self.macs = macs
        self._read = read_memory
        self._write = write_memory
        self.status = 0
        self.cmd = 0
        self.qread = 0
        self.error: str | None = None
        self.operations: dict[str, int] = {}

    @property
    def irq_pending(self) -> bool:
        return bool(self.status & regs.IRQ_RAISED)

    def read_register(self, offset: int) -> int:
        if offset == regs.STATUS:
            return self.status
        if offset == regs.QREAD:
            return self.qread
        if offset == regs.CMD:
            return self.cmd
        if offset == regs.RESET:
            return 0
        value = self.registers.read(offset)
        return 0 if value is None else value

    def write_register(self, offset: int, value: int) -> None:
        value &= 0xFFFFFFFF
        if offset == regs.CMD:
            self._command(value)
        elif offset == regs.RESET:
            self.reset(value)
        else:
            self.registers.write(offset, value)

    def reset(self, value: int = 0) -> None:
        """A soft reset: registers and STATUS to their reset values, at once (reset_status reads
        0 again when the driver polls it); PROT takes RESET's pending privilege/security bits."""
        self.registers.reset()
        self.registers.values[regs.PROT] = value & (regs.PENDING_CPL | regs.PENDING_CSL)
        self.status = 0
        self.cmd = 0
        self.qread = 0
        self.error = None

    def _command(self, value: int) -> None:
        self.cmd = value & (regs.CLOCK_Q_ENABLE | regs.POWER_Q_ENABLE)
        if value & regs.CLEAR_IRQ:
            self.status &= ~regs.IRQ_RAISED
        self.status &= ~((value >> 16 & 0xFFFF) << regs.IRQ_HISTORY_SHIFT)
        if value & regs.TRANSITION_TO_RUNNING:
            self._run()

    def _fail(self, bit: int, reason: str) -> None:
        self.error = reason
        self.status = (self.status & ~regs.STATE_RUNNING) | bit | regs.IRQ_RAISED

    def _run(self) -> None:
        self.error = None
        self.status &= ~(regs.CMD_END_REACHED | regs.CMD_PARSE_ERROR | regs.BUS_STATUS)
        bus = RegionBus(self.registers.region_base, self._read, self._write)
        base, size = self.registers.queue_base, self.registers.queue_size
        try:
            stream = read_at(self._read, base, size)
        except BusFault as error:
            self._fail(regs.BUS_STATUS, f"command queue: {error}")
            return
        try:
            commands = command_stream.decode(bytes(stream))
        except command_stream.CommandStreamError as error:
            self._fail(regs.CMD_PARSE_ERROR, str(error))
            return
        try:
            self.operations = executor.execute(commands, bus, _OFM_UBLOCK_DEPTH[self.macs])
        except executor.StepError as error:
            self._fail(regs.BUS_STATUS if error.bus else regs.CMD_PARSE_ERROR, str(error))
            return
        self.qread = 4 * (commands[-1].offset + 1)
        # NPU_OP_IRQ and NPU_OP_STOP raise the interrupt with their mask (the history bits).
        mask = 0
        for command in commands:
            if command.name in ("NPU_OP_IRQ", "NPU_OP_STOP"):
                mask |= command.param
        self.status = (self.status & ~regs.STATE_RUNNING) | regs.CMD_END_REACHED | mask << regs.IRQ_HISTORY_SHIFT
        if mask:
            self.status |= regs.IRQ_RAISED
