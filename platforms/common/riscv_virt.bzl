"""RISC-V boards under QEMU's `virt` machine in machine mode (-bios none): the machine,
memory map and start-up they share. Each board picks its FPU (and so its toolchain)."""

load("//rules:defs.bzl", "board", "memory_region", "qemu")

def virt_board(*, name, fpu):
    """An RV32IMAC board on QEMU `virt`, with `fpu` (`//platforms/fpu:none` or `:riscv_f`)."""
    return board(
        name = name,
        cpu = "//platforms/cpu:rv32imac",
        fpu = fpu,
        emulator = qemu(system = "riscv32", machine = "virt", cpu = "rv32", args = ["-bios", "none"]),
        memory = [
            # virt's DRAM starts at 0x80000000; QEMU loads the ELF there and jumps to its entry.
            memory_region("FLASH", 0x80000000, 2 * 1024 * 1024, "rx"),
            memory_region("RAM", 0x80200000, 2 * 1024 * 1024, "rwx"),
        ],
        stack_size = 16 * 1024,
        startup = [
            Label("//platforms/common:riscv"),
            Label("//platforms/common:semihosting_console"),
            Label("//platforms/common:start"),
        ],
    )
