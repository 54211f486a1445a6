"""qemu_test: run a firmware under its board's emulator and check what it does.

The test passes when the firmware exits (semihosting) with `expect_exit_code` within
`timeout_seconds` and every `expect_output` pattern matches its output. A firmware that
hangs, faults, prints something else or exits with another status fails the test with a
one-line reason after the firmware's own output.
"""

load("//rules/private:common_attrs.bzl", "firmware_run_attrs")
load("//rules:providers.bzl", "TinypteFirmwareInfo")
load("//rules/private:runner_script.bzl", "runner_info")

def _qemu_test_impl(ctx):
    firmware = ctx.attr.firmware[TinypteFirmwareInfo]
    board = firmware.board
    if board.emulator == None:
        fail("{}: board {} is build-only (no emulator here), so {} cannot run under QEMU. Build it with `bazel build {}` instead.".format(
            ctx.label,
            board.name,
            ctx.attr.firmware.label,
            ctx.attr.firmware.label,
        ))
    emulator = board.emulator
    args = [
        "--qemu",
        "qemu-system-" + emulator.system,
        "--machine",
        emulator.machine,
        "--cpu",
        emulator.cpu,
        "--timeout",
        str(ctx.attr.timeout_seconds),
        "--expect-exit",
        str(ctx.attr.expect_exit_code),
    ]
    for arg in emulator.args:
        args += ["--qemu-arg", arg]
    for pattern in ctx.attr.expect_output:
        args += ["--expect", pattern]
    if board.fvp:
        args += ["--fvp", board.fvp]
    args.append(firmware.elf.short_path)

    return [runner_info(ctx, "qemu_test", ctx.file._runner.short_path, args, files = [ctx.file._runner, firmware.elf])]

qemu_test = rule(
    implementation = _qemu_test_impl,
    test = True,
    doc = """Runs a `tinypte_firmware` under QEMU (the emulator its board declares).

Example:

    qemu_test(
        name = "smoke_myboard_test",
        firmware = ":smoke_myboard",
        expect_output = ["^smoke: PASS"],
    )
""",
    attrs = firmware_run_attrs(
        {
            "expect_exit_code": attr.int(
                default = 0,
                doc = "Exit status the firmware must end with (through semihosting). Non-zero only for tests of failure paths.",
            ),
            "timeout_seconds": attr.int(
                default = 60,
                doc = "Wall-clock limit for one QEMU run; past it the firmware counts as hung. Keep it well under the test's Bazel timeout.",
            ),
            "_runner": attr.label(
                default = "//rules/private:qemu_runner.sh",
                allow_single_file = True,
            ),
        },
        firmware = "The firmware to run; its board must declare an emulator.",
        expect_output = "Extended regular expressions (grep -E); each must match at least one line of the firmware's output. Use them to check results the exit status does not carry.",
    ),
)
