"""What Cortex-M boards share: the start-up code of a board QEMU runs (vector table, fault
reports, ticks, C start-up, semihosting console and exit)."""

CORTEX_M_SEMIHOSTING_STARTUP = [
    "//platforms/common:cortex_m",
    "//platforms/common:semihosting_console",
    "//platforms/common:start",
]
