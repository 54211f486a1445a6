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
    asserts.equals(env, 1, board.cores)
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

def _two_core_board_info_test_impl(ctx):
    env = analysistest.begin(ctx)
    board = analysistest.target_under_test(env)[TinypteBoardInfo]
    asserts.equals(env, 2, board.cores)
    return analysistest.end(env)

two_core_board_info_test = analysistest.make(_two_core_board_info_test_impl)

def _firmware_cores_test_impl(ctx):
    env = analysistest.begin(ctx)
    firmware = analysistest.target_under_test(env)[TinypteFirmwareInfo]
    asserts.equals(env, ctx.attr.cores, firmware.cores, "cores of {}".format(analysistest.target_under_test(env).label))
    if ctx.attr.elf:
        asserts.equals(env, ctx.attr.elf, firmware.elf.basename)
    return analysistest.end(env)

_FIRMWARE_CORES_ATTRS = {
    "cores": attr.int(mandatory = True, doc = "The cores TinypteFirmwareInfo must say."),
    "elf": attr.string(doc = "The ELF's expected basename, if checked."),
}

# `cores` of a firmware, with its board's flag at its default...
firmware_cores_test = analysistest.make(_firmware_cores_test_impl, attrs = _FIRMWARE_CORES_ATTRS)

# ... and with the two-core fixture's flag set to "1".
firmware_cores_flag_one_test = analysistest.make(
    _firmware_cores_test_impl,
    attrs = _FIRMWARE_CORES_ATTRS,
    config_settings = {"//rules/tests:cores": "1"},
)

def _compiles(env):
    return [a for a in analysistest.target_actions(env) if a.mnemonic == "CppCompile"]

def _cores_define_test_impl(ctx):
    # A C++ compile's argv is not visible to Starlark in Bazel 4.2.3, so this reads the
    # defines its compilation context gives it: `defines` (from deps: the support library's
    # reach the firmware's own sources) and `local_defines` (model_firmware's app library).
    env = analysistest.begin(ctx)
    context = analysistest.target_under_test(env)[CcInfo].compilation_context
    defines = [d for d in context.defines.to_list() + context.local_defines.to_list() if d.startswith("TP_BOARD_CORES=")]
    asserts.equals(env, [ctx.attr.define], defines, "TP_BOARD_CORES of {}".format(analysistest.target_under_test(env).label))
    return analysistest.end(env)

_CORES_DEFINE_ATTRS = {"define": attr.string(mandatory = True, doc = "`TP_BOARD_CORES=<n>` the target's compiles must have, once.")}

def _board_settings(board, cores = None):
    settings = {"//command_line_option:platforms": board}
    if cores:
        settings["//rules/tests:cores"] = cores
    return settings

# The compiles of a board target (a firmware's cc_binary, its app, its support library), built
# for the two-core fixture with its flag at its default, with the flag at "1", and for the AN521.
cores_define_test = analysistest.make(
    _cores_define_test_impl,
    attrs = _CORES_DEFINE_ATTRS,
    config_settings = _board_settings("//rules/tests:fixture_two_cores"),
)

cores_define_flag_one_test = analysistest.make(
    _cores_define_test_impl,
    attrs = _CORES_DEFINE_ATTRS,
    config_settings = _board_settings("//rules/tests:fixture_two_cores", "1"),
)

an521_cores_define_test = analysistest.make(
    _cores_define_test_impl,
    attrs = _CORES_DEFINE_ATTRS,
    config_settings = _board_settings("//platforms/mps2_an521"),
)

def _support_sources_test_impl(ctx):
    env = analysistest.begin(ctx)
    sources = [f.basename for a in _compiles(env) for f in a.inputs.to_list() if f.extension == "c"]
    asserts.equals(env, ctx.attr.two_cores_srcs, "tiny_two_cores_board.c" in sources, "tiny_two_cores_board.c compiled in {}".format(sources))
    return analysistest.end(env)

# Whether a support library of the two-core fixture compiles its two_cores_srcs.
support_sources_test = analysistest.make(
    _support_sources_test_impl,
    attrs = {"two_cores_srcs": attr.bool(doc = "Whether tiny_two_cores_board.c must be compiled.")},
    config_settings = _board_settings("//rules/tests:fixture_two_cores"),
)

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

def misuse_test(*, rule, name, message, test_target = None, **kwargs):
    """A target that must fail analysis, and the test `<name>_test` that says it does.

    Args:
      rule: the rule or macro misused; called as rule(name = name, tags = ["manual"], **kwargs)
        (manual: `bazel build //...` must not build it).
      name: the misused target's name.
      message: a part of the failure message that must appear.
      test_target: what the test analyses when it is not `:<name>` (a target a macro made).
      **kwargs: the misused target's other attributes.
    """
    rule(name = name, tags = ["manual"], **kwargs)
    expect_analysis_failure_test(
        name = name + "_test",
        message = message,
        target_under_test = test_target or ":" + name,
    )

def _archives(target):
    return [
        library.static_library or library.pic_static_library
        for linker_input in target[CcInfo].linking_context.linker_inputs.to_list()
        for library in linker_input.libraries
    ]

def _cpu_libraries_test_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.equals(env, ["libformat.a"], [f.basename for f in _archives(analysistest.target_under_test(env))])
    shared = [[f.path for f in _archives(target)] for target in ctx.attr.same_cpu]
    asserts.equals(env, 1, len({repr(paths): None for paths in shared}), "boards with one CPU link one build of the library, got {}".format(shared))
    other = [f.path for f in _archives(ctx.attr.other_cpu)]
    asserts.false(env, other == shared[0], "another CPU links its own build, got {} for both".format(other))
    return analysistest.end(env)

# cpu_libraries passes its deps' CcInfo on, built in one configuration per CPU: the same
# archive for every board with that CPU (`same_cpu`), another for another CPU (`other_cpu`).
cpu_libraries_test = analysistest.make(
    _cpu_libraries_test_impl,
    attrs = {
        "same_cpu": attr.label_list(doc = "cpu_libraries targets of boards with one CPU and FPU, with the same deps."),
        "other_cpu": attr.label(doc = "A cpu_libraries target with the same deps for another CPU."),
    },
)
