"""tinypte_firmware: a cc_binary linked for one board, reachable from a host build.

`bazel build //...` and `bazel test //...` run with the host platform. The firmware rule
applies a transition that sets `--platforms` to the board's platform for its binary, so
the binary (and everything it depends on) is compiled by that board's cross toolchain in
an output directory of its own. Firmware for every board, host tools and host tests are
then built side by side in one invocation. The firmware's `deps` (board-independent libraries:
the runtime, kernels, a model's program) are built for the board's per-CPU platform instead
(cpu_libraries.bzl), once for every board with that CPU; its `srcs`, `board_deps` and the
board's support library are built for the board.

Cores: on a board with `cores = 2` firmware is built for two cores unless the board's
`:cores` flag says "1" (`--//platforms/pico2w:cores=1`); `tinypte_firmware(cores = ...)`
fixes the count for one firmware (no transition: it links the board's support library for
that count and compiles with its `TP_BOARD_CORES`), and `firmware_with_cores` builds an
existing firmware with the flag set by a transition, e.g. a one-core image of a model next to
the default two-core one in the same build.
"""

load("//rules/private:board.bzl", "board_cores", "board_support")
load("//rules/private:common_attrs.bzl", "info_attr", "toolkit_action", "with_common_attrs")
load("//rules/private:cpu_libraries.bzl", "cpu_libraries")
load("//rules/private:host_transition.bzl", "CORES_FLAGS")
load("//rules:providers.bzl", "TinypteBoardInfo", "TinypteFirmwareInfo")

def _board_platform_transition_impl(settings, attr):
    return {"//command_line_option:platforms": str(attr.platform)}

_board_platform_transition = transition(
    implementation = _board_platform_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)

def _firmware_impl(ctx):
    binary = ctx.attr.binary[0]
    board = ctx.attr.board[TinypteBoardInfo]
    if ctx.attr.cores > board.cores:
        fail("{}: cores = {}, but board {} has {} core{} (its board.bzl says cores = {}): drop `cores` (or set it to {}), or build for a board with cores = 2".format(
            ctx.label,
            ctx.attr.cores,
            board.name,
            board.cores,
            "" if board.cores == 1 else "s",
            board.cores,
            board.cores,
        ))
    linked = binary[DefaultInfo].files_to_run.executable
    elf = ctx.outputs.elf
    size_text = ctx.outputs.size_text
    size_json = ctx.outputs.size_json

    # Budget check first: the .elf only exists if the firmware fits its board.
    size_args = [
        "--elf",
        linked.path,
        "--name",
        str(ctx.label),
        "--board",
        board.description.path,
        "--text",
        size_text.path,
        "--json",
        size_json.path,
    ]
    if ctx.attr.max_flash:
        size_args += ["--max-flash", str(ctx.attr.max_flash)]
    if ctx.attr.max_ram:
        size_args += ["--max-ram", str(ctx.attr.max_ram)]
    toolkit_action(
        ctx,
        "size",
        mnemonic = "FirmwareSize",
        arguments = size_args,
        inputs = [linked, board.description],
        outputs = [size_text, size_json],
        progress_message = "Checking flash and RAM of {} against board {}".format(ctx.label, board.name),
    )
    ctx.actions.run(
        executable = "cp",
        arguments = [linked.path, elf.path],
        inputs = [linked, size_text],
        outputs = [elf],
        mnemonic = "FirmwareElf",
        progress_message = "Firmware {} for board {}".format(ctx.label, board.name),
    )
    return [
        DefaultInfo(files = depset([elf]), runfiles = ctx.runfiles(files = [elf])),
        OutputGroupInfo(size = depset([size_text, size_json])),
        TinypteFirmwareInfo(elf = elf, board = board, cores = ctx.attr.cores, size_json = size_json, size_text = size_text),
    ]

_firmware = rule(
    implementation = _firmware_impl,
    doc = "Builds `binary` for `platform` (a transition) and exposes it as `<name>.elf`.",
    provides = [TinypteFirmwareInfo],
    # Predeclared, so other targets can name them: `:<name>.elf`, `:<name>.size.json`.
    outputs = {
        "elf": "%{name}.elf",
        "size_text": "%{name}.size.txt",
        "size_json": "%{name}.size.json",
    },
    attrs = with_common_attrs({
        "binary": attr.label(
            mandatory = True,
            cfg = _board_platform_transition,
            doc = "The cc_binary to link for the board.",
        ),
        "platform": attr.label(
            mandatory = True,
            doc = "The board's platform; the transition builds `binary` for it.",
        ),
        "board": info_attr(TinypteBoardInfo, "The board's `<board>_info` target."),
        "cores": attr.int(
            default = 1,
            values = [1, 2],
            doc = "The cores `binary` is built for (its TP_BOARD_CORES; `tinypte_firmware` passes the board's flag through a select, or the firmware's explicit `cores`). More than the board's `cores` fails the build.",
        ),
        "max_flash": attr.int(doc = "Flash budget in bytes, tighter than the board's flash region (0: the region)."),
        "max_ram": attr.int(doc = "RAM budget in bytes, tighter than the board's RAM region (0: the region)."),
    }, stages = ["size"], transitions = True),
)

def tinypte_firmware(
        *,
        name,
        board,
        srcs = [],
        deps = [],
        board_deps = [],
        copts = [],
        local_defines = [],
        max_flash = 0,
        max_ram = 0,
        stack_size = 0,
        cores = 0,
        tags = [],
        visibility = None):
    """A firmware image for one board.

    Creates `:<name>` (the ELF, as `<name>.elf`, with `TinypteFirmwareInfo`; output group
    `size` has its flash/RAM table, also printed during the build),
    `:<name>_bin`, the underlying cc_binary, which is only compatible with the board (so a
    host `bazel build //...` skips it and builds it through `:<name>` instead), and with
    `deps`, `:<name>_cpu_libs` (them, built for the board's per-CPU platform).

    Args:
      name: Target name.
      board: The board, a `board()` struct: one of `BOARDS` from
        `//platforms:boards.bzl`, or a board's `BOARD` from its `board.bzl`. Its
        start-up code and linker script are linked in automatically.
      srcs: C sources of the application (it provides `int main(void)`).
      deps: cc_library dependencies whose compile flags depend only on the board's CPU and
        FPU (the runtime, kernels, a model's program, board_api's headers): built once per
        CPU for every board that has it (`:<name>_cpu_libs`, a `cpu_libraries`), and linked
        before `board_deps`. They cannot see the board (its constraint value, `TP_BOARD_*`
        defines, the `:cores` or `:console` flags).
      board_deps: cc_library dependencies built for the board itself, for code that needs it
        (a library with `target_compatible_with` the board, board-placed data, `#if
        TP_BOARD_CORES` in a library), linked after `deps`.
      copts: Extra compiler options for `srcs`.
      local_defines: Preprocessor definitions for `srcs`.
      max_flash: Flash budget in bytes; the build fails above it (default: the region).
      max_ram: RAM budget in bytes (data + bss + stack); the build fails above it.
      stack_size: Bytes of main stack to reserve instead of the board's default (0: the
        board's `stack_size`). Size it from the app's needs to fit small RAM budgets.
      cores: The cores the firmware uses: 0 (default) follows the board (its `:cores` flag
        on a two-core board, "2" unless set; 1 elsewhere); 1 or 2 fixes it whatever the
        flag says. The app's sources and the board's support library are compiled with
        `TP_BOARD_CORES=<cores>` (test it with `#if TP_BOARD_CORES == 2`), and with 2 the
        board's `two_cores_srcs` are linked. 2 on a one-core board fails the build. Use
        `firmware_with_cores` instead to build one existing firmware both ways.
      tags: Tags for both targets.
      visibility: Visibility of `:<name>`.
    """
    if type(board) != "struct":
        fail("tinypte_firmware({}): board must be a board() struct, e.g. one of BOARDS from //platforms:boards.bzl; got {}".format(name, repr(board)))
    if cores not in (0, 1, 2):
        fail("tinypte_firmware({}): cores must be 0 (the board's default), 1 or 2; got {}".format(name, repr(cores)))
    cpu_deps = []
    if deps:
        cpu_libraries(
            name = name + "_cpu_libs",
            platform = board.cpu_platform,
            deps = deps,
            # Reached through the firmware: a host `bazel build //...` skips it as the binary.
            target_compatible_with = [board.constraint],
            tags = tags,
            visibility = ["//visibility:private"],
        )
        cpu_deps = [":" + name + "_cpu_libs"]
    native.cc_binary(
        name = name + "_bin",
        srcs = srcs,
        deps = cpu_deps + board_deps + [board_support(board, cores)],
        copts = copts,
        linkopts = ["-Wl,--defsym=__tp_stack_size={}".format(stack_size)] if stack_size else [],
        # TP_BOARD_CORES reaches `srcs` through the support library's `defines`.
        local_defines = local_defines,
        target_compatible_with = [board.constraint],
        tags = tags,
        visibility = ["//visibility:private"],
    )
    _firmware(
        name = name,
        binary = ":" + name + "_bin",
        platform = board.platform,
        board = board.info,
        cores = board_cores(board, cores),
        max_flash = max_flash,
        max_ram = max_ram,
        tags = tags,
        visibility = visibility,
    )

def _firmware_uf2_impl(ctx):
    firmware = ctx.attr.firmware[TinypteFirmwareInfo]
    board = firmware.board
    if not board.uf2_family_id:
        fail("{}: board {} declares no uf2_family_id, so {} cannot become a UF2; only boards flashed by copying a UF2 file set it in their board.bzl.".format(
            ctx.label,
            board.name,
            ctx.attr.firmware.label,
        ))
    flash = [r for r in board.memory if r.name == board.flash_region][0]
    uf2 = ctx.actions.declare_file(ctx.label.name + ".uf2")
    toolkit_action(
        ctx,
        "uf2",
        mnemonic = "FirmwareUf2",
        arguments = [
            "--elf",
            firmware.elf.path,
            "--out",
            uf2.path,
            "--family-id",
            board.uf2_family_id,
            "--flash-base",
            str(flash.origin),
            "--flash-size",
            str(flash.size),
        ],
        inputs = [firmware.elf],
        outputs = [uf2],
        progress_message = "UF2 for %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([uf2]), runfiles = ctx.runfiles(files = [uf2]))]

firmware_uf2 = rule(
    implementation = _firmware_uf2_impl,
    doc = """A UF2 file of a firmware, for boards flashed by drag and drop (the Pico 2 W:
hold BOOTSEL while plugging it in, then copy `<name>.uf2` to the RP2350 drive).
Only loadable ELF bytes are converted, and each must lie in the board's flash region.""",
    attrs = with_common_attrs({
        "firmware": info_attr(TinypteFirmwareInfo, "A tinypte_firmware for a board with a `uf2_family_id`."),
    }, stages = ["uf2"]),
)

def _cores_transition_impl(settings, attr):
    return {flag: str(attr.cores) for flag in CORES_FLAGS}

_cores_transition = transition(
    implementation = _cores_transition_impl,
    inputs = [],
    outputs = CORES_FLAGS,
)

def _firmware_with_cores_impl(ctx):
    info = ctx.attr.firmware[0][TinypteFirmwareInfo]
    board = info.board
    if ctx.attr.cores > board.cores:
        fail("{}: cores = {}, but {} is for board {}, which has {} core{} (its board.bzl says cores = {}): use cores = {}, or a firmware for a board with cores = 2".format(
            ctx.label,
            ctx.attr.cores,
            ctx.attr.firmware[0].label,
            board.name,
            board.cores,
            "" if board.cores == 1 else "s",
            board.cores,
            board.cores,
        ))
    if info.cores != ctx.attr.cores:
        fail("{}: {} was built for {} core(s), not {}: it fixes its own `cores` (build it with cores = 0), or its board's :cores flag is missing from CORES_FLAGS in rules/private/host_transition.bzl".format(
            ctx.label,
            ctx.attr.firmware[0].label,
            info.cores,
            ctx.attr.cores,
        ))

    # Copies under this target's name: the original's runfiles paths are those of the firmware
    # built with the command line's cores, so a target that has both would see only one.
    copies = []
    for original, suffix in ((info.elf, ".elf"), (info.size_json, ".size.json"), (info.size_text, ".size.txt")):
        copy = ctx.actions.declare_file(ctx.label.name + suffix)
        ctx.actions.run(
            executable = "cp",
            arguments = [original.path, copy.path],
            inputs = [original],
            outputs = [copy],
            mnemonic = "FirmwareCopy",
            progress_message = "Firmware {} with {} core(s)".format(ctx.label, ctx.attr.cores),
        )
        copies.append(copy)
    elf, size_json, size_text = copies
    return [
        DefaultInfo(files = depset([elf]), runfiles = ctx.runfiles(files = [elf])),
        OutputGroupInfo(size = depset([size_text, size_json]), size_json = depset([size_json])),
        TinypteFirmwareInfo(elf = elf, board = board, cores = info.cores, size_json = size_json, size_text = size_text),
    ]

firmware_with_cores = rule(
    implementation = _firmware_with_cores_impl,
    doc = """A firmware built with its board's `:cores` flag set to `cores`, whatever the command line says.

A two-core board's firmware is built for two cores by default; this gives the same firmware
for one core (or two, when the command line says one) beside it in one build, e.g. for the
perf bench:

    firmware_with_cores(
        name = "sine_pico2w_one_core",
        firmware = "//models/sine:pico2w_elf",
        cores = 1,
    )

It provides `TinypteFirmwareInfo` (so qemu_test, instruction_model_test and firmware_uf2 take it) with
the ELF and size reports copied to `<name>.elf`, `<name>.size.json`, `<name>.size.txt`
(output group `size`). The transition puts the firmware and what it is built from in a
configuration of their own (the kernels, runtime and app are compiled again, once per
`cores` value); the model's program and its AOT work are not (host_transition.bzl resets the
flags). `cores` above the board's fails the build, and so does a firmware whose own `cores`
argument fixes another count.""",
    provides = [TinypteFirmwareInfo],
    attrs = with_common_attrs({
        "firmware": info_attr(TinypteFirmwareInfo, "A `tinypte_firmware` (or model_firmware's `<board>_elf`) built with `cores = 0`.", cfg = _cores_transition),
        "cores": attr.int(
            mandatory = True,
            values = [1, 2],
            doc = "The value every two-core board's `:cores` flag gets for `firmware`.",
        ),
    }, transitions = True),
)
