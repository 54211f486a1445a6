"""executorch_program: a .pte made elsewhere gets what a model gets, without a model file.

    load("//rules:defs.bzl", "executorch_program")

    load("//platforms:boards.bzl", "BOARDS")
    load("//rules:defs.bzl", "executorch_program")

    executorch_program(
        name = "kws",                # the program's name and the C prefix of its symbols
        pte = "kws.pte",             # a file, or a rule's output (ExecuTorch's own flow, ...)
        boards = BOARDS,             # the boards to build firmware for
        inputs = "kws_inputs.pt",    # optional: torch.save of the golden inputs
    )

declares `:kws` (the program: `kws.pte`, operators, memory plan, golden data, summary), the
program library `:kws_program`, and through model_firmware `:<board>_elf`, `:<board>_test`,
`:pico2w_uf2`, `:pico2w_flash` on every board it fits, and `:report`. The golden outputs are
computed at build time by ExecuTorch's host runtime (portable operators) or the Cortex-M
backend's reference implementations (`cortex_m::*`), from the given inputs or random ones of
each input's shape and dtype (python/tinypte/golden/program_golden.py). A program tinypte cannot
run (a backend delegate, an operator no kernel implements, a dim order or shape a kernel
cannot take) fails the build, naming the instruction, the operator and what to do.
"""

load("//rules:providers.bzl", "TinyptePteInfo")
load("//rules/private:common_attrs.bzl", "with_common_attrs")
load("//rules/private:host_transition.bzl", "aot_transition")
load("//rules/private:model.bzl", "PROGRAM_OUTPUTS", "golden_action", "inspect_action", "program_info", "program_library")
load("//rules/private:model_firmware.bzl", "model_firmware")
load("//rules/private:report.bzl", "executorch_model_report")

def _prebuilt_program_impl(ctx):
    out = ctx.outputs
    label = str(ctx.label.relative(":" + ctx.attr.program_name))
    ctx.actions.symlink(output = out.pte, target_file = ctx.file.pte)
    inspect_action(ctx, label)
    golden_args = ["--pte", out.pte.path, "--out", out.golden.path, "--json", out.golden_json.path, "--tolerance", ctx.attr.tolerance]
    inputs = [out.pte]
    if ctx.file.inputs:
        golden_args += ["--inputs", ctx.file.inputs.path]
        inputs.append(ctx.file.inputs)
    else:
        golden_args += ["--cases", str(ctx.attr.cases), "--seed", str(ctx.attr.seed)]
    golden_action(ctx, golden_args, inputs, "Computing golden outputs of %s" % label)
    files = [out.pte, out.ops_json, out.plan_json, out.summary, out.golden]
    return [
        DefaultInfo(files = depset(files), runfiles = ctx.runfiles(files = files + [out.golden_json])),
        OutputGroupInfo(report = depset([out.summary]), quant_report = depset([])),
        program_info(ctx, quantize = "none"),
    ]

_prebuilt_program = rule(
    implementation = _prebuilt_program_impl,
    doc = "A .pte made elsewhere, inspected and given golden data (see the file's docstring).",
    provides = [TinyptePteInfo],
    cfg = aot_transition,
    outputs = PROGRAM_OUTPUTS,
    attrs = with_common_attrs({
        "program_name": attr.string(mandatory = True, doc = "The program's name (the public target's)."),
        "pte": attr.label(mandatory = True, allow_single_file = [".pte"], doc = "The ExecuTorch program."),
        "inputs": attr.label(
            allow_single_file = [".pt"],
            doc = "torch.save of the golden inputs: a tensor, a tuple of tensors (one case) or a list of tuples. Default: `cases` random cases.",
        ),
        "cases": attr.int(default = 4, doc = "Random golden cases when `inputs` is not given."),
        "seed": attr.int(default = 0, doc = "Their seed."),
        "tolerance": attr.string(default = "1e-5", doc = "Tolerance of float outputs against the reference (integers are exact)."),
    }, stages = ["inspect_pte", "golden"], transitions = True),
)

def executorch_program(*, name, pte, boards, inputs = None, cases = 4, seed = 0, tolerance = "1e-5", stack_size = 0, kernels = [], visibility = None, tags = None):
    """A prebuilt program's targets (see the file's docstring).

    Args:
      name: Target name; also the C prefix of the program's symbols (a C identifier).
      pte: The .pte: a source file or a rule's output.
      inputs: Optional torch.save file of golden inputs (else `cases` random ones from `seed`).
      cases: Random golden cases.
      seed: Their seed.
      tolerance: Tolerance of float outputs (a string, e.g. "1e-5"); integer outputs are exact.
      boards: The boards to build firmware for: `BOARDS` of //platforms:boards.bzl, or some.
      stack_size: Main stack reserve in bytes (0: each board's default).
      kernels: C files with TP_KERNEL definitions for operators tinypte has no kernel for.
      visibility: Visibility of the targets.
      tags: Tags of every target.
    """
    _prebuilt_program(
        name = name + "_aot",
        program_name = name,
        pte = pte,
        inputs = inputs,
        cases = cases,
        seed = seed,
        tolerance = tolerance,
        tags = tags,
    )
    program_library(name = name, program = ":" + name + "_aot", visibility = visibility, tags = tags)
    model_firmware(
        name = name + "_firmware",
        model = ":" + name,
        boards = boards,
        srcs = kernels,
        stack_size = stack_size,
        tags = tags or [],
    )
    executorch_model_report(name = "report", model = ":" + name, tags = tags)
