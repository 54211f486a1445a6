"""model_firmware: one model's inference firmware for a list of boards, with QEMU tests.

    load("//platforms:boards.bzl", "BOARDS")

    model_firmware(
        name = "sine_firmware",          # prefix of the cc_library targets
        model = ":sine",                 # an executorch_model
        boards = BOARDS,                 # board() structs: every board tinypte knows
        prefix = "",                     # of the per-board targets ("int8_": :int8_B_elf)
    )

creates, for each board B (with `prefix` before each name):
    :B_elf   the firmware (tinypte_firmware), size-checked against the board
    :B_test  a qemu_test running it (boards with an emulator), or an instruction_model_test running the
             real image on the chip's model (boards with an instruction_model: the Pico 2 W);
             it passes when every golden output is within the model's tolerance of PyTorch's
    :B_uf2   the UF2 image, for boards flashed by copying a UF2 file
    :B_flash `bazel run` target copying that UF2 to the board in BOOTSEL mode.
Shared by all boards:
    :<name>_kernels   kernel_library with only the kernels the model's program calls
    :<name>_requirements   the program's buffers and state pool with those kernels
                           (`<name>_requirements.json`, see requirements.bzl)
and per board :<name>_<board>_app_data, the generated static data (golden data, arena,
pool, and where the program is: the model's `:<model>_program` library, the one
embedding of its .pte), which first checks that the model can fit the board at all, and
:<name>_<board>_app, the app built for the board with that data; the kernels, the program and
the runtime it links are built once per CPU (:<name>_<board>_app_cpu_libs, cpu_libraries.bzl).

The model and its requirements are built once for all boards and the top level: their rules
transition to //platforms/host:aot themselves (rules/private/host_transition.bzl).
"""

load("//rules/private:board.bzl", "board_cores_app", "board_cores_defines")
load("//rules/private:common_attrs.bzl", "info_attr", "toolkit_action", "with_common_attrs")
load("//rules/private:cpu_libraries.bzl", "cpu_libraries")
load("//rules:providers.bzl", "TinypteBoardInfo", "TinyptePteInfo")
load("//rules/private:firmware.bzl", "firmware_uf2", "tinypte_firmware")
load("//rules/private:labels.bzl", "tinypte_label")
load("//rules/private:qemu_test.bzl", "qemu_test")
load("//rules/private:instruction_model_test.bzl", "instruction_model_test")
load("//rules/private:requirements.bzl", "kernels_and_requirements")
load("//rules/private:stream.bzl", "stream_run", "stream_test")

def _model_app_data_impl(ctx):
    info = ctx.attr.model[TinyptePteInfo]
    out = ctx.actions.declare_file(ctx.label.name + ".c")
    args = [
        "--program-header",
        info.name + "_program.h",
        "--program-name",
        info.name,
        "--requirements",
        ctx.file.requirements.path,
        "--golden",
        info.golden.path,
        "--name",
        ctx.attr.display_name or info.name,
        "--label",
        str(ctx.attr.model.label),
        "--out-c",
        out.path,
    ]
    inputs = [ctx.file.requirements, info.golden]
    if ctx.attr.board:
        board = ctx.attr.board[TinypteBoardInfo]
        if info.delegate and info.delegate != board.npu:
            fail("model {} delegates to the NPU (EthosUBackend, compiled for the {}), and board {} has {}: build it for a board with that NPU (corstone300_npu), or build the program without `delegate` to run it on the CPU".format(
                ctx.attr.model.label,
                info.delegate,
                board.name,
                "an {} instead".format(board.npu) if board.npu else "no Ethos-U55",
            ))
        args += ["--board", board.description.path, "--stack-size", str(ctx.attr.stack_size), "--pte", info.pte.path]
        inputs += [board.description, info.pte]
    if ctx.attr.corrupt_golden >= 0:
        args += ["--corrupt-golden", str(ctx.attr.corrupt_golden)]
    toolkit_action(
        ctx,
        "firmware",
        subcommand = "app_data",
        mnemonic = "ModelAppData",
        arguments = args,
        inputs = inputs,
        outputs = [out],
        progress_message = "Generating firmware data for %s" % info.name,
    )
    return [DefaultInfo(files = depset([out]))]

model_app_data = rule(
    implementation = _model_app_data_impl,
    doc = "The static data of a model's inference firmware (see python/tinypte/firmware/app_data.py).",
    attrs = with_common_attrs({
        "model": info_attr(TinyptePteInfo, "The executorch_model whose program and golden data the firmware carries."),
        "requirements": attr.label(
            mandatory = True,
            allow_single_file = [".json"],
            doc = "The model's model_requirements (sized with the firmware's kernels), built once for every board.",
        ),
        "board": info_attr(TinypteBoardInfo, "The board (`<board>_info`) to place the model on (python/tinypte/firmware/placement.py) before compiling: a model that fits none of its regions fails here.", mandatory = False),
        "stack_size": attr.int(doc = "Stack reserve of the firmware in bytes (0: the board's)."),
        "display_name": attr.string(doc = "Model name the firmware prints (default: the model target's name)."),
        "corrupt_golden": attr.int(
            default = -1,
            doc = "Test builds only: shift this golden case's expected output (by 1.0, or one step for an int8 output), so the firmware must fail.",
        ),
    }, stages = ["firmware"]),
)

def _expected_output(model_name, board):
    return [
        "^tinypte: model={} board={} inferences=[1-9][0-9]* failures=0 .* PASS$".format(model_name, board),
    ]

def _stream_targets(name, elf, model, board, min_windows, tags, test_tags):
    """`:<name>` (bazel run: tools/stream.py bound to the stream firmware `elf`) and
    `:<name>_test` (every golden case streamed and checked)."""
    machine_model = None if board.emulator else board.instruction_model
    stream_run(name = name, firmware = ":" + elf, model = model, machine_model = machine_model, tags = tags)
    stream_test(
        name = name + "_test",
        size = "small" if board.emulator else "medium",
        firmware = ":" + elf,
        model = model,
        machine_model = machine_model,
        min_windows = min_windows,
        tags = tags + test_tags,
    )

def model_firmware(
        *,
        name,
        model,
        boards,
        prefix = "",
        srcs = [],
        stack_size = 0,
        cores = 0,
        budgets = {},
        test_sizes = {},
        corrupt_golden = -1,
        app = "inference",
        min_windows = 1,
        test_tags = [],
        tags = []):
    """Inference firmware of `model` for each of `boards` (see the file's docstring).

    Args:
      name: prefix of the shared targets (`<name>_kernels`, `<name>_<board>_app_data`).
      model: label of an executorch_model, written with its target name (":sine",
        "//models/sine:sine"); the firmware links its program library `<model>_program`.
      boards: `board()` structs, usually `BOARDS` from //platforms:boards.bzl.
      prefix: prefix of the per-board targets, so one package can hold the firmware of
        several programs: `int8_` gives `:int8_<board>_elf`, `:int8_<board>_test`, ...
      srcs: kernels of your own (C files with `TP_KERNEL` definitions) for operators the
        portable kernels lack, e.g. a custom operator of the model (see kernel_library).
      stack_size: main stack reserve in bytes on every board (0: each board's default).
      cores: the cores the firmware uses on every board (tinypte_firmware's `cores`): 0
        follows each board (two on a two-core board unless its `:cores` flag says 1), 1 or
        2 fixes it; 2 fails on a one-core board, so list only two-core boards with it. The
        app (with its generated data) is compiled with `TP_BOARD_CORES=<cores>`.
      budgets: board name -> (max flash, max RAM) in bytes, tighter than the board's regions:
        the build prints them and fails above them.
        Size it from the app's needs to fit small RAM budgets.
      test_sizes: board name -> Bazel size of the firmware's QEMU test on that board ("small"
        where not given).
      corrupt_golden: test builds only (see model_app_data).
      app: the firmware's app (runtime/app): "inference" replays the golden data and checks every
        output (`:<prefix><board>_test` runs it); "stream" runs the model on windows read from the
        console (stream_app.c): `:<prefix><board>_test` streams the golden inputs with
        tools/stream.py and checks each answer, and `bazel run :<prefix><board> -- ...` streams
        windows of your own (a file, generated ones) to it under the board's emulator (give a
        prefix such as "stream_": the zoo's are `:stream_<board>`).
      min_windows: with app = "stream", the answers the test must have checked at least (it also
        fails unless every golden case was answered: give the golden case count).
      test_tags: tags of the qemu tests (e.g. ["manual"] for deliberately failing ones).
      tags: tags of every target.
    """
    if ":" not in model:
        fail("model_firmware({}): write model as a label with a target name, e.g. \"//models/sine:sine\" or \":sine\"; got {}".format(name, repr(model)))
    model_name = model.split(":")[-1]
    program = model + "_program"
    kernels, requirements = kernels_and_requirements(name = name, model = model, srcs = srcs, tags = tags)
    for board in boards:
        app_library = "{}_{}_app".format(name, board.name)
        model_app_data(
            name = app_library + "_data",
            model = model,
            requirements = requirements,
            board = board.info,
            stack_size = stack_size,
            display_name = model_name,
            corrupt_golden = corrupt_golden,
            tags = tags,
        )
        # What the app links that does not depend on the board: built once per CPU (the app's
        # sources first, as they were linked when the model's library compiled them).
        cpu_libraries(
            name = app_library + "_cpu_libs",
            platform = board.cpu_platform,
            deps = board_cores_app(board, cores, app) + [
                kernels,
                program,
                tinypte_label("//platforms/common:board_api"),
                tinypte_label("//runtime"),
                tinypte_label("//runtime/app:headers"),
            ],
            target_compatible_with = [board.constraint],
            tags = tags,
        )
        native.cc_library(
            name = app_library,
            srcs = [":" + app_library + "_data"],
            deps = [":" + app_library + "_cpu_libs"],
            # The generated data tests `#if TP_BOARD_CORES == 2`.
            local_defines = board_cores_defines(board, cores),
            # The data must be linked even though only the app references it.
            alwayslink = True,
            # Board code: a host `bazel build //...` reaches it only through the firmware.
            target_compatible_with = [board.constraint],
            tags = tags,
        )
        max_flash, max_ram = budgets.get(board.name, (0, 0))
        elf = prefix + board.name + "_elf"
        tinypte_firmware(
            name = elf,
            board = board,
            # The app is built for the board: its data is placed in the board's memory.
            board_deps = [":" + app_library],
            stack_size = stack_size,
            cores = cores,
            max_flash = max_flash,
            max_ram = max_ram,
            tags = tags,
        )
        if app == "stream" and (board.emulator or board.instruction_model):
            _stream_targets(prefix + board.name, elf, model, board, min_windows, tags, test_tags)
        elif board.emulator:
            qemu_test(
                name = prefix + board.name + "_test",
                size = test_sizes.get(board.name, "small"),
                firmware = ":" + elf,
                expect_output = _expected_output(model_name, board.name),
                tags = tags + test_tags,
            )
        elif board.instruction_model:
            instruction_model_test(
                name = prefix + board.name + "_test",
                size = "medium",
                firmware = ":" + elf,
                model = board.instruction_model,
                expect_output = _expected_output(model_name, board.name),
                tags = tags + test_tags,
            )
        if board.uf2_family_id:
            uf2 = prefix + board.name + "_uf2"
            firmware_uf2(
                name = uf2,
                firmware = ":" + elf,
                tags = tags,
            )
            native.py_binary(
                name = prefix + board.name + "_flash",
                srcs = [tinypte_label("//tools:flash_uf2.py")],
                main = tinypte_label("//tools:flash_uf2.py"),
                args = ["--uf2", "$(rootpath :{})".format(uf2)],
                data = [":" + uf2],
                python_version = "PY3",
                tags = tags,
            )
