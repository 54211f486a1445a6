"""instruction_model_test: run a firmware's real ELF on a board's instruction-level model of its
chip (the board's `instruction_model`, board.bzl) and check its output.

Two boards have one: the Pico 2 W (the RP2350 model, the default `main` and `runner`) and
corstone300_npu (a Corstone-300 with its Ethos-U55, platforms/corstone300_npu/machine). Every
model takes the same command line and ends with one line,
`instruction_model_test: PASS (N instructions, ...)` or `instruction_model_test: FAIL <reason>`.

The RP2350 model (//platforms/pico2w/emulator) is two of unicorn's Cortex-M33s sharing the memory and
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

load("//rules:providers.bzl", "TinypteFirmwareInfo")
load("//rules/private:runner_script.bzl", "runner_script")

_CONSOLE = "//platforms/pico2w:console"

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
    attrs = {
        "firmware": attr.label(
            mandatory = True,
            providers = [TinypteFirmwareInfo],
            cfg = _console_transition,
            doc = "The firmware to build with `console`.",
        ),
        "console": attr.string(
            mandatory = True,
            values = ["usb", "uart"],
            doc = "The //platforms/pico2w:console to build it with.",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def _import_root(directory, packages):
    """The directory above the outermost package holding `directory` (itself if none does)."""
    for _ in range(directory.count("/") + 1):
        if directory not in packages:
            break
        directory = directory.rpartition("/")[0]
    return directory

def _instruction_model_test_impl(ctx):
    firmware = ctx.attr.firmware[TinypteFirmwareInfo]
    args = [ctx.file.main.short_path, "--console", ctx.attr.console, "--max-instructions", str(ctx.attr.max_instructions)]
    for pattern in ctx.attr.expect_output:
        args += ["--expect", pattern]
    args.append(firmware.elf.short_path)
    # run.py imports its siblings (its directory is first on sys.path) and the other modules of
    # `runner`: every directory holding one is on PYTHONPATH (tools/ for usb_ids.py and
    # execute_count.py; the RP2350 model's for a model that reuses its core). core.py finds its C
    # block hook (libblock_counter.so, in `runner`) in the runfiles through PYTHONPATH too.
    # A module of a package (a directory with __init__.py, e.g. backends/ethos_u55/npu_model)
    # puts the package's import root there instead (backends/).
    packages = {f.short_path.rpartition("/")[0]: None for f in ctx.files.runner if f.basename == "__init__.py"}
    dirs = {_import_root(f.short_path.rpartition("/")[0], packages): None for f in ctx.files.runner if f.extension == "py"}
    script = runner_script(ctx, "instruction_model_test", ctx.file._interpreter.short_path, args, {"PYTHONPATH": ":".join(sorted(dirs))})
    files = [script, firmware.elf, ctx.file._interpreter, ctx.file.main] + ctx.files.runner
    runfiles = ctx.runfiles(files = files)
    return [DefaultInfo(executable = script, files = depset([script]), runfiles = runfiles)]

instruction_model_test = rule(
    implementation = _instruction_model_test_impl,
    test = True,
    doc = """Runs a `tinypte_firmware` on its board's instruction-level model of the chip (the RP2350
model by default; model_firmware passes the board's `instruction_model` and its `runner`).

Example:

    instruction_model_test(
        name = "pico2w_test",
        firmware = ":pico2w_elf",
        expect_output = ["^tinypte: model=sine board=pico2w .* PASS$"],
    )
""",
    attrs = {
        "firmware": attr.label(
            mandatory = True,
            providers = [TinypteFirmwareInfo],
            doc = "The firmware to run: an image for the board whose model `main` is (a Pico 2 W one by default; `pico2w_console_firmware` builds one with another console).",
        ),
        "console": attr.string(
            default = "usb",
            values = ["usb", "uart"],
            doc = "The console the test reads on the RP2350 model: the USB serial port (the model's host enumerates the device and opens the port) or UART0 (corstone300_npu's model has semihosting only, and ignores it).",
        ),
        "expect_output": attr.string_list(
            doc = "Python regular expressions; each must match at least one console line.",
        ),
        "max_instructions": attr.int(
            default = 2000000000,
            doc = "Instructions the run may take before it counts as hung.",
        ),
        "main": attr.label(
            default = "//platforms/pico2w/emulator:run.py",
            allow_single_file = [".py"],
            doc = "The instruction model's entry point: the board's `instruction_model` (the RP2350 model's by default).",
        ),
        "runner": attr.label(
            default = "//platforms/pico2w/emulator:runner",
            doc = "The Python sources the entry point imports (each one's directory goes on PYTHONPATH): the `runner` filegroup beside the model's run.py (//platforms/corstone300_npu/machine:runner for that board).",
        ),
        "_interpreter": attr.label(
            default = "@tinypte_emulator_python//:python",
            allow_single_file = True,
        ),
    },
)
