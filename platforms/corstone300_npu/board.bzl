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

# corstone300's regions by name: the map is stated there once (and the machine model's,
# python/machines/sse300/memory_map.py, is checked against it by ./tests:memory_map_test).
_CORSTONE300 = {region.name: region for region in corstone300.memory}
_DDR = _CORSTONE300["DDR"]
_SRAM = _CORSTONE300["SRAM"]

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
        memory_region("FLASH", _DDR.origin, _DDR.size, "rx"),
        memory_region("RAM", _SRAM.origin, _SRAM.size, "rwx"),
    ],
    stack_size = corstone300.stack_size,
    startup = CORTEX_M_SEMIHOSTING_STARTUP + ["//platforms/corstone300_npu:npu.c"],
    # Programs lowered for this Ethos-U55 configuration (executorch_model's `delegate`) build here.
    npu = "ethos-u55-128",
    instruction_model = Label("//python/machines/sse300:run"),
)
