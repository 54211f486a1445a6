"""Register models of the RP2350 peripherals tinypte's Pico 2 W firmware touches.

Each block is one APB/AHB peripheral at its base address (RP2350 datasheet, "Address map"),
with the atomic aliases every RP2350 peripheral has: +0x1000 XOR, +0x2000 SET, +0x3000 CLR
("Atomic register access"), as `Block`s (machines/cortex_m/register_block.py: an access to a
register a block does not know ends the run).

Modelled behaviour is what start-up code waits for: XOSC reports STABLE once enabled, a PLL
reports LOCK once powered with a feedback divider, RESET_DONE follows RESET, a clock's
SELECTED follows its source, UART0 is never busy and its bytes go to the console (and its RX
FIFO hands out run.py's --input), TIMER0 counts microseconds from the instruction count.
"""

from __future__ import annotations

from collections.abc import Callable

from machines.cortex_m.register_block import Block


def plain(name: str, base: int, names: dict[int, str], reset: dict[int, int] | None = None) -> Block:
    """A block whose registers just hold what is written."""
    values = {offset: 0 for offset in names}
    values.update(reset or {})
    return Block(name, base, values, names)


def xosc() -> Block:
    """XOSC (0x40048000): STATUS.STABLE (bit 31) once CTRL.ENABLE holds its magic 0xfab."""
    names = {0x0: "CTRL", 0x4: "STATUS", 0x8: "DORMANT", 0xC: "STARTUP", 0x10: "COUNT"}
    block = plain("XOSC", 0x40048000, names)
    block.on_read[0x4] = lambda: (1 << 31 | 1 << 12) if (block.registers[0x0] >> 12) & 0xFFF == 0xFAB else 0
    return block


def clocks() -> Block:
    """CLOCKS (0x40010000): each clock's CTRL/DIV/SELECTED triple from GPOUT0 (0x00) to ADC
    (0x6c); clk_ref and clk_sys report the selected glitchless source, the others 1."""
    triples = ["GPOUT0", "GPOUT1", "GPOUT2", "GPOUT3", "REF", "SYS", "PERI", "HSTX", "USB", "ADC"]
    names: dict[int, str] = {}
    for i, clock in enumerate(triples):
        names[0xC * i] = f"CLK_{clock}_CTRL"
        names[0xC * i + 4] = f"CLK_{clock}_DIV"
        names[0xC * i + 8] = f"CLK_{clock}_SELECTED"
    block = plain("CLOCKS", 0x40010000, names, {0xC * i + 4: 0x10000 for i in range(len(triples))})
    for i in range(len(triples)):
        block.on_read[0xC * i + 8] = lambda: 1
    block.on_read[0x38] = lambda: 1 << (block.registers[0x30] & 3)  # CLK_REF_SELECTED
    block.on_read[0x44] = lambda: 1 << (block.registers[0x3C] & 1)  # CLK_SYS_SELECTED
    return block


def pll(name: str, base: int) -> Block:
    """PLL_SYS (0x40050000) / PLL_USB (0x40058000): CS.LOCK once PWR has PD and VCOPD clear and
    FBDIV_INT is set."""
    names = {
        0x0: "CS",
        0x4: "PWR",
        0x8: "FBDIV_INT",
        0xC: "PRIM",
        0x10: "INTR",
        0x14: "INTE",
        0x18: "INTF",
        0x1C: "INTS",
    }
    block = plain(name, base, names, {0x0: 1, 0x4: 0x2D, 0xC: 0x77000})

    def cs() -> int:
        locked = block.registers[0x4] & 0x21 == 0 and block.registers[0x8] != 0
        return block.registers[0x0] | (1 << 31 if locked else 0)

    block.on_read[0x0] = cs
    return block


def resets() -> Block:
    """RESETS (0x40020000): RESET_DONE is the complement of RESET over the 29 blocks."""
    block = plain("RESETS", 0x40020000, {0x0: "RESET", 0x4: "WDSEL", 0x8: "RESET_DONE"}, {0x0: 0x1FFFFFFF})
    block.on_read[0x8] = lambda: ~block.registers[0x0] & 0x1FFFFFFF
    return block


def io_bank0() -> Block:
    """IO_BANK0 (0x40028000): GPIO0..47 STATUS/CTRL pairs."""
    names: dict[int, str] = {}
    for gpio in range(48):
        names[8 * gpio] = f"GPIO{gpio}_STATUS"
        names[8 * gpio + 4] = f"GPIO{gpio}_CTRL"
    return plain("IO_BANK0", 0x40028000, names, {8 * g + 4: 0x1F for g in range(48)})


def pads_bank0() -> Block:
    """PADS_BANK0 (0x40038000): VOLTAGE_SELECT, GPIO0..47, SWCLK, SWD; ISO set at reset."""
    names = {0x0: "VOLTAGE_SELECT"} | {4 + 4 * g: f"GPIO{g}" for g in range(48)} | {0xC4: "SWCLK", 0xC8: "SWD"}
    return plain("PADS_BANK0", 0x40038000, names, {4 + 4 * g: 0x116 for g in range(48)})


class UartRx:
    """What a host sends to UART0's RX pin (run.py --input): all of it queued from the start, as
    if the host waited for room in the 32-byte RX FIFO (the model keeps no baud-rate time).

    A firmware that polls FR `wait_limit` times in a row (no DR access in between) while the
    input is used up waits for input that never comes: `on_wait` is told once, with a message
    that says how many bytes the input had (or that there was none)."""

    FIFO = 32

    def __init__(self, data: bytes | None, wait_limit: int, on_wait: Callable[[str], None]) -> None:
        self.data = data
        self.queue = bytearray(data or b"")
        self.wait_limit = wait_limit
        self.on_wait = on_wait
        self.empty_polls = 0
        self.read = 0  # bytes the firmware has taken from DR

    def flags(self) -> int:
        """FR's RX bits: RXFE (4) while nothing is queued, RXFF (6) while the FIFO is full."""
        if not self.queue:
            self.empty_polls += 1
            if self.empty_polls == self.wait_limit:
                self.on_wait(self.waiting())
            return 1 << 4
        self.empty_polls = 0
        return 1 << 6 if len(self.queue) >= self.FIFO else 0

    def waiting(self) -> str:
        if self.data is None:
            return (
                f"firmware waits for console input (UART0 RX polled {self.wait_limit} times), and no --input was given"
            )
        return (
            f"firmware waits for console input after all {len(self.data)} bytes of --input were read "
            f"(UART0 RX polled {self.wait_limit} times with nothing queued)"
        )

    def pop(self) -> int:
        """DR read: the oldest byte (error flags 11:8 clear); an empty FIFO reads 0."""
        self.empty_polls = 0
        if not self.queue:
            return 0
        self.read += 1
        return self.queue.pop(0)

    def written(self) -> None:
        self.empty_polls = 0


def uart0(console: Callable[[int], None], rx: UartRx | None = None) -> Block:
    """UART0 (0x40070000, Arm PL011): bytes written to DR go to `console`; the TX side is never
    busy or full, so transmit never waits. With `rx`, FR's RXFE is clear while it has bytes
    queued and a DR read pops one; without, the RX FIFO is always empty."""
    names = {
        0x0: "UARTDR",
        0x4: "UARTRSR",
        0x18: "UARTFR",
        0x20: "UARTILPR",
        0x24: "UARTIBRD",
        0x28: "UARTFBRD",
        0x2C: "UARTLCR_H",
        0x30: "UARTCR",
        0x34: "UARTIFLS",
        0x38: "UARTIMSC",
        0x3C: "UARTRIS",
        0x40: "UARTMIS",
        0x44: "UARTICR",
        0x48: "UARTDMACR",
    }
    block = plain("UART0", 0x40070000, names, {0x18: 0x90, 0x30: 0x300})
    if rx is None:
        block.on_write[0x0] = lambda value: console(value & 0xFF)
        block.on_read[0x18] = lambda: 0x90  # TXFE | RXFE: never busy, never full
        return block

    def write(value: int) -> None:
        rx.written()
        console(value & 0xFF)

    block.on_write[0x0] = write
    block.on_read[0x0] = rx.pop
    block.on_read[0x18] = lambda: 0x80 | rx.flags()  # TXFE, and the RX FIFO's state
    return block


def timer0(microseconds: Callable[[], int]) -> Block:
    """TIMER0 (0x400b0000): the 64-bit microsecond counter (TIMERAWH/TIMERAWL and the latched
    TIMEHR/TIMELR), from `microseconds`."""
    names = {0x8: "TIMEHR", 0xC: "TIMELR", 0x24: "TIMERAWH", 0x28: "TIMERAWL", 0x2C: "DBGPAUSE", 0x30: "PAUSE"}
    block = plain("TIMER0", 0x400B0000, names)
    block.on_read[0xC] = lambda: microseconds() & 0xFFFFFFFF
    block.on_read[0x8] = lambda: microseconds() >> 32
    block.on_read[0x28] = lambda: microseconds() & 0xFFFFFFFF
    block.on_read[0x24] = lambda: microseconds() >> 32
    return block


def ticks() -> Block:
    """TICKS (0x40108000): the tick generators (CTRL, CYCLES, COUNT for PROC0 .. WATCHDOG)."""
    generators = ["PROC0", "PROC1", "TIMER0", "TIMER1", "WATCHDOG", "RISCV"]
    names: dict[int, str] = {}
    for i, generator in enumerate(generators):
        names[0xC * i] = f"{generator}_CTRL"
        names[0xC * i + 4] = f"{generator}_CYCLES"
        names[0xC * i + 8] = f"{generator}_COUNT"
    return plain("TICKS", 0x40108000, names)
