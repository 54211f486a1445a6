"""Arm Corstone-300 (SSE-300) with its Ethos-U55 NPU, on tinypte's own machine model: the memory
map of //platforms/corstone300 (the SRAM and DDR, through their Secure aliases, which the NPU reaches), a
Cortex-M33 instead of the Cortex-M55 (unicorn, which runs the model, has no Cortex-M55 and no
Helium/MVE: firmware for this board is built for the M33, without MVE), the semihosting console,
and the Ethos-U55's registers at its Secure address 0x58102000 backed by the NPU's functional
model (//backends/ethos_u55/npu_model). Tests run the real image on that machine,
//python/machines/sse300:run (instruction_model_test)."""

load("//platforms/common:cortex_m.bzl", "CORTEX_M_SEMIHOSTING_STARTUP")
load("//platforms/corstone300:board.bzl", corstone300 = "BOARD")
load("//rules:defs.bzl", "board", "memory_region")

BOARD = board(
    name = "corstone300_npu",
    cpu = "//platforms/cpu:cortex_m33",
    fpu = "//platforms/fpu:fpv5_sp_d16",
    # The NPU is an AXI master: it reaches the SRAM and the DDR, not the CPU's TCMs. Its blob
    # (weights, command stream) is read in place from the program, and its scratch is in the
    # runtime's pool, so the program lives in the DDR and the data in the SRAM (as Arm's
    # Corstone-300 examples place networks and tensor arenas); the TCMs are left out of the map,
    # so that no placement puts an NPU buffer there.
    memory = [
        memory_region("FLASH", 0x70000000, 16 * 1024 * 1024, "rx"),  # DDR (Secure alias of 0x60000000)
        memory_region("RAM", 0x11000000, 2 * 1024 * 1024, "rwx"),  # SRAM (Secure alias of 0x01000000)
    ],
    stack_size = corstone300.stack_size,
    startup = CORTEX_M_SEMIHOSTING_STARTUP + ["//platforms/corstone300_npu:npu.c"],
    # Programs lowered for this Ethos-U55 configuration (executorch_model's `delegate`) build here.
    npu = "ethos-u55-128",
    instruction_model = "//python/machines/sse300:run",
)
