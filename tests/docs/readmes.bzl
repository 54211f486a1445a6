"""Which files each README below the top one is checked against (//tests/docs:readmes_test).

A README's board (its board.json: memory regions and stack) and its sources (the files whose
constants and literals its figures quote). A README added to the tree is added here.
"""

def _readme(path, board = None, sources = []):
    return struct(path = path, board = board, sources = sources)

def _board_readme(name, sources = []):
    """The README of board `name` (platforms/<name>): checked against its facts and board.bzl,
    then `sources`."""
    package = "//platforms/" + name
    return _readme(package + ":README.md", board = package, sources = [package + ":board.bzl"] + sources)

READMES = [
    _readme("//backends/ethos_u55:README.md"),
    _readme("//models:README.md"),
    _readme("//platforms:README.md", sources = [
        "//platforms/mps2_an505:board.bzl",
        "//platforms/common:cortex_m/semihosting.c",
    ]),
    _board_readme("corstone300"),
    _board_readme("corstone300_npu", sources = [
        "//platforms/corstone300:board.bzl",
        "//platforms/corstone300_npu:npu.c",
        "//python/machines/sse300:npu_port.py",
    ]),
    _board_readme("mps2_an505"),
    _board_readme("mps2_an521", sources = [
        "//platforms/mps2_an521:two_cores.c",
        "//runtime/two_cores:include/tinypte/two_cores_board.h",
    ]),
    _board_readme("pico2w", sources = [
        "//platforms/pico2w:boot_block.c",
        "//platforms/pico2w:clocks.c",
        "//platforms/pico2w:rp2350_regs.h",
        "//platforms/pico2w:two_cores.c",
        "//platforms/pico2w:usb_console.c",
        "//runtime/two_cores:include/tinypte/two_cores_board.h",
    ]),
    _board_readme("rv32imac"),
    _board_readme("rv32imafc"),
    _board_readme("stm32h7"),
    _readme("//python:README.md"),
    _readme("//rules:README.md", sources = ["//rules/private:qemu_test.bzl"]),
    _readme("//runtime:README.md", sources = [
        "//runtime/kernels:cortex_m/engines/s8_conv.h",
        "//runtime/kernels:portable/convolution.c",
    ]),
    _readme("//runtime/kernels:README.md"),
    _readme("//tests/bench:README.md", sources = ["//tests/bench:perf.py"]),
    _readme("//tests/conformance:README.md", board = "//platforms/corstone300"),
    _readme("//tests/executorch_cortex_m:README.md"),
]

def _board_json(board):
    """//platforms/<b> -> the target that writes its board facts, <b>.board.json."""
    return "{}:{}_info".format(board, board.rpartition("/")[2])

def readme_args(readmes):
    """readmes_test's `--readme README BOARD_JSON|- SOURCE,...` arguments."""
    args = []
    for r in readmes:
        args += [
            "--readme",
            "$(rootpath {})".format(r.path),
            # The facts target also writes the linker script: its JSON by path.
            "{0}/{1}.board.json".format(r.board[2:], r.board.rpartition("/")[2]) if r.board else "-",
            ",".join(["$(rootpath {})".format(s) for s in r.sources]) or "-",
        ]
    return args

def readme_data(readmes):
    """The READMEs, board facts and sources readmes_test reads."""
    data = []
    for r in readmes:
        data += [r.path] + ([_board_json(r.board)] if r.board else []) + r.sources
    return depset(data).to_list()
