"""What the RISC-V boards share: QEMU's `virt` machine in machine mode (-bios none), its
memory map and the RISC-V start-up code."""

load("//rules:defs.bzl", "memory_region", "qemu")

VIRT_QEMU = qemu(system = "riscv32", machine = "virt", cpu = "rv32", args = ["-bios", "none"])

VIRT_MEMORY = [
    # virt's DRAM starts at 0x80000000; QEMU loads the ELF there and jumps to its entry.
    memory_region("FLASH", 0x80000000, 2 * 1024 * 1024, "rx"),
    memory_region("RAM", 0x80200000, 2 * 1024 * 1024, "rwx"),
]

VIRT_STARTUP = [
    "//platforms/common:riscv",
    "//platforms/common:semihosting_console",
    "//platforms/common:start",
]
