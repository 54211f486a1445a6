"""Raspberry Pi Pico 2 W: RP2350 (Cortex-M33, used in Arm Secure mode), 4 MiB QSPI flash
executed in place at 0x10000000, 520 KiB SRAM, console on UART0 (GPIO0 TX, GPIO1 RX,
115200 8N1). Build-only here: no emulator models the RP2350, so firmware is tested on its
Cortex-M33 twin mps2_an505 and checked structurally for this board. No Pico SDK: boot
block, clocks and UART are set up by the files in this folder."""

load("//rules:defs.bzl", "board", "memory_region")

BOARD = board(
    name = "pico2w",
    cpu = "//platforms/cpu:cortex_m33",
    fpu = "//platforms/fpu:fpv5_sp_d16",
    memory = [
        memory_region("FLASH", 0x10000000, 4 * 1024 * 1024, "rx"),
        # SRAM0-7, striped; the main RAM region.
        memory_region("RAM", 0x20000000, 512 * 1024, "rwx"),
        # The two 4 KiB scratch banks (per-core stacks in the Pico SDK).
        memory_region("SCRATCH_X", 0x20080000, 4 * 1024, "rwx"),
        memory_region("SCRATCH_Y", 0x20081000, 4 * 1024, "rwx"),
    ],
    stack_size = 8 * 1024,
    # UF2 family RP2350_ARM_S: the boot ROM's drive accepts it as a Secure Arm image.
    uf2_family_id = "0xe48bff59",
    startup = [
        "//platforms/pico2w:boot_block.c",
        "//platforms/pico2w:uart_console.c",
        "//platforms/common:cortex_m",
        "//platforms/common:start",
    ],
)
