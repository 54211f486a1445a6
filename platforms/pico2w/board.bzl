"""Raspberry Pi Pico 2 W: RP2350 (Cortex-M33, used in Arm Secure mode), 4 MiB QSPI flash
executed in place at 0x10000000, 520 KiB SRAM, console on the board's USB port (a CDC ACM
serial device) or, with --//platforms/pico2w:console=uart, on UART0 (GPIO0 TX, GPIO1 RX,
115200 8N1). QEMU has no RP2350: its tests run the real image on the RP2350 model
(//python/machines/rp2350:run, instruction_model_test). No Pico SDK: boot block, clocks, USB and UART are set up by the
files in this folder. Two cores: firmware uses core 1 as the runtime's worker (two_cores.c, through
the SIO FIFOs) unless built with --//platforms/pico2w:cores=1."""

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
        "//platforms/pico2w:clocks.c",
        "//platforms/pico2w:clocks.h",
        "//platforms/pico2w:rp2350_regs.h",
        "//platforms/common:cortex_m",
        "//platforms/common:start",
    ] + select({
        "//platforms/pico2w:console_uart": ["//platforms/pico2w:uart_console.c"],
        "//conditions:default": [
            "//platforms/pico2w:usb_console.c",
            "//platforms/pico2w:usb_descriptors.c",
            "//platforms/pico2w:usb_descriptors.h",
            "//platforms/pico2w:usb_device.c",
            "//platforms/pico2w:usb_device.h",
        ],
    }),
    # The RP2350's second Cortex-M33: two_cores.c starts it and feeds it jobs
    # (tinypte/two_cores_board.h).
    cores = 2,
    two_cores_srcs = [
        "//platforms/pico2w:rp2350_sio.h",
        "//platforms/pico2w:two_cores.c",
    ],
    # Tests run the real image on the RP2350 model (instruction_model_test).
    instruction_model = Label("//python/machines/rp2350:run"),
)
