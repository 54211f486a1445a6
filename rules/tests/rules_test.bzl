"""Analysis tests of tinypte's rules (skylib analysistest): providers, generated files,
action mnemonics, and the error messages of misuse."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules:providers.bzl", "TinypteBoardInfo", "TinypteFirmwareInfo", "TinypteKernelRegistryInfo")

def _board_info_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    board = target[TinypteBoardInfo]
    asserts.equals(env, "fixture_emulated", board.name)
    asserts.equals(env, ["FLASH", "RAM"], [r.name for r in board.memory])
    asserts.equals(env, [0x10000000, 0x38000000], [r.origin for r in board.memory])
    asserts.equals(env, [64 * 1024, 32 * 1024], [r.size for r in board.memory])
    asserts.equals(env, ["rx", "rwx"], [r.access for r in board.memory])
    asserts.equals(env, 4 * 1024, board.stack_size)
    asserts.equals(env, "mps2-an505", board.emulator.machine)
    asserts.equals(env, "cortex-m33", board.emulator.cpu)
    asserts.equals(env, "fixture_emulated.ld", board.linker_script.basename)
    asserts.equals(env, "fixture_emulated.board.json", board.description.basename)
    asserts.equals(env, "", board.uf2_family_id)
    link_flags = []
    for linker_input in target[CcInfo].linking_context.linker_inputs.to_list():
        link_flags += linker_input.user_link_flags
    asserts.equals(env, ["-T", board.linker_script.path], link_flags)
    return analysistest.end(env)

board_info_test = analysistest.make(_board_info_test_impl)

def _build_only_board_test_impl(ctx):
    env = analysistest.begin(ctx)
    board = analysistest.target_under_test(env)[TinypteBoardInfo]
    asserts.equals(env, None, board.emulator, "a board without emulator has emulator None")
    asserts.equals(env, ["FLASH", "RAM", "SCRATCH"], [r.name for r in board.memory])
    return analysistest.end(env)

build_only_board_test = analysistest.make(_build_only_board_test_impl)

def _firmware_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    firmware = target[TinypteFirmwareInfo]
    asserts.equals(env, "tiny_emulated.elf", firmware.elf.basename)
    asserts.equals(env, "fixture_emulated", firmware.board.name)
    mnemonics = [a.mnemonic for a in analysistest.target_actions(env)]
    asserts.equals(env, ["FirmwareSize", "FirmwareElf"], mnemonics)
    return analysistest.end(env)

firmware_test = analysistest.make(_firmware_test_impl)

def _kernel_registry_test_impl(ctx):
    env = analysistest.begin(ctx)
    target = analysistest.target_under_test(env)
    registry = target[TinypteKernelRegistryInfo]
    asserts.equals(env, "sine_firmware_kernels_registry.c", registry.registry_c.basename)
    asserts.equals(env, "sine_firmware_kernels_registry.json", registry.kernels_json.basename)
    asserts.equals(env, ["//models/sine:sine"], [str(m) for m in registry.models])
    actions = analysistest.target_actions(env)
    asserts.equals(env, ["KernelRegistry"], [a.mnemonic for a in actions])
    inputs = [f.basename for f in actions[0].inputs.to_list()]
    asserts.true(env, "sine_aot.ops.json" in inputs, "the registry action reads the model's ops.json")
    asserts.true(env, "addmm.c" in inputs, "the registry action scans the kernel sources")
    return analysistest.end(env)

kernel_registry_test = analysistest.make(_kernel_registry_test_impl)

def _expect_failure_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

expect_analysis_failure_test = analysistest.make(
    _expect_failure_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True)},
)
