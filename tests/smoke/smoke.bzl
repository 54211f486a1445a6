"""One smoke firmware and its QEMU test per board (see smoke.c)."""

load("//rules:defs.bzl", "qemu_test", "tinypte_firmware")

def smoke_tests(*, boards):
    """For each board label, `smoke_<board>` (firmware) and `smoke_<board>_test`.

    Args:
      boards: Board platform labels, e.g. `["//platforms/mps2_an505"]`.
    """
    for board in boards:
        name = board.split(":")[-1].split("/")[-1]
        tinypte_firmware(
            name = "smoke_" + name,
            board = board,
            srcs = ["smoke.c"],
            deps = ["//platforms/common:board_api"],
        )
        qemu_test(
            name = "smoke_{}_test".format(name),
            size = "small",
            expect_output = [
                "^smoke: board={}$".format(name),
                "^smoke: PASS$",
            ],
            firmware = ":smoke_" + name,
        )
