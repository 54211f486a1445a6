"""zoo_model: an example model's targets, all in its own package, from its facts.

    load(":model.bzl", "MODEL")
    load("//models:zoo.bzl", "zoo_model")

    package(default_visibility = ["//visibility:public"])

    zoo_model(MODEL)

For models/<m>/model.py and MODEL = model(name = "<m>", int8 = True, ...) (facts.bzl) it declares

    :<m>_weights                 the trained weights (trained once, for every program)
    :<m>, :<m>_program           the float program and its C library (executorch_model)
    :<board>_elf, _test, _uf2, _flash   its firmware on every board it fits (model_firmware)
    :fits_<board>_fails_test     for every board it does not fit: the fit error, with its numbers
    :report                      `bazel run`: its summary and plots
    :stream_<board>, _elf, _test          with `streams`: its stream firmware, test and host command
and with `int8 = True` the same for the int8 program, prefixed: `:<m>_int8`, `:<m>_int8_program`,
`:int8_<board>_elf`, `:int8_<board>_test`, `:int8_pico2w_uf2`, `:int8_fits_<board>_fails_test`,
`:int8_report`, and with `int8_bars` `:<m>_int8_test`, the int8 program against the float one;
with `program_checks = "<m>_test.py"`, `:<m>_test`, the float program against ExecuTorch; with
`npu = True`, `:<m>_npu` (the int8 program lowered to an Ethos-U55) and its firmware on the boards
with that NPU, `:npu_<board>_elf`, `:npu_<board>_test` (outputs exact against the TOSA reference).

Which boards a program does not fit is computed (models/fits.bzl, by //models:update_fits
from each program's requirements and each board's memory, and checked by //models:fits_test).
"""

load("//models:fits.bzl", "DOES_NOT_FIT")
load("//models:models.bzl", "MODELS", "stack_size")
load("//platforms:boards.bzl", "BOARDS", "NPU_BOARDS")
load("//python:defs.bzl", "py_lint_sources", "tinypte_py_test")
load("//rules:defs.bzl", "executorch_model", "executorch_model_report", "expect_failure_test", "model_firmware", "model_library", "tinypte_model")

def _check_listed(model):
    package = native.package_name()
    if package != "models/" + model.name:
        fail("zoo_model: {} declares MODEL.name = \"{}\"; a model's name is its folder's (\"{}\")".format(package, model.name, package.split("/")[-1]))
    if model.name not in [m.name for m in MODELS]:
        fail("zoo_model: models/{0} is not in MODELS: add `load(\"//models/{0}:model.bzl\", {0} = \"MODEL\")` and `{0},` to models/models.bzl".format(model.name))

def _fit_error_test(variant, board, region, stack_size):
    """`<prefix>fits_<board>_fails_test`: the fit check the firmware build runs fails, naming the
    program, the board and the region with its numbers (python/tinypte/firmware/app_data.py)."""
    region_name = board.flash_region if region == "flash" else board.ram_region
    size = [r.size for r in board.memory if r.name == region_name][0]
    label = "//{}:{}".format(native.package_name(), variant.name)
    expect_failure_test(
        name = "{}fits_{}_fails_test".format(variant.prefix, board.name),
        message = "model {} does not fit board {}: .*{}: .* fits in no region: .*{} [0-9]+ B free of {} B".format(label, board.name, region, region_name, size),
        command = [
            "$(location //python/tinypte/firmware:tool)",
            "app_data",
            "--name",
            label,
            "--program-header",
            variant.name + "_program.h",
            "--program-name",
            variant.name,
            "--requirements",
            "$(location :{}_firmware_requirements)".format(variant.name),
            "--golden",
            "$(location :{}.golden.bin)".format(variant.name),
            "--board",
            board.description_path,
            "--out-c",
            "/dev/null",
        ] + (["--stack-size", str(stack_size)] if stack_size else []),
        data = [
            ":{}.golden.bin".format(variant.name),
            ":{}_firmware_requirements".format(variant.name),
            board.info,
            "//python/tinypte/firmware:tool",
        ],
    )

def _program_test(script, program):
    """`:<script without .py>`: program `program` of this package checked by the pytest file
    `script` against ExecuTorch's own view of it and its host runtime. The script gets the
    paths PTE OPS_JSON PLAN_JSON GOLDEN_BIN MODEL_PY (tinypte.oracle.program_checks)."""
    files = [".pte", ".ops.json", ".plan.json", ".golden.bin"]
    tinypte_py_test(
        name = script[:-len(".py")] if script.endswith(".py") else script,
        srcs = [script],
        size = "medium",
        args = ["$(rootpath {}{})".format(program, suffix) for suffix in files] + ["$(rootpath model.py)"],
        data = [program + suffix for suffix in files] + ["model.py"],
        deps = [
            "//python/tinypte/golden:format",
            "//python/tinypte/model",
            "//python/tinypte/oracle",
        ],
    )

def _int8_bars_test(variant, bars):
    """`:<variant>_test`: the int8 program's operators and its report against `bars` (models/int8_model_test.py)."""
    tinypte_py_test(
        name = variant.name + "_test",
        srcs = ["//models:int8_model_test.py"],
        main = "//models:int8_model_test.py",
        args = [
            "$(rootpath {}.ops.json)".format(variant.name),
            "$(rootpath :{}_quant_report)".format(variant.name),
        ] + ["--" + flag if value == True else "--{}={}".format(flag, value) for flag, value in bars.items()],
        data = [
            "{}.ops.json".format(variant.name),
            ":{}_quant_report".format(variant.name),
        ],
    )

def zoo_model(model):
    """Every target of example model `model` (a `model()` struct, see the file's docstring)."""
    _check_listed(model)
    too_small = {v.name: DOES_NOT_FIT.get(v.name, {}) for v in model.variants}
    tinypte_model(
        name = model.name,
        src = "model.py",
        boards = BOARDS,
        int8 = model.int8,
        kernels = model.kernels,
        stack_size = stack_size(model),
        budgets = model.budgets,
        test_sizes = model.test_sizes,
        skip_boards = {name: boards.keys() for name, boards in too_small.items()},
        # Its plots are drawn when someone runs it; `bazel test //...` draws the guarded
        # models' only (a minute of matplotlib saved).
        report_tags = [] if model.guarded else ["manual"],
    )
    float_program = ":" + model.name
    for variant in model.variants:
        for board in [b for b in BOARDS if b.name in too_small[variant.name]]:
            _fit_error_test(variant, board, too_small[variant.name][board.name], stack_size(model))
        if variant.quantize == "int8" and model.int8_bars:
            _int8_bars_test(variant, model.int8_bars)
        if variant.quantize == "none" and model.program_checks:
            _program_test(model.program_checks, variant.name)
    for variant in model.npu_variants:
        _npu_program(model, variant, float_program)
    for variant in model.variants:
        for cpu in model.libraries.get("int8" if variant.quantize == "int8" else "float", []):
            _library(variant, cpu)
        streams = model.streams.get("int8" if variant.quantize == "int8" else "float", [])
        if streams:
            _stream(model, variant, streams)
    py_lint_sources()

def _stream(model, variant, board_names):
    """Program `variant`'s stream firmware (windows from the console) on `board_names`."""
    model_firmware(
        name = variant.name + "_stream",
        model = ":" + variant.name,
        boards = [b for b in BOARDS if b.name in board_names],
        prefix = variant.prefix + "stream_",
        srcs = model.kernels,
        stack_size = stack_size(model),
        app = "stream",
        min_windows = model.golden_cases,
    )

# A model_library CPU -> its per-CPU platform, and the board whose firmware its size is compared with.
LIBRARY_CPUS = {
    "cortex_m33": ("//platforms/cpu:cortex_m33_fpv5_sp_d16", "mps2_an505"),
    "cortex_m55": ("//platforms/cpu:cortex_m55_mve_fp", "corstone300"),
    "rv32imac": ("//platforms/cpu:rv32imac_none", "rv32imac"),
}

def _library(variant, cpu):
    """Program `variant` as a library for firmware built with CMake or Make, for `cpu`
    (tests/cmake_consumer builds and runs it on QEMU); `bazel run :<name>_size_test` compares
    its runtime + kernels with the board's firmware."""
    platform, board = LIBRARY_CPUS[cpu]
    model_library(
        name = "{}_lib_{}".format(variant.name, cpu),
        model = ":" + variant.name,
        cpu_platform = platform,
        compare_firmware = ":{}{}_elf".format(variant.prefix, board),
    )

def _npu_program(model, variant, float_program):
    """The Ethos-U55 program of `model` and its firmware for the boards with that NPU."""
    executorch_model(
        name = variant.name,
        weights = ":{}_weights".format(model.name),
        quantize = variant.quantize,
        delegate = variant.delegate,
        float_model = float_program,
    )
    model_firmware(
        name = variant.name + "_firmware",
        model = ":" + variant.name,
        boards = [b for b in NPU_BOARDS if b.npu == variant.delegate],
        prefix = variant.prefix,
        srcs = model.kernels,
        stack_size = stack_size(model),
    )
    native.filegroup(
        name = variant.name + "_delegate_graphs",
        srcs = [":" + variant.name],
        output_group = "delegate_graphs",
    )
    executorch_model_report(
        name = variant.prefix + "report",
        model = ":" + variant.name,
        tags = ["manual"],
    )
