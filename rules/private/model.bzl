"""executorch_model: a model file's trained weights become a .pte, its facts, and a C library.

The `_executorch_model` rule runs cached, deterministic actions, each with its own stage of
the AOT toolkit (python/tinypte/<stage>/), from the weights of a `model_weights` target:

    Export    model.py + weights                     -> <name>.pte                  (float)
    Quantize  model.py + weights + float .pte        -> <name>.pte, <name>.quant.json,
                                                        <name>.edge                 (int8; int8
                                                        inputs and outputs unless float_io)
    Inspect   <name>.pte                             -> <name>.ops.json, .plan.json, .summary.txt
    Golden    model.py + weights (float) or .edge    -> <name>.golden.bin, <name>.golden.json
              and .pte (int8)
    Report    model.py + weights + golden + plan     -> <name>.fit.png, <name>.arena.png

Training is not among them (training.bzl): a model file trains once, whatever is built from
it. The `executorch_model` macro adds the training target when it is given a model file,
and `:<name>_program`, the program as a C library: the one embedding of the .pte, which
model firmware links and users can link themselves.
"""

load("//backends/ethos_u55:configs.bzl", "ETHOS_U55_TARGETS")
load("//rules:providers.bzl", "TinyptePteInfo", "TinypteWeightsInfo")
load("//rules/private:common_attrs.bzl", "info_attr", "toolkit_action", "with_common_attrs")
load("//rules/private:host_transition.bzl", "aot_transition")
load("//rules/private:training.bzl", "model_weights")

def _program_label(ctx):
    """The label people know the program by (`//models/sine:sine`, not this rule's `..._aot`)."""
    return str(ctx.label.relative(":" + ctx.attr.program_name))

def _planning_args(ctx):
    return ["--seed", str(ctx.attr.weights[TinypteWeightsInfo].seed), "--alignment", str(ctx.attr.alignment), "--memory-planning", ctx.attr.memory_planning]

def _program_action(ctx, trained, model_inputs):
    """The Export or Quantize action; returns (the int8 report or None, the edge program or None)."""
    pte = ctx.outputs.pte
    common = ["--model", trained.src.path, "--weights", trained.weights.path]
    if ctx.attr.quantize == "none":
        if ctx.attr.delegate:
            fail("executorch_model {}: `delegate = \"{}\"` runs an int8 program on the NPU: set quantize = \"int8\"".format(_program_label(ctx), ctx.attr.delegate))
        if ctx.attr.float_io:
            fail("executorch_model {}: `float_io` is for int8 programs (quantize = \"int8\"); a float program's inputs and outputs are float".format(_program_label(ctx)))
        if ctx.attr.float_model:
            fail("executorch_model {}: `float_model` is for int8 programs (quantize = \"int8\"); remove it".format(_program_label(ctx)))
        args = common + ["--pte", pte.path] + _planning_args(ctx)
        if not ctx.attr.constant_prop:
            args.append("--no-constant-prop")
        toolkit_action(
            ctx,
            "export",
            mnemonic = "PteExport",
            arguments = args,
            inputs = model_inputs,
            outputs = [pte],
            progress_message = "Exporting %s to .pte" % _program_label(ctx),
        )
        return None, None
    if not ctx.attr.float_model:
        fail("executorch_model {}: quantize = \"int8\" needs `float_model`, the float executorch_model of the same weights (the int8 report compares with it)".format(_program_label(ctx)))
    float_pte = ctx.attr.float_model[TinyptePteInfo].pte
    report = ctx.actions.declare_file(ctx.label.name + ".quant.json")
    delegate = ctx.attr.delegate
    # A delegated program's oracle is its delegates' TOSA graphs (backends/ethos_u55/aot/lowering.py);
    # another's, its quantized edge program. Only a delegated program's actions run the tools that
    # hold the Ethos-U side (//backends/ethos_u55/aot), so editing it reruns no other program's.
    edge = ctx.actions.declare_file(ctx.label.name + (".delegates.json" if delegate else ".edge"))
    toolkit_action(
        ctx,
        "quantize_delegated" if delegate else "quantize",
        subcommand = "quantize",
        mnemonic = "PteQuantize",
        arguments = common + [
            "--metrics",
            trained.metrics.path,
            "--float-pte",
            float_pte.path,
            "--pte",
            pte.path,
            "--report",
            report.path,
            "--edge-program",
            edge.path,
        ] + _planning_args(ctx) + (["--float-io"] if ctx.attr.float_io else []) + (["--delegate", delegate] if delegate else []),
        inputs = model_inputs + [trained.metrics, float_pte],
        outputs = [pte, report, edge],
        progress_message = ("Quantizing %s and compiling it for the %s with Vela" % (_program_label(ctx), delegate)) if delegate else ("Quantizing %s to an int8 .pte" % _program_label(ctx)),
    )
    return report, edge

def inspect_action(ctx, label, quant_report = None):
    """The PteInspect action of a program rule whose outputs include `pte`, `ops_json`,
    `plan_json` and `summary` (and whose attrs include the inspect_pte stage's tool)."""
    out = ctx.outputs
    args = ["--pte", out.pte.path, "--name", label, "--ops-json", out.ops_json.path, "--plan-json", out.plan_json.path, "--summary", out.summary.path]
    if quant_report:
        args += ["--quant-report", quant_report.path]
    toolkit_action(
        ctx,
        "inspect_pte",
        mnemonic = "PteInspect",
        arguments = args,
        inputs = [out.pte] + ([quant_report] if quant_report else []),
        outputs = [out.ops_json, out.plan_json, out.summary],
        progress_message = "Inspecting %s: operators and memory plan" % label,
    )

# The files every program rule predeclares (its `outputs`), so tests and genrules can name them:
# `:sine.pte`, `:sine.golden.bin`, ...
PROGRAM_OUTPUTS = {
    "pte": "%{name}.pte",
    "ops_json": "%{name}.ops.json",
    "plan_json": "%{name}.plan.json",
    "summary": "%{name}.summary.txt",
    "golden": "%{name}.golden.bin",
    "golden_json": "%{name}.golden.json",
}

def golden_action(ctx, arguments, inputs, progress_message, tool = "golden"):
    """The PteGolden action of a program rule: `golden` and `golden_json` from the golden stage's
    `arguments` (which name them), run by the rule's `tool` attribute (`golden`, or for a program
    with Ethos-U55 delegates `golden_delegated`, the stage with the backend's TOSA golden path)."""
    toolkit_action(
        ctx,
        tool,
        subcommand = "golden",
        mnemonic = "PteGolden",
        arguments = arguments,
        inputs = inputs,
        outputs = [ctx.outputs.golden, ctx.outputs.golden_json],
        progress_message = progress_message,
    )

def program_info(ctx, *, quantize, weights = None, src = None, quant_report = None, delegate = ""):
    """The TinyptePteInfo of a program rule: its predeclared outputs (PROGRAM_OUTPUTS) and these."""
    out = ctx.outputs
    return TinyptePteInfo(
        name = ctx.attr.program_name,
        quantize = quantize,
        pte = out.pte,
        ops_json = out.ops_json,
        plan_json = out.plan_json,
        summary = out.summary,
        golden = out.golden,
        golden_json = out.golden_json,
        weights = weights,
        src = src,
        quant_report = quant_report,
        delegate = delegate,
    )

def _executorch_model_impl(ctx):
    trained = ctx.attr.weights[TinypteWeightsInfo]
    out = ctx.outputs
    model_inputs = [trained.src, trained.weights] + trained.data.to_list()
    quant_report, edge = _program_action(ctx, trained, model_inputs)

    inspect_action(ctx, _program_label(ctx), quant_report)

    golden_args = ["--model", trained.src.path, "--out", out.golden.path, "--json", out.golden_json.path]
    if edge and ctx.attr.delegate:
        golden_args += ["--delegate-graphs", edge.path, "--program", out.pte.path]
    elif edge:
        golden_args += ["--edge-program", edge.path, "--program", out.pte.path]
    else:
        golden_args += ["--weights", trained.weights.path]
    golden_action(
        ctx,
        golden_args,
        ([trained.src, edge, out.pte] + trained.data.to_list()) if edge else model_inputs,
        "Computing golden outputs of %s with PyTorch" % _program_label(ctx),
        tool = "golden_delegated" if ctx.attr.delegate else "golden",
    )

    toolkit_action(
        ctx,
        "report",
        mnemonic = "PteReport",
        arguments = [
            "--model",
            trained.src.path,
            "--weights",
            trained.weights.path,
            "--golden",
            out.golden.path,
            "--pte",
            out.pte.path,
            "--plan-json",
            out.plan_json.path,
            "--fit-png",
            out.fit_png.path,
            "--arena-png",
            out.arena_png.path,
        ],
        inputs = model_inputs + [out.golden, out.pte, out.plan_json],
        outputs = [out.fit_png, out.arena_png],
        progress_message = "Plotting %s: fit and arena layout" % _program_label(ctx),
    )

    info = program_info(
        ctx,
        quantize = ctx.attr.quantize,
        weights = trained.weights,
        src = trained.src,
        quant_report = quant_report,
        delegate = ctx.attr.delegate,
    )
    return [
        DefaultInfo(
            files = depset([out.pte, out.ops_json, out.plan_json, out.summary, out.golden]),
            runfiles = ctx.runfiles(files = [out.pte, out.ops_json, out.plan_json, out.summary, out.golden, out.golden_json]),
        ),
        OutputGroupInfo(
            report = depset([out.summary, out.fit_png, out.arena_png]),
            quant_report = depset([quant_report] if quant_report else []),
            # A delegated program's oracle: its delegates' TOSA graphs (lowering.tosa_graphs).
            delegate_graphs = depset([edge] if edge and ctx.attr.delegate else []),
        ),
        info,
    ]

_executorch_model = rule(
    implementation = _executorch_model_impl,
    doc = """An ExecuTorch program (`.pte`) of a model file's trained weights.

Outputs: `<name>.pte`, `.ops.json`, `.plan.json`, `.summary.txt`, `.golden.bin`,
`.golden.json`; output group `report` adds the fit and arena PNGs. With `quantize = "int8"` the
program is the int8 one (ExecuTorch's Cortex-M quantizer; golden outputs from its reference
implementations, run on the very program the .pte was lowered from) and output group
`quant_report` holds `<name>.quant.json` (float vs int8).""",
    provides = [TinyptePteInfo],
    # Built in one configuration, whoever asks (a board's firmware or the top level).
    cfg = aot_transition,
    # Predeclared, so tests and genrules can name them; the report's plots besides.
    outputs = dict(PROGRAM_OUTPUTS, fit_png = "%{name}.fit.png", arena_png = "%{name}.arena.png"),
    attrs = with_common_attrs({
        "_quantize_delegated_tool": attr.label(
            default = "//backends/ethos_u55/aot:quantize_tool",
            executable = True,
            cfg = "exec",
            doc = "The quantize stage with the Ethos-U side: what a delegated program's PteQuantize runs.",
        ),
        "_golden_delegated_tool": attr.label(
            default = "//backends/ethos_u55/aot:golden_tool",
            executable = True,
            cfg = "exec",
            doc = "The golden stage with the Ethos-U side (the delegates' TOSA graphs): a delegated program's PteGolden.",
        ),
        "program_name": attr.string(
            mandatory = True,
            doc = "The program's name: the public target's, and the C prefix of its symbols.",
        ),
        "weights": info_attr(TinypteWeightsInfo, "The model_weights target: the model file and its trained weights."),
        "float_model": info_attr(TinyptePteInfo, "int8 only: the float executorch_model of the same weights, which the int8 report compares with.", mandatory = False),
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
        "float_io": attr.bool(
            default = False,
            doc = "int8 only: keep float32 inputs and outputs (the program quantizes its inputs and dequantizes its outputs itself). By default an int8 program takes and returns int8; its .pte's config methods `input<N>_scale`, `input<N>_zp`, ... (ExecuTorch's names) and the program header's macros say how each is quantized.",
        ),
        "delegate": attr.string(
            default = "",
            values = [""] + ETHOS_U55_TARGETS,
            doc = "int8 only: an Arm Ethos-U55 configuration (MACs per cycle) to lower to with ExecuTorch's Ethos-U partitioner and Vela. What the NPU takes becomes `EthosUBackend` delegates; what it cannot take stays on the CPU as cortex_m/portable operators, and the summary says which and why. The summary and `<name>.quant.json` carry Vela's per-layer estimates (NPU cycles, SRAM, flash); golden outputs come from each delegate's TOSA graph in `tosa_reference_model`.",
        ),
        "memory_planning": attr.string(
            default = "best",
            values = ["best", "greedy", "lowest_offset", "naive"],
            doc = "Arena planning: `best` keeps the smaller arena of `greedy` (ExecuTorch's: shares buffers between tensors whose lifetimes do not overlap) and `lowest_offset` (tinypte's: each tensor at the lowest offset free for its lifetime, python/tinypte/export/offset_planning.py); `naive` gives each tensor its own slot.",
        ),
    }, stages = ["export", "quantize", "inspect_pte", "golden", "report"], transitions = True),
)

_FILES = ["pte", "ops_json", "plan_json", "summary", "golden", "golden_json"]

def _model_files_impl(ctx):
    program = ctx.attr.program
    info = program[TinyptePteInfo]
    links = []
    for field in _FILES:
        link = getattr(ctx.outputs, field)
        ctx.actions.symlink(output = link, target_file = getattr(info, field))
        links.append(link)
    return [
        DefaultInfo(files = depset(links[:5]), runfiles = ctx.runfiles(files = links)),
        program[OutputGroupInfo],
        info,
    ]

_model_files = rule(
    implementation = _model_files_impl,
    doc = """A model's program under its own name, its files linked into this package's output
directory (`bazel-bin/<package>/<name>.pte`, ...), its providers those of `program`.

`program` (an `_executorch_model`) is built in the configuration of //platforms/host:aot,
whoever asks for it, so that a model is trained and exported once for the top level and every
board; its files lie in that configuration's output directory. This target is where people
and tests find them.""",
    provides = [TinyptePteInfo],
    outputs = {field: "%{name}." + suffix for field, suffix in [
        ("pte", "pte"),
        ("ops_json", "ops.json"),
        ("plan_json", "plan.json"),
        ("summary", "summary.txt"),
        ("golden", "golden.bin"),
        ("golden_json", "golden.json"),
    ]},
    attrs = {
        "program": info_attr(TinyptePteInfo, "The _executorch_model whose files and providers this target presents."),
    },
)

def _program_srcs_impl(ctx):
    info = ctx.attr.model[TinyptePteInfo]
    toolkit_action(
        ctx,
        "firmware",
        subcommand = "header",
        mnemonic = "PteHeader",
        arguments = [
            "--pte",
            info.pte.path,
            "--name",
            info.name,
            "--label",
            str(ctx.attr.model.label),
            "--out-h",
            ctx.outputs.header.path,
            "--out-c",
            ctx.outputs.source.path,
        ],
        inputs = [info.pte],
        outputs = [ctx.outputs.header, ctx.outputs.source],
        progress_message = "Embedding %s as a C array" % info.pte.short_path,
    )

_program_srcs = rule(
    implementation = _program_srcs_impl,
    doc = "`<name>.h` and `<name>.c`: a model's .pte as a C array (python/tinypte/firmware/header.py).",
    # Generated once, compiled for each board.
    cfg = aot_transition,
    attrs = with_common_attrs({
        "model": info_attr(TinyptePteInfo, "The executorch_model."),
        "out": attr.string(mandatory = True, doc = "Base name of the two files."),
    }, stages = ["firmware"], transitions = True),
    outputs = {"header": "%{out}.h", "source": "%{out}.c"},
)

def executorch_model(*, name, src = None, data = [], seed = 0, weights = None, quantize = "none", float_model = None, float_io = False, delegate = "", visibility = None, tags = None, **kwargs):
    """A model's ExecuTorch program, its facts, and its program library.

    Give it a model file (`src`), and it trains it too (`:<name>_weights`, a model_weights);
    a model file and `weights = "model.pt"`, a state_dict trained elsewhere (a notebook), and
    those weights are used instead of train(); or the `weights` of a model_weights target,
    which several programs of one model file share (the float and int8 programs of a model
    train once).

    Creates:
    * `:<name>_weights` — with `src`: the trained weights (model_weights);
    * `:<name>` — the program (`TinyptePteInfo`; see `_executorch_model` for its outputs, which
      it links into `bazel-bin/<package>/`), built by `:<name>_aot` in the one configuration
      every model is built in (//platforms/host:aot);
    * `:<name>_quant_report` — int8: `<name>.quant.json` (float vs int8 metrics and sizes);
    * `:<name>_program` — a `cc_library` whose header `<name>_program.h` declares the
      program as `const uint8_t <name>_pte[<NAME>_PTE_SIZE]` (16-byte aligned, in the
      flash section `.rodata.tinypte.model`, read in place by the runtime) with
      `<NAME>_PTE_SIZE` and `<NAME>_PTE_SHA256`. Model firmware links exactly this.

    Args:
      name: Target name; also the C prefix of the program's symbols (a C identifier).
      src: The model file (python/tinypte/model/loading.py); trains it, unless `weights` is a
        state_dict file.
      data: Files the model file reads (with `src`).
      seed: The training seed (with `src`).
      weights: A state_dict file (`.pt`, with `src`: its build() must fit it), or a
        model_weights target to build the program from (without `src`).
      quantize: `none` (float) or `int8` (see `_executorch_model`).
      float_model: int8: the float executorch_model of the same weights, which the int8
        report compares with (default: one made here, `:<name>_float`).
      float_io: int8: keep float32 inputs and outputs (default: the program takes and returns
        int8; `<name>_program.h` gives each one's scale and zero point, and helpers to convert).
      delegate: int8: an Ethos-U55 configuration ("ethos-u55-128", ...): lower what the NPU takes
        to it (see `_executorch_model`); the program's firmware needs a board with that NPU.
      visibility: Visibility of the targets.
      tags: Tags of every target.
      **kwargs: Other attributes of the program: `constant_prop`, `alignment`,
        `memory_planning` (see `_executorch_model`).
    """
    given = weights != None and (weights.endswith(".pt") or weights.endswith(".pth"))
    if src == None and weights == None:
        fail("executorch_model {}: give `src` (a model file, trained here), `src` and `weights` (a state_dict file trained elsewhere), or `weights` (a model_weights target)".format(name))
    if src != None and weights != None and not given:
        fail("executorch_model {}: with `src`, `weights` is a state_dict file (\"model.pt\"); a model_weights target replaces `src`".format(name))
    if given and src == None:
        fail("executorch_model {}: `weights = \"{}\"` needs `src`, the model file whose build() the weights fit".format(name, weights))
    if src != None:
        model_weights(name = name + "_weights", src = src, data = data, seed = seed, state_dict = weights if given else None, visibility = visibility, tags = tags)
        weights = ":" + name + "_weights"
    elif data or seed:
        fail("executorch_model {}: `data` and `seed` belong to the model_weights target {}".format(name, weights))
    if quantize == "int8" and float_model == None:
        float_model = ":" + name + "_float"
        _executorch_model(name = name + "_float", program_name = name + "_float", weights = weights, tags = tags, **kwargs)
    _executorch_model(
        name = name + "_aot",
        program_name = name,
        weights = weights,
        quantize = quantize,
        float_model = float_model,
        float_io = float_io,
        delegate = delegate,
        visibility = visibility,
        tags = tags,
        **kwargs
    )
    program_library(name = name, program = ":" + name + "_aot", visibility = visibility, tags = tags)
    if quantize == "int8":
        native.filegroup(name = name + "_quant_report", srcs = [":" + name], output_group = "quant_report", visibility = visibility, tags = tags)

def program_library(*, name, program, visibility = None, tags = None):
    """`:<name>`, a program's files under its own name (`program`: a rule providing
    TinyptePteInfo, built in the AOT configuration), and `:<name>_program`, the program as a C
    library (see executorch_model)."""
    _model_files(name = name, program = program, visibility = visibility, tags = tags)
    _program_srcs(name = name + "_program_srcs", model = ":" + name, out = name + "_program", tags = tags)
    native.cc_library(
        name = name + "_program",
        srcs = [":" + name + "_program.c"],
        hdrs = [":" + name + "_program.h"],
        # Firmware includes it as "<name>_program.h".
        strip_include_prefix = "/" + native.package_name(),
        visibility = visibility,
        tags = tags,
    )
