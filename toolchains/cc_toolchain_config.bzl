"""C toolchain configuration for Debian's bare-metal GCC cross compilers.

One `gcc_bare_metal_toolchain(...)` call declares, for one CPU/FPU pair, the
`cc_toolchain_config` (flags), the `cc_toolchain` and the `toolchain` that Bazel selects
when the target platform has those constraint values. The compilers are the system's
(`/usr/bin/<prefix>gcc`, from apt) and link against picolibc; startup code, linker script
and console come from the board (see //platforms), never from the C library.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
)

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
]

# Size-first code for microcontrollers; each function and object in its own section so
# --gc-sections drops what nothing references; no unwind tables (C only, no exceptions).
_FIRMWARE_COMPILE_FLAGS = [
    "-Os",
    "-ffunction-sections",
    "-fdata-sections",
    "-fno-common",
    "-fno-unwind-tables",
    "-fno-asynchronous-unwind-tables",
    "--specs=picolibc.specs",
    # Reproducible objects: no build-time macros, no absolute paths.
    "-Wdate-time",
    "-no-canonical-prefixes",
    "-fno-canonical-system-headers",
]

_FIRMWARE_LINK_FLAGS = [
    "--specs=picolibc.specs",
    "-nostartfiles",
    "-Wl,--gc-sections",
    "-Wl,--build-id=none",
    "-no-canonical-prefixes",
]

def _config_impl(ctx):
    prefix = ctx.attr.tool_prefix
    tools = ["gcc", "ld", "ar", "cpp", "gcov", "nm", "objcopy", "objdump", "strip"]
    tool_paths = [tool_path(name = t, path = "/usr/bin/" + prefix + t) for t in tools]
    features = [
        feature(
            name = "tinypte_firmware_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = ctx.attr.cpu_flags + _FIRMWARE_COMPILE_FLAGS)],
                ),
                flag_set(
                    actions = _LINK_ACTIONS,
                    flag_groups = [flag_group(flags = ctx.attr.cpu_flags + _FIRMWARE_LINK_FLAGS)],
                ),
            ],
        ),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = ctx.attr.name,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = prefix.rstrip("-"),
        target_cpu = ctx.attr.target_cpu,
        target_libc = "picolibc",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "picolibc",
        tool_paths = tool_paths,
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
    )

cc_toolchain_config = rule(
    implementation = _config_impl,
    doc = "Flags and tools of a bare-metal GCC for one CPU/FPU pair.",
    provides = [CcToolchainConfigInfo],
    attrs = {
        "tool_prefix": attr.string(mandatory = True, doc = "Tool name prefix, e.g. `arm-none-eabi-`."),
        "target_cpu": attr.string(mandatory = True, doc = "Bazel's target_cpu string for this toolchain."),
        "cpu_flags": attr.string_list(mandatory = True, doc = "Flags selecting the core, ISA and float ABI (compile and link)."),
        "builtin_include_directories": attr.string_list(
            mandatory = True,
            doc = "System include directories of the compiler and picolibc; Bazel's header checks allow them.",
        ),
    },
)

def gcc_bare_metal_toolchain(*, name, tool_prefix, cpu, fpu, cpu_flags, builtin_include_directories):
    """Declares a cross C toolchain for platforms with constraint values `cpu` and `fpu`.

    Args:
      name: Base name of the generated targets (`<name>_config`, `<name>_cc`, `<name>`).
      tool_prefix: `arm-none-eabi-` or `riscv64-unknown-elf-`.
      cpu: A //platforms/cpu constraint value.
      fpu: A //platforms/fpu constraint value.
      cpu_flags: `-mcpu`/`-march`, `-mthumb`, `-mfpu`, `-mfloat-abi`/`-mabi` flags.
      builtin_include_directories: The compiler's system include directories.
    """
    cc_toolchain_config(
        name = name + "_config",
        tool_prefix = tool_prefix,
        target_cpu = name,
        cpu_flags = cpu_flags,
        builtin_include_directories = builtin_include_directories,
    )
    native.cc_toolchain(
        name = name + "_cc",
        toolchain_config = ":" + name + "_config",
        all_files = ":empty",
        ar_files = ":empty",
        as_files = ":empty",
        compiler_files = ":empty",
        dwp_files = ":empty",
        linker_files = ":empty",
        objcopy_files = ":empty",
        strip_files = ":empty",
        supports_param_files = True,
    )
    native.toolchain(
        name = name,
        exec_compatible_with = ["@platforms//os:linux", "@platforms//cpu:x86_64"],
        target_compatible_with = ["@platforms//os:none", cpu, fpu],
        toolchain = ":" + name + "_cc",
        toolchain_type = "@bazel_tools//tools/cpp:toolchain_type",
    )
