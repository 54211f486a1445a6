"""model_library: one program as a static library for firmware built elsewhere (CMake, Make).

    load("//rules:defs.bzl", "model_library")

    model_library(
        name = "sine_lib_cortex_m33",
        model = ":sine",                                    # an executorch_model (or executorch_program)
        cpu_platform = "//platforms/cpu:cortex_m33_fpv5_sp_d16",
    )

gives `:sine_lib_cortex_m33` (a directory `sine_lib_cortex_m33/` and `sine_lib_cortex_m33.tar`
holding `tinypte_sine/` with):

    lib/libtinypte_sine.a                 one object: the runtime, exactly the kernels the program
                                          calls, the program (its .pte as a C array), its planned
                                          buffers and state pool (static), and the API; only
                                          sine_init, sine_run and sine_reason are global
    include/sine.h                        the API (tools/model_library.py renders it)
    cmake/tinypte_sineConfig.cmake        imported target tinypte::sine; stops the configure step
                                          of a project for another CPU or float ABI, naming both
    CMakeLists.txt                        the same for add_subdirectory()
    tinypte_sine.mk                       the same for Make
    README.md                             the lines an application adds

The C code is compiled by the CPU's cross toolchain with tinypte's firmware flags, through
cpu_libraries (the same objects the board firmware of that CPU links), then linked into one
relocatable object (`ld -r --gc-sections` from the API's symbols, so unreferenced kernels and
the golden data are dropped) and archived with `ar D` (no timestamps, owners or modes). The tar
is sorted, with zero times and owners.
"""

load("//rules:providers.bzl", "TinyptePteInfo")
load("//python:defs.bzl", "tinypte_py_test")
load("//rules/private:common_attrs.bzl", "info_attr")
load("//rules/private:cpu_libraries.bzl", "cpu_libraries")
load("//rules/private:labels.bzl", "TINYPTE_REPOSITORY", "tinypte_label")
load("//rules/private:model_firmware.bzl", "model_app_data")
load("//rules/private:requirements.bzl", "kernels_and_requirements")

# Per-CPU platform -> what the package says about it: the -mcpu/-march value, the float ABI
# (-mfloat-abi/-mabi), the //platforms/cpu constraint value, the compile flags (toolchains/BUILD.bazel's), binutils' prefix, flags `ld -r` needs, and the
# CMAKE_SYSTEM_PROCESSOR values accepted for it.
LIBRARY_CPUS = {
    "//platforms/cpu:cortex_m33_fpv5_sp_d16": struct(
        cpu = "cortex-m33",
        constraint = "//platforms/cpu:cortex_m33",
        float_abi = "hard",
        flags = ["-mcpu=cortex-m33", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-sp-d16"],
        tool_prefix = "/usr/bin/arm-none-eabi-",
        ld_flags = [],
        processors = ["cortex-m33", "arm", "armv8-m.main"],
    ),
    "//platforms/cpu:cortex_m55_mve_fp": struct(
        cpu = "cortex-m55",
        constraint = "//platforms/cpu:cortex_m55",
        float_abi = "hard",
        flags = ["-mcpu=cortex-m55", "-mthumb", "-mfloat-abi=hard"],
        tool_prefix = "/usr/bin/arm-none-eabi-",
        ld_flags = [],
        processors = ["cortex-m55", "arm", "armv8.1-m.main"],
    ),
    "//platforms/cpu:cortex_m7_fpv5_d16": struct(
        cpu = "cortex-m7",
        constraint = "//platforms/cpu:cortex_m7",
        float_abi = "hard",
        flags = ["-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"],
        tool_prefix = "/usr/bin/arm-none-eabi-",
        ld_flags = [],
        processors = ["cortex-m7", "arm", "armv7e-m"],
    ),
    "//platforms/cpu:rv32imac_none": struct(
        cpu = "rv32imac",
        constraint = "//platforms/cpu:rv32imac",
        float_abi = "ilp32",
        flags = ["-march=rv32imac", "-mabi=ilp32", "-mcmodel=medany"],
        tool_prefix = "/usr/bin/riscv64-unknown-elf-",
        # The riscv64 binutils link rv64 unless told otherwise.
        ld_flags = ["-m", "elf32lriscv"],
        processors = ["rv32imac", "riscv32", "riscv"],
    ),
}

def _library_api_impl(ctx):
    info = ctx.attr.model[TinyptePteInfo]
    header = ctx.actions.declare_file("{}/{}.h".format(ctx.label.name, info.name))
    source = ctx.actions.declare_file("{}/{}_api.c".format(ctx.label.name, info.name))
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = ["api", "--name", info.name, "--cpu", ctx.attr.cpu, "--golden", info.golden.path, "--pte", info.pte.path, "--out-h", header.path, "--out-c", source.path],
        inputs = [info.golden, info.pte],
        outputs = [header, source],
        mnemonic = "ModelLibraryApi",
        progress_message = "Generating the library API of %s" % info.name,
    )
    return [DefaultInfo(files = depset([header, source]))]

_library_api = rule(
    implementation = _library_api_impl,
    doc = "`<name>/<model>.h` and `<name>/<model>_api.c`: the library's generated API.",
    attrs = {
        "model": info_attr(TinyptePteInfo, "The executorch_model whose program the API runs (one input, one output)."),
        "cpu": attr.string(mandatory = True, doc = "The CPU the header says the library is built for."),
        "_tool": attr.label(default = "//tools:model_library", executable = True, cfg = "exec"),
    },
)

def _model_archive_impl(ctx):
    info = ctx.attr.model[TinyptePteInfo]
    cpu = LIBRARY_CPUS[ctx.attr.cpu_platform]
    archives = []
    for linker_input in ctx.attr.libs[CcInfo].linking_context.linker_inputs.to_list():
        for library in linker_input.libraries:
            archive = library.static_library or library.pic_static_library
            if archive and archive not in archives:
                archives.append(archive)
    header = [f for f in ctx.files.api if f.extension == "h"][0]
    out_dir = ctx.actions.declare_directory(ctx.label.name)
    out_tar = ctx.actions.declare_file(ctx.label.name + ".tar")
    args = ctx.actions.args()
    args.add_all(["package", "--name", info.name, "--cpu", cpu.cpu, "--float-abi", cpu.float_abi])
    args.add("--cpu-flags", " ".join(cpu.flags))
    for processor in cpu.processors:
        args.add("--processor", processor)
    for flag in cpu.ld_flags:
        args.add("--ld-flag=" + flag)
    args.add_all(["--tool-prefix", cpu.tool_prefix, "--golden", info.golden, "--header", header])
    args.add_all("--archives", archives)
    args.add_all(["--out-dir", out_dir.path, "--out-tar", out_tar])
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = [args],
        inputs = archives + [header, info.golden],
        outputs = [out_dir, out_tar],
        mnemonic = "ModelLibrary",
        progress_message = "Packaging %s as a library for %s" % (info.name, cpu.cpu),
    )
    return [
        DefaultInfo(files = depset([out_dir, out_tar]), runfiles = ctx.runfiles(files = [out_dir, out_tar])),
        OutputGroupInfo(tar = depset([out_tar]), tree = depset([out_dir])),
    ]

_model_archive = rule(
    implementation = _model_archive_impl,
    doc = "The library's directory and tar (see the file's docstring).",
    attrs = {
        "model": info_attr(TinyptePteInfo, "The executorch_model packaged."),
        "libs": attr.label(mandatory = True, providers = [CcInfo], doc = "The cpu_libraries target holding the API and everything it links."),
        "api": attr.label(mandatory = True, doc = "The _library_api target (its header is copied)."),
        "cpu_platform": attr.string(mandatory = True, values = LIBRARY_CPUS.keys(), doc = "A key of LIBRARY_CPUS."),
        "_tool": attr.label(default = "//tools:model_library", executable = True, cfg = "exec"),
    },
)

def model_library(*, name, model, cpu_platform, srcs = [], compare_firmware = None, visibility = None, tags = []):
    """One program as a library for one CPU (see the file's docstring).

    Args:
      name: Target name: the directory `<name>/` and `<name>.tar`; also the prefix of the helper
        targets (`<name>_kernels`, `<name>_requirements`, `<name>_app_data`, `<name>_api`,
        `<name>_cpu_libs`).
      model: An executorch_model (or executorch_program) written with its target name
        (":sine"); its program must have one input and one output (sine_run(in, out)). The C
        prefix of the API is the model's name.
      cpu_platform: The per-CPU platform to compile for, one of LIBRARY_CPUS'
        (`//platforms/cpu:cortex_m33_fpv5_sp_d16`, `:cortex_m55_mve_fp`, `:cortex_m7_fpv5_d16`,
        `:rv32imac_none`): the toolchain, CPU, FPU and float ABI of the application's.
      srcs: Kernels of your own (C files with TP_KERNEL definitions), as for model_firmware.
      compare_firmware: Optional: tinypte's own firmware of the same program on a board with
        this CPU (model_firmware's `:<board>_elf`). Adds `:<name>_size_test`, which prints the
        library's flash by part and its runtime + kernels code against the firmware's (the same
        symbols), and fails when they differ by more than 1 KiB (`bazel run` it to read it).
      visibility: Visibility of `:<name>`.
      tags: Tags of every target.
    """
    # "@tinypte//platforms/cpu:..." from a workspace that has tinypte as a dependency.
    if TINYPTE_REPOSITORY and cpu_platform.startswith(TINYPTE_REPOSITORY + "//"):
        cpu_platform = cpu_platform[len(TINYPTE_REPOSITORY):]
    if cpu_platform not in LIBRARY_CPUS:
        fail("model_library({}): cpu_platform {} is not one of {}".format(name, repr(cpu_platform), sorted(LIBRARY_CPUS.keys())))
    if ":" not in model:
        fail("model_library({}): write model as a label with a target name, e.g. \":sine\"; got {}".format(name, repr(model)))
    kernels, requirements = kernels_and_requirements(name = name, model = model, srcs = srcs, tags = tags)
    model_app_data(
        name = name + "_app_data",
        model = model,
        requirements = requirements,
        tags = tags,
    )
    _library_api(name = name + "_api", model = model, cpu = LIBRARY_CPUS[cpu_platform].cpu, tags = tags)
    native.cc_library(
        name = name + "_api_lib",
        srcs = [":" + name + "_api", ":" + name + "_app_data"],
        includes = [name + "_api"],
        deps = [kernels, model + "_program", tinypte_label("//runtime"), tinypte_label("//runtime/app:headers"), tinypte_label("//runtime/app:model_one_core")],
        # Compiled for the CPU only (its data layout checks are the board's), through cpu_libraries.
        target_compatible_with = [tinypte_label(LIBRARY_CPUS[cpu_platform].constraint)],
        tags = tags,
    )
    cpu_libraries(
        name = name + "_cpu_libs",
        platform = tinypte_label(cpu_platform),
        deps = [":" + name + "_api_lib"],
        tags = tags,
    )
    _model_archive(
        name = name,
        model = model,
        libs = ":" + name + "_cpu_libs",
        api = ":" + name + "_api",
        cpu_platform = cpu_platform,
        tags = tags,
        visibility = visibility,
    )
    if compare_firmware:
        tinypte_py_test(
            name = name + "_size_test",
            srcs = [tinypte_label("//tools:model_library.py")],
            main = tinypte_label("//tools:model_library.py"),
            args = [
                "sizes",
                "--name",
                model.split(":")[-1],
                "--library",
                "$(rootpaths :{})".format(name),
                "--firmware",
                "$(rootpath {})".format(compare_firmware),
                "--nm",
                LIBRARY_CPUS[cpu_platform].tool_prefix + "nm",
            ],
            data = [":" + name, compare_firmware],
            deps = [tinypte_label(d) for d in ["//python/tinypte/firmware", "//python/tinypte/golden:format", "//python/tinypte/program_files"]],
            tags = tags,
        )
