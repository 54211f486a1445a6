"""instruction_model_test: run a firmware's real ELF on a board's instruction-level model of its
chip (the board's `instruction_model`, board.bzl) and check its output.

Two boards have one: the Pico 2 W (the RP2350 model, the default `main` and `runner`) and
corstone300_npu (a Corstone-300 with its Ethos-U55, //python/machines/sse300:run). Every
model takes the same command line and ends with one line,
`instruction_model_test: PASS (N instructions, ...)` or `instruction_model_test: FAIL <reason>`.

The RP2350 model (//python/machines/rp2350:run) is two of unicorn's Cortex-M33s sharing the memory and
the SIO (core 1 started by the boot ROM's FIFO handshake), with the RP2350 peripherals the
firmware touches, and a USB host on its USB port. It boots the image as the boot ROM
does (vector table at the start of flash), reads the console (the USB serial port after
enumerating the device and opening the port, or UART0), and ends the run at the inference
app's summary line. The test passes when every `expect_output` pattern matches a line; a
firmware that does not connect to USB, an access to an address the model
does not implement, a CPU exception, a poll that never ends, a run past `max_instructions`,
cores waiting for each other or a core 1 that never answers fails it with one line naming the
address, the PC and the core.
"""

load("//rules/private:common_attrs.bzl", "firmware_run_attrs", "info_attr", "with_common_attrs")
load("//rules:providers.bzl", "TinypteFirmwareInfo")
load("//rules/private:runner_script.bzl", "runner_info")

# The canonical label (str(Label(...))): a transition key names the build setting in the main
# repository, whichever workspace that is.
_CONSOLE = str(Label("//platforms/pico2w:console"))

def _console_transition_impl(settings, attr):
    return {_CONSOLE: attr.console}

_console_transition = transition(
    implementation = _console_transition_impl,
    inputs = [],
    outputs = [_CONSOLE],
)

def _pico2w_console_firmware_impl(ctx):
    firmware = ctx.attr.firmware[0]
    info = firmware[TinypteFirmwareInfo]

    # The size report under this target's name: the original's runfiles path is the default
    # console's firmware's, so a target that has both would see only one of them.
    size_json = ctx.actions.declare_file(ctx.label.name + ".size.json")
    ctx.actions.expand_template(template = info.size_json, output = size_json, substitutions = {})
    return [info, firmware[DefaultInfo], OutputGroupInfo(size_json = depset([size_json]))]

pico2w_console_firmware = rule(
    implementation = _pico2w_console_firmware_impl,
    doc = """A Pico 2 W firmware built with another console than the command line's.

Tests of failure paths use it (a UART firmware read as USB), and the size table (what the
USB console costs: output group `size_json`, the firmware's size report as
`<name>.size.json`). A rule of its own, because a
transition on every instruction_model_test's firmware would put each in a configuration of its own and
build every model again for it (Bazel 4 keeps even an unchanged setting in the output path).""",
    attrs = with_common_attrs({
        "firmware": info_attr(TinypteFirmwareInfo, "The firmware to build with `console`.", cfg = _console_transition),
        "console": attr.string(
            mandatory = True,
            values = ["usb", "uart"],
            doc = "The //platforms/pico2w:console to build it with.",
        ),
    }, transitions = True),
)

def _instruction_model_test_impl(ctx):
    firmware = ctx.attr.firmware[TinypteFirmwareInfo]
    args = ["--console", ctx.attr.console, "--max-instructions", str(ctx.attr.max_instructions)]
    for pattern in ctx.attr.expect_output:
        args += ["--expect", pattern]
    args.append(firmware.elf.short_path)

    # The model is an executable (machines_py_binary: its venv and its package come along in its
    # runfiles).
    return [runner_info(
        ctx,
        "instruction_model_test",
        ctx.executable.model.short_path,
        args,
        files = [firmware.elf],
        runfiles = [ctx.attr.model[DefaultInfo].default_runfiles],
    )]

instruction_model_test = rule(
    implementation = _instruction_model_test_impl,
    test = True,
    doc = """Runs a `tinypte_firmware` on its board's instruction-level model of the chip (the RP2350
model by default; model_firmware passes the board's `instruction_model`).

Example:

    instruction_model_test(
        name = "pico2w_test",
        firmware = ":pico2w_elf",
        expect_output = ["^tinypte: model=sine board=pico2w .* PASS$"],
    )
""",
    attrs = firmware_run_attrs(
        {
            "console": attr.string(
                default = "usb",
                values = ["usb", "uart"],
                doc = "The console the test reads on the RP2350 model: the USB serial port (the model's host enumerates the device and opens the port) or UART0 (corstone300_npu's model has semihosting only, and ignores it).",
            ),
            "max_instructions": attr.int(
                default = 2000000000,
                doc = "Instructions the run may take before it counts as hung.",
            ),
            "model": attr.label(
                default = "//python/machines/rp2350:run",
                executable = True,
                cfg = "target",
                doc = "The instruction model to run: the board's `instruction_model`, a machines_py_binary (the RP2350 model's by default; //python/machines/sse300:run for corstone300_npu).",
            ),
        },
        firmware = "The firmware to run: an image for the board whose model `model` is (a Pico 2 W one by default; `pico2w_console_firmware` builds one with another console).",
        expect_output = "Python regular expressions; each must match at least one console line.",
    ),
)
