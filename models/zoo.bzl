"""zoo_firmware: a zoo model's firmware on every board it fits, and a fit-error test for the rest.

    zoo_firmware(model = "anomaly")   # too_small from models.bzl's TOO_SMALL

declares `model_firmware` (QEMU test `<board>_test`, and `pico2w_uf2`) for every board of
BOARDS not in `too_small`, and for each board in it a `fits_<board>_fails_test` that runs the
fit check the firmware build would run and passes only when it fails naming the model, the board
and the region (`flash` or `RAM`) with its numbers (python/tinypte/app_data.py). A board listed
here that the model starts fitting fails its test: move it back to the firmware boards.
"""

load("//models:models.bzl", "TOO_SMALL")
load("//platforms:boards.bzl", "BOARDS")
load("//rules:defs.bzl", "model_firmware")
load("//tests/smoke:expect_failure.bzl", "expect_failure_test")

def zoo_firmware(*, model, too_small = None, stack_size = None):
    """Firmware for the boards `model` fits; fit-error tests for the boards in `too_small`.

    Args:
      model: the executorch_model target's name in this package.
      too_small: board name -> "flash" or "RAM", the region the model does not fit (default:
        its entry of models.bzl's TOO_SMALL, which the benches read too).
      stack_size: the firmware's stack in bytes (model_firmware's default when None).
    """
    if too_small == None:
        too_small = TOO_SMALL.get(model, {})
    for board in too_small:
        if board not in [b.name for b in BOARDS]:
            fail("zoo_firmware: {} is not a board of BOARDS".format(board))
        if too_small[board] not in ("flash", "RAM"):
            fail("zoo_firmware: too_small[{}] must be \"flash\" or \"RAM\"".format(board))
    extra = {} if stack_size == None else {"stack_size": stack_size}
    model_firmware(
        name = model + "_firmware",
        boards = [b for b in BOARDS if b.name not in too_small],
        model = ":" + model,
        **extra
    )
    for board in [b for b in BOARDS if b.name in too_small]:
        region = board.flash_region if too_small[board.name] == "flash" else board.ram_region
        size = [r.size for r in board.memory if r.name == region][0]
        expect_failure_test(
            name = "fits_{}_fails_test".format(board.name),
            message = "model //{}:{} does not fit board {}: .*{}: .* over the {} region of {} B".format(
                native.package_name(),
                model,
                board.name,
                too_small[board.name],
                region,
                size,
            ),
            command = [
                "$(location //python:tinypte)",
                "app_data",
                "--name",
                "//{}:{}".format(native.package_name(), model),
                "--program-header",
                model + "_program.h",
                "--program-name",
                model,
                "--requirements",
                "$(location :{}_firmware_requirements)".format(model),
                "--golden",
                "$(location :{}.golden.bin)".format(model),
                "--board",
                "{}/{}.board.json".format(board.package[2:], board.name),
                "--out-c",
                "/dev/null",
            ] + ([] if stack_size == None else ["--stack-size", str(stack_size)]),
            data = [
                ":{}.golden.bin".format(model),
                ":{}_firmware_requirements".format(model),
                board.info,
                "//python:tinypte",
            ],
        )
