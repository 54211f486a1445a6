"""model_firmware: one model's inference firmware for a list of boards, with QEMU tests.

    model_firmware(
        name = "sine_firmware",          # prefix of the cc_library targets
        model = ":sine",                 # an executorch_model
        boards = ["mps2_an505", "corstone300", "stm32h7", "rv32imac", "rv32imafc", "pico2w"],
    )

creates, for each board B:
    :B_elf   the firmware (tinypte_firmware), size-checked against the board
    :B_test  a qemu_test running it (boards with an emulator); it passes when every golden
             output is within the model's tolerance of PyTorch's
and for boards that take UF2 images (pico2w) :B_uf2. Shared by all boards:
    :<name>_kernels   kernel_library with only the kernels the model's program calls
and per board :<name>_<board>_app_data, the generated static data (program, golden data,
arena, pool), which first checks that the model can fit the board at all.

The model is built once for all boards: its attribute here (and in kernel_library)
transitions back to //platforms/host, so training is not repeated per board.
"""

load("//rules:providers.bzl", "TinypteBoardInfo", "TinyptePteInfo")
load("//rules/private:firmware.bzl", "board_labels", "firmware_uf2", "tinypte_firmware")
load("//rules/private:host_transition.bzl", "host_transition")
load("//rules/private:kernels.bzl", "kernel_library")
load("//rules/private:qemu_test.bzl", "qemu_test")

# Boards the macro knows: platform label, whether QEMU runs it, whether it takes a UF2.
BOARDS = {
    "mps2_an505": struct(platform = "//platforms/mps2_an505", emulated = True, uf2 = False),
    "corstone300": struct(platform = "//platforms/corstone300", emulated = True, uf2 = False),
    "stm32h7": struct(platform = "//platforms/stm32h7", emulated = True, uf2 = False),
    "rv32imac": struct(platform = "//platforms/rv32:rv32imac", emulated = True, uf2 = False),
    "rv32imafc": struct(platform = "//platforms/rv32:rv32imafc", emulated = True, uf2 = False),
    "pico2w": struct(platform = "//platforms/pico2w", emulated = False, uf2 = True),
}

def _model_app_data_impl(ctx):
    info = ctx.attr.model[0][TinyptePteInfo]
    out = ctx.actions.declare_file(ctx.label.name + ".c")
    args = ["app_data", "--pte", info.pte.path, "--golden", info.golden.path, "--name", ctx.attr.display_name or info.name, "--out-c", out.path]
    inputs = [info.pte, info.golden]
    if ctx.attr.board:
        board = ctx.attr.board[TinypteBoardInfo]
        args += ["--board", board.description.path, "--stack-size", str(ctx.attr.stack_size)]
        inputs.append(board.description)
    if ctx.attr.corrupt_golden >= 0:
        args += ["--corrupt-golden", str(ctx.attr.corrupt_golden)]
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = args,
        inputs = inputs,
        outputs = [out],
        mnemonic = "ModelAppData",
        progress_message = "Generating firmware data for %s" % info.name,
    )
    return [DefaultInfo(files = depset([out]))]

model_app_data = rule(
    implementation = _model_app_data_impl,
    doc = "The static data of a model's inference firmware (see python/tinypte/app_data.py).",
    attrs = {
        "model": attr.label(
            mandatory = True,
            providers = [TinyptePteInfo],
            cfg = host_transition,
            doc = "The executorch_model whose program and golden data the firmware carries.",
        ),
        "board": attr.label(
            providers = [TinypteBoardInfo],
            doc = "The board (`<board>_info`) to check the model's memory needs against before compiling.",
        ),
        "stack_size": attr.int(doc = "Stack reserve of the firmware in bytes (0: the board's)."),
        "display_name": attr.string(doc = "Model name the firmware prints (default: the model target's name)."),
        "corrupt_golden": attr.int(
            default = -1,
            doc = "Test builds only: shift this golden case's expected output by 1.0, so the firmware must fail.",
        ),
        "_tool": attr.label(default = "//python:tinypte", executable = True, cfg = "exec"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def _expected_output(model_name, board):
    return [
        "^tinypte: model={} board={} inferences=[1-9][0-9]* failures=0 .* PASS$".format(model_name, board),
    ]

def model_firmware(
        *,
        name,
        model,
        boards,
        max_flash = {},
        max_ram = {},
        stack_size = {},
        corrupt_golden = -1,
        test_tags = [],
        tags = []):
    """Inference firmware of `model` for each of `boards` (see the file's docstring).

    Args:
      name: prefix of the shared targets (`<name>_kernels`, `<name>_<board>_app_data`).
      model: label of an executorch_model in this package, e.g. ":sine".
      boards: board names from BOARDS.
      max_flash: per-board flash budgets in bytes, e.g. {"pico2w": 24 * 1024}.
      max_ram: per-board RAM budgets in bytes (data + bss + stack).
      stack_size: per-board main stack reserve in bytes (default: the board's).
      corrupt_golden: test builds only (see model_app_data).
      test_tags: tags of the qemu tests (e.g. ["manual"] for deliberately failing ones).
      tags: tags of every target.
    """
    model_name = model.split(":")[-1]
    kernel_library(name = name + "_kernels", models = [model], tags = tags)
    kernels = ":" + name + "_kernels"
    for board in boards:
        if board not in BOARDS:
            fail("model_firmware: unknown board {}; known: {}".format(repr(board), ", ".join(BOARDS.keys())))
        spec = BOARDS[board]
        package, board_name = board_labels(spec.platform)
        board_info = "{}:{}_info".format(package, board_name)
        app = "{}_{}_app".format(name, board)
        model_app_data(
            name = app + "_data",
            model = model,
            board = board_info,
            stack_size = stack_size.get(board, 0),
            display_name = model_name,
            corrupt_golden = corrupt_golden,
            tags = tags,
        )
        native.cc_library(
            name = app,
            srcs = [
                ":" + app + "_data",
                "//runtime/app:sources",
            ],
            deps = [
                kernels,
                "//platforms/common:board_api",
                "//runtime",
                "//runtime/app:headers",
            ],
            # main() must be linked even though nothing in the app library references it.
            alwayslink = True,
            tags = tags,
        )
        tinypte_firmware(
            name = board + "_elf",
            board = spec.platform,
            deps = [":" + app],
            max_flash = max_flash.get(board, 0),
            max_ram = max_ram.get(board, 0),
            stack_size = stack_size.get(board, 0),
            tags = tags,
        )
        if spec.emulated:
            qemu_test(
                name = board + "_test",
                size = "small",
                firmware = ":" + board + "_elf",
                expect_output = _expected_output(model_name, board),
                tags = tags + test_tags,
            )
        if spec.uf2:
            firmware_uf2(
                name = board + "_uf2",
                firmware = ":" + board + "_elf",
                tags = tags,
            )
