"""tinypte_firmware: a cc_binary linked for one board, reachable from a host build.

`bazel build //...` and `bazel test //...` run with the host platform. The firmware rule
applies a transition that sets `--platforms` to the board's platform for its binary, so
the binary (and everything it depends on) is compiled by that board's cross toolchain in
an output directory of its own. Firmware for every board, host tools and host tests are
then built side by side in one invocation.
"""

load("//rules/private:common_attrs.bzl", "toolkit_action", "with_common_attrs")
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
        subcommand = "size",
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
        TinypteFirmwareInfo(elf = elf, board = board, size_json = size_json, size_text = size_text),
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
        "board": attr.label(
            mandatory = True,
            providers = [TinypteBoardInfo],
            doc = "The board's `<board>_info` target.",
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
        copts = [],
        local_defines = [],
        max_flash = 0,
        max_ram = 0,
        stack_size = 0,
        tags = [],
        visibility = None):
    """A firmware image for one board.

    Creates `:<name>` (the ELF, as `<name>.elf`, with `TinypteFirmwareInfo`; output group
    `size` has its flash/RAM table, also printed during the build) and
    `:<name>_bin`, the underlying cc_binary, which is only compatible with the board (so a
    host `bazel build //...` skips it and builds it through `:<name>` instead).

    Args:
      name: Target name.
      board: The board, a `board()` struct: one of `BOARDS` from
        `//platforms:boards.bzl`, or a board's `BOARD` from its `board.bzl`. Its
        start-up code and linker script are linked in automatically.
      srcs: C sources of the application (it provides `int main(void)`).
      deps: cc_library dependencies, built for the board.
      copts: Extra compiler options for `srcs`.
      local_defines: Preprocessor definitions for `srcs`.
      max_flash: Flash budget in bytes; the build fails above it (default: the region).
      max_ram: RAM budget in bytes (data + bss + stack); the build fails above it.
      stack_size: Bytes of main stack to reserve instead of the board's default (0: the
        board's `stack_size`). Size it from the app's needs to fit small RAM budgets.
      tags: Tags for both targets.
      visibility: Visibility of `:<name>`.
    """
    if type(board) != "struct":
        fail("tinypte_firmware({}): board must be a board() struct, e.g. one of BOARDS from //platforms:boards.bzl; got {}".format(name, repr(board)))
    native.cc_binary(
        name = name + "_bin",
        srcs = srcs,
        deps = deps + [board.support],
        copts = copts,
        linkopts = ["-Wl,--defsym=__tp_stack_size={}".format(stack_size)] if stack_size else [],
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
        subcommand = "uf2",
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
        "firmware": attr.label(
            mandatory = True,
            providers = [TinypteFirmwareInfo],
            doc = "A tinypte_firmware for a board with a `uf2_family_id`.",
        ),
    }, stages = ["uf2"]),
)
