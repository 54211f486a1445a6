"""stream_run and stream_test: a model's stream firmware (model_firmware(app = "stream")) with the
host command that feeds it (tools/stream.py) bound to it.

    stream_run(name = "stream_mps2_an505", firmware = ":stream_mps2_an505_elf", model = ":sine")
        `bazel run` it: tools/stream.py starts the board's emulator (QEMU, or the board's
        instruction model) with the firmware and streams windows to its console; arguments after
        `--` choose them (`--generate 8`, `--from windows.npy`, `--golden`: the model's golden inputs).

    stream_test(name = "stream_mps2_an505_test", firmware = ..., model = ":sine")
        streams every golden case, checks each answer against PyTorch's output (exactly for an
        integer output, within the golden tolerance for float) and fails below `min_windows`
        answers or on any error.
"""

load("//rules:providers.bzl", "TinypteFirmwareInfo", "TinyptePteInfo")
load("//rules/private:common_attrs.bzl", "info_attr")
load("//rules/private:runner_script.bzl", "runner_info")

def _emulator_args(ctx, firmware):
    """tools/stream.py's arguments that run `firmware` on its board's emulator or model."""
    board = firmware.board
    if board.emulator:
        return ["--board-json", board.description.short_path], [ctx.runfiles(files = [board.description])]
    if ctx.attr.machine_model:
        return ["--machine-model", ctx.executable.machine_model.short_path, "--console", ctx.attr.console], [ctx.attr.machine_model[DefaultInfo].default_runfiles]
    fail("{}: board {} has neither an emulator nor an instruction model to stream to".format(ctx.label, board.name))

def _stream_impl(ctx, test):
    firmware = ctx.attr.firmware[TinypteFirmwareInfo]
    golden = ctx.attr.model[TinyptePteInfo].golden
    args, runfiles = _emulator_args(ctx, firmware)
    args += ["--firmware", firmware.elf.short_path]
    # The golden data: `-- --golden` streams its inputs, and --generate draws between their extremes.
    args += ["--golden-file", golden.short_path]
    if test:
        args += ["--golden", "--check", "--min-windows", str(ctx.attr.min_windows)]
    return [runner_info(
        ctx,
        "stream_test" if test else "stream_run",
        ctx.executable._stream.short_path,
        args,
        files = [firmware.elf, golden],
        runfiles = runfiles + [ctx.attr._stream[DefaultInfo].default_runfiles],
    )]

def _stream_run_impl(ctx):
    return _stream_impl(ctx, test = False)

def _stream_test_impl(ctx):
    return _stream_impl(ctx, test = True)

_ATTRS = {
    "firmware": info_attr(TinypteFirmwareInfo, "The model's stream firmware (model_firmware with app = \"stream\")."),
    "model": info_attr(TinyptePteInfo, "The executorch_model the firmware runs: its golden data are the test's windows."),
    "machine_model": attr.label(
        executable = True,
        cfg = "target",
        doc = "For a board without QEMU: its instruction model (the board's `instruction_model`), which feeds the console.",
    ),
    "console": attr.string(
        default = "usb",
        values = ["usb", "uart"],
        doc = "The console the instruction model feeds and reads (the Pico 2 W's USB serial port or UART0).",
    ),
    "_stream": attr.label(default = "//tools:stream", executable = True, cfg = "target"),
}

stream_run = rule(
    implementation = _stream_run_impl,
    executable = True,
    doc = "`bazel run` streams windows to the firmware under its emulator (see the file's docstring).",
    attrs = _ATTRS,
)

stream_test = rule(
    implementation = _stream_test_impl,
    test = True,
    doc = "Streams the model's golden inputs to the firmware and checks every answer (see the file's docstring).",
    attrs = dict(_ATTRS, min_windows = attr.int(
        mandatory = True,
        doc = "Answers the test must have checked at least (the golden cases: a run that answers fewer fails).",
    )),
)
