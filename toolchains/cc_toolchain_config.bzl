"""C toolchain configurations for Debian's GCCs: bare-metal cross compilers, and the host
compiler in 32-bit mode.

One `gcc_bare_metal_toolchain(...)` call declares, for one CPU/FPU pair, the
`cc_toolchain_config` (flags), the `cc_toolchain` and the `toolchain` that Bazel selects
when the target platform has those constraint values. The compilers are the system's
(`/usr/bin/<prefix>gcc`, from apt) and link against picolibc; startup code, linker script
and console come from the board (see //platforms), never from the C library.

`gcc_host_ilp32_toolchain(...)` declares the host GCC with `-m32 -malign-double`: x86
Linux programs whose data layout is our boards' (4-byte pointers, 8-byte aligned 64-bit
integers and doubles, as in the Arm AAPCS and the RISC-V ilp32 ABIs). Build-time tools that
must compute what the runtime's structures take on a board (//runtime/tools:pte_requirements)
are built with it.
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

# Host tools in 32-bit mode, with 64-bit types aligned as on the boards.
_HOST_ILP32_FLAGS = ["-m32", "-malign-double"]

def _config_impl(ctx):
    prefix = ctx.attr.tool_prefix
    tools = ["gcc", "ld", "ar", "cpp", "gcov", "nm", "objcopy", "objdump", "strip"]
    tool_paths = [tool_path(name = t, path = "/usr/bin/" + prefix + t) for t in tools]
    features = [
        feature(
            name = "tinypte_target_flags",
            enabled = True,
            flag_sets = [
                flag_set(actions = _COMPILE_ACTIONS, flag_groups = [flag_group(flags = ctx.attr.compile_flags)]),
                flag_set(actions = _LINK_ACTIONS, flag_groups = [flag_group(flags = ctx.attr.link_flags)]),
            ],
        ),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = ctx.attr.name,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = ctx.attr.target_system_name,
        target_cpu = ctx.attr.target_cpu,
        target_libc = ctx.attr.target_libc,
        compiler = "gcc",
        abi_version = ctx.attr.target_libc,
        abi_libc_version = ctx.attr.target_libc,
        tool_paths = tool_paths,
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
    )

cc_toolchain_config = rule(
    implementation = _config_impl,
    doc = "Tools and flags of one GCC configuration (a bare-metal core, or the host in 32-bit mode).",
    provides = [CcToolchainConfigInfo],
    attrs = {
        "tool_prefix": attr.string(doc = "Tool name prefix, e.g. `arm-none-eabi-`; empty for the host GCC."),
        "target_system_name": attr.string(mandatory = True, doc = "GNU triple of the target, e.g. `arm-none-eabi`."),
        "target_cpu": attr.string(mandatory = True, doc = "Bazel's target_cpu string for this toolchain."),
        "target_libc": attr.string(mandatory = True, doc = "C library: `picolibc` for boards, `glibc` on the host."),
        "compile_flags": attr.string_list(mandatory = True, doc = "Flags of every compile action (core, ISA, float ABI, code style)."),
        "link_flags": attr.string_list(mandatory = True, doc = "Flags of every link action."),
        "builtin_include_directories": attr.string_list(
            mandatory = True,
            doc = "System include directories of the compiler and its C library; Bazel's header checks allow them.",
        ),
    },
)

def _declare_toolchain(name, exec_constraints, target_constraints):
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
        exec_compatible_with = exec_constraints,
        target_compatible_with = target_constraints,
        toolchain = ":" + name + "_cc",
        toolchain_type = "@bazel_tools//tools/cpp:toolchain_type",
    )

_X86_64_LINUX = ["@platforms//os:linux", "@platforms//cpu:x86_64"]

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
        target_system_name = tool_prefix.rstrip("-"),
        target_cpu = name,
        target_libc = "picolibc",
        compile_flags = cpu_flags + _FIRMWARE_COMPILE_FLAGS,
        link_flags = cpu_flags + _FIRMWARE_LINK_FLAGS,
        builtin_include_directories = builtin_include_directories,
    )
    _declare_toolchain(name, _X86_64_LINUX, ["@platforms//os:none", cpu, fpu])

def gcc_host_ilp32_toolchain(*, name, builtin_include_directories):
    """Declares the host GCC in 32-bit mode for platforms with os:linux and cpu:x86_32.

    Needs Debian's gcc-multilib (tools/setup.sh installs it).

    Args:
      name: Base name of the generated targets (`<name>_config`, `<name>_cc`, `<name>`).
      builtin_include_directories: The compiler's system include directories (`gcc -m32`'s).
    """
    cc_toolchain_config(
        name = name + "_config",
        target_system_name = "i686-linux-gnu",
        target_cpu = name,
        target_libc = "glibc",
        compile_flags = _HOST_ILP32_FLAGS + ["-no-canonical-prefixes", "-fno-canonical-system-headers"],
        link_flags = _HOST_ILP32_FLAGS + ["-no-canonical-prefixes"],
        builtin_include_directories = builtin_include_directories,
    )
    _declare_toolchain(name, _X86_64_LINUX, ["@platforms//os:linux", "@platforms//cpu:x86_32"])
