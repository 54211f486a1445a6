"""What Cortex-M boards share: the start-up code of a board QEMU runs (vector table, fault
reports, ticks, C start-up, semihosting console and exit), and the board() of such a board."""

load("//rules:defs.bzl", "board", "qemu")

CORTEX_M_SEMIHOSTING_STARTUP = [
    Label("//platforms/common:cortex_m"),
    Label("//platforms/common:semihosting_console"),
    Label("//platforms/common:start"),
]

def qemu_cortex_m_board(*, name, cpu, fpu, machine, memory, stack_size, qemu_args = [], **kwargs):
    """A Cortex-M board that QEMU's Arm `machine` runs, with the semihosting start-up.

    Args:
      name: the board's name.
      cpu: the //platforms/cpu value, e.g. "cortex_m33" (QEMU's -cpu is the same with "-").
      fpu: the //platforms/fpu value, e.g. "fpv5_sp_d16".
      machine: QEMU's -M.
      memory: the memory map (memory_region()s).
      stack_size: the main stack's bytes.
      qemu_args: more arguments for QEMU.
      **kwargs: board()'s other arguments (fvp, cores, two_cores_srcs).
    """
    return board(
        name = name,
        cpu = "//platforms/cpu:" + cpu,
        fpu = "//platforms/fpu:" + fpu,
        emulator = qemu(system = "arm", machine = machine, cpu = cpu.replace("_", "-"), args = qemu_args),
        memory = memory,
        stack_size = stack_size,
        startup = CORTEX_M_SEMIHOSTING_STARTUP,
        **kwargs
    )
