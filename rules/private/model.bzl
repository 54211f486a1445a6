"""executorch_model: a PyTorch model file becomes a .pte, its facts, and a C library.

The `_executorch_model` rule runs cached, deterministic actions with the locked Python
(//python:tinypte, the AOT toolkit in python/tinypte):

    Export   model.py            -> <name>.pte, <name>.weights.pt   (train + export)
    Inspect  <name>.pte          -> <name>.ops.json, <name>.plan.json, <name>.summary.txt
    Golden   model.py + weights  -> <name>.golden.bin, <name>.golden.json

and a Report action (PNG plots + text) that `executorch_model_report` shows. The
`executorch_model` macro adds `:<name>_program`, the program as a C library: the one
embedding of the .pte, which model firmware links and users can link themselves.
"""

load("//rules/private:common_attrs.bzl", "with_common_attrs")
load("//rules:providers.bzl", "TinyptePteInfo")
load("//rules/private:host_transition.bzl", "host_transition")

def _tool_action(ctx, mnemonic, subcommand, arguments, inputs, outputs, message):
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = [subcommand] + arguments,
        inputs = inputs,
        outputs = outputs,
        mnemonic = mnemonic,
        progress_message = message,
        # Training and export are single-threaded and seeded; keep them that way.
        env = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
    )

def _executorch_model_impl(ctx):
    name = ctx.label.name
    src = ctx.file.src
    pte = ctx.outputs.pte
    weights = ctx.outputs.weights
    ops_json = ctx.outputs.ops_json
    plan_json = ctx.outputs.plan_json
    summary = ctx.outputs.summary
    golden = ctx.outputs.golden
    golden_json = ctx.outputs.golden_json
    fit_png = ctx.outputs.fit_png
    arena_png = ctx.outputs.arena_png
    model_inputs = [src] + ctx.files.data

    export_args = ["--model", src.path, "--pte", pte.path, "--weights", weights.path, "--seed", str(ctx.attr.seed)]
    if not ctx.attr.constant_prop:
        export_args.append("--no-constant-prop")
    export_args += ["--alignment", str(ctx.attr.alignment), "--memory-planning", ctx.attr.memory_planning]
    export_outputs = [pte, weights]
    inspect_args = ["--pte", pte.path, "--name", str(ctx.label), "--ops-json", ops_json.path, "--plan-json", plan_json.path, "--summary", summary.path]
    golden_args = ["--model", src.path, "--weights", weights.path, "--out", golden.path, "--json", golden_json.path]
    quant_report = []
    if ctx.attr.quantize == "int8":
        report = ctx.actions.declare_file(name + ".quant.json")
        quant_report = [report]
        export_args += ["--quantize", "int8", "--quant-report", report.path]
        export_outputs.append(report)
        inspect_args += ["--quant-report", report.path]
        golden_args += ["--quantize", "int8"]
    what = "Training, quantizing (int8) and exporting" if quant_report else "Training and exporting"
    _tool_action(ctx, "PteExport", "export", export_args, model_inputs, export_outputs, "%s %s to .pte" % (what, ctx.label))
    _tool_action(
        ctx,
        "PteInspect",
        "inspect_pte",
        inspect_args,
        [pte] + quant_report,
        [ops_json, plan_json, summary],
        "Inspecting %s: operators and memory plan" % ctx.label,
    )
    _tool_action(
        ctx,
        "PteGolden",
        "golden",
        golden_args,
        model_inputs + [weights],
        [golden, golden_json],
        "Computing golden outputs of %s with PyTorch" % ctx.label,
    )
    _tool_action(
        ctx,
        "PteReport",
        "report",
        [
            "--model",
            src.path,
            "--weights",
            weights.path,
            "--pte",
            pte.path,
            "--plan-json",
            plan_json.path,
            "--fit-png",
            fit_png.path,
            "--arena-png",
            arena_png.path,
        ],
        model_inputs + [weights, pte, plan_json],
        [fit_png, arena_png],
        "Plotting %s: fit and arena layout" % ctx.label,
    )

    info = TinyptePteInfo(
        name = name,
        pte = pte,
        ops_json = ops_json,
        plan_json = plan_json,
        summary = summary,
        golden = golden,
        golden_json = golden_json,
        weights = weights,
        src = src,
    )
    return [
        DefaultInfo(
            files = depset([pte, ops_json, plan_json, summary, golden]),
            runfiles = ctx.runfiles(files = [pte, ops_json, plan_json, summary, golden, golden_json]),
        ),
        OutputGroupInfo(report = depset([summary, fit_png, arena_png]), quant_report = depset(quant_report)),
        info,
    ]

_executorch_model = rule(
    implementation = _executorch_model_impl,
    doc = """A PyTorch model, trained and exported with ExecuTorch to a `.pte`.

`src` is a Python file following the model contract of python/tinypte/model_loading.py
(`build`, `train`, `example_inputs`, `golden_inputs`, `evaluate`, `ACCEPTANCE`,
`TOLERANCE`). Training is seeded and single-threaded, so the `.pte` is bit-identical
from build to build. Outputs: `<name>.pte`, `.ops.json`, `.plan.json`, `.summary.txt`,
`.golden.bin`; output group `report` adds the fit and arena PNGs. With `quantize = "int8"` the
program is the int8 one (ExecuTorch's Cortex-M quantizer; golden outputs from its reference
implementations) and output group `quant_report` holds `<name>.quant.json` (float vs int8).""",
    provides = [TinyptePteInfo],
    # Predeclared, so tests and genrules can name them: `:sine.pte`, `:sine.golden.bin`, ...
    outputs = {
        "pte": "%{name}.pte",
        "weights": "%{name}.weights.pt",
        "ops_json": "%{name}.ops.json",
        "plan_json": "%{name}.plan.json",
        "summary": "%{name}.summary.txt",
        "golden": "%{name}.golden.bin",
        "golden_json": "%{name}.golden.json",
        "fit_png": "%{name}.fit.png",
        "arena_png": "%{name}.arena.png",
    },
    attrs = with_common_attrs({
        "src": attr.label(
            mandatory = True,
            allow_single_file = [".py"],
            doc = "The model file (see the model contract).",
        ),
        "data": attr.label_list(
            allow_files = True,
            doc = "Files the model file reads (data sets shipped in the repo, helper modules).",
        ),
        "seed": attr.int(
            default = 0,
            doc = "Seed for training and golden-input sampling. Change it to retrain differently; same seed, same .pte.",
        ),
        "constant_prop": attr.bool(
            default = True,
            doc = "Run ExecuTorch's constant propagation before to_executorch, folding weight transposes into constants. Turn off only to study the unfolded program.",
        ),
        "alignment": attr.int(
            default = 16,
            doc = "Alignment in bytes of planned activations and of constants (a power of two).",
        ),
        "quantize": attr.string(
            default = "none",
            values = ["none", "int8"],
            doc = "`int8`: quantize with ExecuTorch's Cortex-M quantizer, calibrated on the model file's `calibration_inputs()` (default: its training inputs), and export `cortex_m::*` operators. The model file's `INT8_ACCEPTANCE` (else `ACCEPTANCE`) applies to the int8 program.",
        ),
        "memory_planning": attr.string(
            default = "greedy",
            values = ["greedy", "naive"],
            doc = "Arena planning: `greedy` shares space between tensors whose lifetimes do not overlap; `naive` gives each tensor its own slot.",
        ),
    }),
)

def _program_srcs_impl(ctx):
    info = ctx.attr.model[0][TinyptePteInfo]  # through host_transition: a list
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = [
            "header",
            "--pte",
            info.pte.path,
            "--name",
            info.name,
            "--label",
            str(ctx.attr.model[0].label),
            "--out-h",
            ctx.outputs.header.path,
            "--out-c",
            ctx.outputs.source.path,
        ],
        inputs = [info.pte],
        outputs = [ctx.outputs.header, ctx.outputs.source],
        mnemonic = "PteHeader",
        progress_message = "Embedding %s as a C array" % info.pte.short_path,
    )

_program_srcs = rule(
    implementation = _program_srcs_impl,
    doc = "`<name>.h` and `<name>.c`: a model's .pte as a C array (python/tinypte/header.py).",
    attrs = with_common_attrs({
        # Firmware for any board embeds the host build of the model (trained once).
        "model": attr.label(mandatory = True, providers = [TinyptePteInfo], cfg = host_transition),
        "out": attr.string(mandatory = True, doc = "Base name of the two files."),
    }, transitions = True),
    outputs = {"header": "%{out}.h", "source": "%{out}.c"},
)

def executorch_model(*, name, visibility = None, **kwargs):
    """A PyTorch model, trained and exported with ExecuTorch to a `.pte`, and its program library.

    Creates:
    * `:<name>` — the model (`TinyptePteInfo`; see `_executorch_model` for its outputs);
    * `:<name>_program` — a `cc_library` whose header `<name>_program.h` declares the
      program as `const uint8_t <name>_pte[<NAME>_PTE_SIZE]` (16-byte aligned, in the
      flash section `.rodata.tinypte.model`, read in place by the runtime) with
      `<NAME>_PTE_SIZE` and `<NAME>_PTE_SHA256`. Model firmware links exactly this.

    Args:
      name: Target name; also the C prefix of the program's symbols (a C identifier).
      visibility: Visibility of both targets.
      **kwargs: Attributes of the model: `src` (mandatory), `data`, `seed`,
        `constant_prop`, `alignment`, `memory_planning`, `quantize` (see `_executorch_model`).
        With `quantize = "int8"` it also creates `:<name>_quant_report`.
    """
    _executorch_model(name = name, visibility = visibility, **kwargs)
    if kwargs.get("quantize") == "int8":
        # `:<name>_quant_report`: <name>.quant.json (float vs int8 metrics and sizes) for tests.
        native.filegroup(name = name + "_quant_report", srcs = [":" + name], output_group = "quant_report", visibility = visibility, tags = kwargs.get("tags"))
    _program_srcs(name = name + "_program_srcs", model = ":" + name, out = name + "_program", tags = kwargs.get("tags"))
    native.cc_library(
        name = name + "_program",
        srcs = [":" + name + "_program.c"],
        hdrs = [":" + name + "_program.h"],
        # Firmware includes it as "<name>_program.h".
        strip_include_prefix = "/" + native.package_name(),
        visibility = visibility,
        tags = kwargs.get("tags"),
    )

def _executorch_model_report_impl(ctx):
    info = ctx.attr.model[TinyptePteInfo]
    pngs = ctx.attr.model[OutputGroupInfo].report.to_list()
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = """#!/usr/bin/env bash
# Generated by executorch_model_report {label}: prints the model report; --out DIR copies the plots.
set -euo pipefail
cat {summary}
out=""
if [[ "${{1:-}}" == "--out" ]]; then out=${{2:?--out needs a directory}}; fi
for png in {pngs}; do
  if [[ -n "$out" ]]; then
    [[ "$out" = /* ]] || out="${{BUILD_WORKING_DIRECTORY:-.}}/$out"
    mkdir -p "$out" && cp -f "$png" "$out/" && echo "  plot: $out/$(basename "$png")"
  else
    echo "  plot: $(readlink -f "$png")"
  fi
done
""".format(
            label = ctx.label,
            summary = info.summary.short_path,
            pngs = " ".join([p.short_path for p in pngs if p.extension == "png"]),
        ),
    )
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = pngs + [info.summary]))]

executorch_model_report = rule(
    implementation = _executorch_model_report_impl,
    executable = True,
    doc = """`bazel run` target printing a model's summary (parameters, constants, arena, ops)
and the paths of its two plots: the fit against the truth and the arena layout over time.
`bazel run :report -- --out DIR` copies the PNGs to DIR.""",
    attrs = {
        "model": attr.label(
            mandatory = True,
            providers = [TinyptePteInfo],
            doc = "An executorch_model target.",
        ),
    },
)
