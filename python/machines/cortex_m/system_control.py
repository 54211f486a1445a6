"""The Cortex-M33's System Control Space (0xE000E000) as the firmware uses it: SysTick, the
System Control Block and the NVIC enables. unicorn emulates the core, not this block.

SysTick counts down at one tick per executed instruction (CLKSOURCE = processor clock), the
way QEMU's `-icount shift=0` runs the other Cortex-M boards, so the firmware's
`ticks_per_inference` is an exact instruction count.
"""

from __future__ import annotations

from collections.abc import Callable

from machines.cortex_m.register_block import Block

SYST_CSR, SYST_RVR, SYST_CVR, SYST_CALIB = 0x10, 0x14, 0x18, 0x1C
SCB_NAMES = {
    0xD00: "CPUID",
    0xD04: "ICSR",
    0xD08: "VTOR",
    0xD0C: "AIRCR",
    0xD10: "SCR",
    0xD14: "CCR",
    0xD18: "SHPR1",
    0xD1C: "SHPR2",
    0xD20: "SHPR3",
    0xD24: "SHCSR",
    0xD28: "CFSR",
    0xD2C: "HFSR",
    0xD34: "MMFAR",
    0xD38: "BFAR",
    0xD88: "CPACR",
    0xD8C: "NSACR",
    0xF34: "FPCCR",
    0xF38: "FPCAR",
    0xF3C: "FPDSCR",
}


class SysTick:
    """The SysTick counter over an instruction counter."""

    def __init__(self, instructions: Callable[[], int]) -> None:
        self.instructions = instructions
        self.reload = 0
        self.start = 0  # instruction count when the counter last held `value`
        self.value = 0
        self.enabled = False

    def current(self) -> int:
        if not self.enabled:
            return self.value
        elapsed = self.instructions() - self.start
        if self.value >= elapsed:
            return self.value - elapsed
        period = self.reload + 1
        return self.reload - (elapsed - self.value - 1) % period

    def write_csr(self, csr: int) -> None:
        if csr & 1 and not self.enabled:
            self.start = self.instructions()
        elif not csr & 1 and self.enabled:
            self.value = self.current()
        self.enabled = bool(csr & 1)

    def clear(self) -> None:
        self.value = 0
        self.start = self.instructions()


def system_control(instructions: Callable[[], int]) -> Block:
    """The SCS block (no atomic aliases): SysTick, SCB, NVIC ISER/ICER 0-15, FPU context."""
    names = {SYST_CSR: "SYST_CSR", SYST_RVR: "SYST_RVR", SYST_CVR: "SYST_CVR", SYST_CALIB: "SYST_CALIB"}
    names |= SCB_NAMES
    names |= {0x100 + 4 * i: f"NVIC_ISER{i}" for i in range(16)} | {0x180 + 4 * i: f"NVIC_ICER{i}" for i in range(16)}
    block = Block("SCS", 0xE000E000, {offset: 0 for offset in names}, names, atomic_aliases=False)
    block.registers[0xD00] = 0x411FD210  # CPUID: Arm Cortex-M33 r1p0
    block.registers[0xD08] = 0x10000000  # VTOR: the boot ROM enters through the image's table
    tick = SysTick(instructions)
    block.on_read[SYST_CVR] = tick.current
    block.on_write[SYST_CVR] = lambda value: tick.clear()
    block.on_write[SYST_RVR] = lambda value: setattr(tick, "reload", value & 0xFFFFFF)
    block.on_write[SYST_CSR] = tick.write_csr
    return block
