"""tinypte_model: a model file's programs and their firmware, in any package of any workspace.

    load("@tinypte//rules:defs.bzl", "tinypte_model")

    tinypte_model(
        name = "cosine",
        src = "model.py",
        boards = [mps2_an505, my_board],   # board() structs
        int8 = True,
    )

declares, in the calling package:

    :<name>_weights                      the trained weights (trained once, for every program)
    :<name>, :<name>_program             the float program and its C library (executorch_model)
    :<board>_elf, _test, _uf2, _flash    its firmware on each board (model_firmware)
    :report                              `bazel run`: its summary and plots
and with `int8 = True` the same for the int8 program of the same weights, prefixed:
`:<name>_int8`, `:int8_<board>_elf`, `:int8_<board>_test`, `:int8_report`.

tinypte's own example models (models/zoo.bzl) are declared by it, with their checks added.
"""

load("//rules/private:model.bzl", "executorch_model")
load("//rules/private:model_firmware.bzl", "model_firmware")
load("//rules/private:report.bzl", "executorch_model_report")

# The programs of a model file and how their targets are named: the float program is `<name>`,
# the int8 one `<name>_int8`, and each one's firmware targets take `prefix` (`int8_<board>_elf`).
# models/facts.bzl names the zoo's targets by the same structs.
FLOAT_PROGRAM = struct(suffix = "", prefix = "", quantize = "none")
INT8_PROGRAM = struct(suffix = "_int8", prefix = "int8_", quantize = "int8")

def tinypte_model(
        *,
        name,
        src,
        boards,
        int8 = False,
        data = [],
        seed = 0,
        kernels = [],
        stack_size = 0,
        budgets = {},
        test_sizes = {},
        skip_boards = {},
        report_tags = ["manual"],
        visibility = None):
    """A model file's float program (and int8 one), firmware for `boards`, and reports.

    Args:
      name: The float program's name (and the C prefix of its symbols); the int8 one is
        `<name>_int8`.
      src: The model file (python/tinypte/model/loading.py has the contract).
      boards: `board()` structs to build firmware for: tinypte's (`BOARDS` of
        @tinypte//platforms:boards.bzl, or one board's `BOARD` from its board.bzl) and your own.
      int8: Also the int8 program (ExecuTorch's Cortex-M quantizer), with its firmware.
      data: Files the model file reads.
      seed: The training seed.
      kernels: Kernels of your own (C files, `TP_KERNEL`) for operators the portable kernels lack.
      stack_size: Main stack reserve of the firmware in bytes (0: each board's default).
      budgets: Board name -> (max flash, max RAM) in bytes of the float firmware, tighter than
        the board's regions: the build prints them and fails above them.
      test_sizes: Board name -> Bazel test size of the firmware's test there ("small" elsewhere).
      skip_boards: Program name (`<name>`, `<name>_int8`) -> board names to build no firmware of
        it for (boards it does not fit).
      report_tags: Tags of the `:report` targets (`manual`: drawn only when run).
      visibility: Visibility of the programs.
    """
    kinds = [FLOAT_PROGRAM] + ([INT8_PROGRAM] if int8 else [])
    for program in [struct(name = name + kind.suffix, prefix = kind.prefix, quantize = kind.quantize) for kind in kinds]:
        if program.quantize == "none":
            executorch_model(name = program.name, src = src, data = data, seed = seed, visibility = visibility)
        else:
            executorch_model(
                name = program.name,
                weights = ":{}_weights".format(name),
                quantize = program.quantize,
                float_model = ":" + name,
                visibility = visibility,
            )
        skipped = skip_boards.get(program.name, [])
        model_firmware(
            name = program.name + "_firmware",
            model = ":" + program.name,
            boards = [b for b in boards if b.name not in skipped],
            prefix = program.prefix,
            srcs = kernels,
            stack_size = stack_size,
            budgets = budgets if program.quantize == "none" else {},
            test_sizes = test_sizes,
        )
        executorch_model_report(
            name = program.prefix + "report",
            model = ":" + program.name,
            tags = report_tags,
        )
