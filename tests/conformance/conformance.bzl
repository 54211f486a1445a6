"""Rules of the conformance suite: generate the cases (a directory) and embed them in C.

While writing kernels, `--define=conformance_only=REGEX` generates and embeds only the cases
whose name matches (the firmware then accepts fewer than MIN_CASES and says it ran a subset;
every shard runs the whole subset):
    bazel test --define=conformance_only='^leaky_relu' //tests/conformance:conformance_mps2_an505_test

conformance_cases runs generate.py once for every case (export with ExecuTorch, expected
outputs from ExecuTorch's host runtime) into a tree artifact; conformance_sources turns
that tree into cases.c/cases.h for firmware.
"""

load("//rules/private:host_transition.bzl", "aot_transition", "ilp32_host_transition")

# Supported cases the suite holds. Every runner (cases_test, the host test, the mutation test)
# fails when it checked fewer, and each firmware shard when it checked fewer than its share:
# cases cannot go missing unnoticed. Raise it when adding cases.
MIN_CASES = 501

# The firmware runs the suite in this many shards (every SHARDS-th case each): all of it in one
# image would overflow the smallest board's flash (Corstone-300's 512 KiB).
SHARDS = 4

def _conformance_cases_impl(ctx):
    out = ctx.actions.declare_directory(ctx.label.name)
    args = ["--out", out.path]
    only = ctx.attr.only or ctx.var.get("conformance_only", "")
    if only:
        args += ["--only", only]
    ctx.actions.run(
        executable = ctx.executable._generate,
        arguments = args,
        outputs = [out],
        mnemonic = "ConformanceCases",
        progress_message = "Exporting conformance cases and running them in ExecuTorch",
        env = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

conformance_cases = rule(
    implementation = _conformance_cases_impl,
    doc = """A directory with `<case>.pte`, inputs, ExecuTorch's outputs and manifest.json.

Built in one configuration whoever asks (tests at the top level, every board's firmware
shards): generating the suite takes minutes, and it does not depend on the board.""",
    cfg = aot_transition,
    attrs = {
        "only": attr.string(doc = "Regular expression selecting cases (default: all)."),
        "_generate": attr.label(default = ":generate", executable = True, cfg = "exec"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def _conformance_sources_impl(ctx):
    cases = ctx.file.cases
    out_c = ctx.actions.declare_file(ctx.label.name + "/cases.c")
    out_h = ctx.actions.declare_file(ctx.label.name + "/cases.h")
    args = [
        "--manifest",
        cases.path + "/manifest.json",
        "--requirements-tool",
        ctx.executable._requirements_tool.path,
        "--out-c",
        out_c.path,
        "--out-h",
        out_h.path,
    ]
    if ctx.attr.only:
        args += ["--only", ctx.attr.only]
    if ctx.attr.shard and not ctx.var.get("conformance_only", ""):
        args += ["--shard", ctx.attr.shard]  # a --define'd subset is small: every shard runs all of it
    if ctx.var.get("conformance_only", ""):
        args.append("--subset")
    ctx.actions.run(
        executable = ctx.executable._embed,
        arguments = args,
        inputs = [cases],
        tools = [ctx.executable._requirements_tool],
        outputs = [out_c, out_h],
        mnemonic = "ConformanceEmbed",
        progress_message = "Embedding conformance cases in C",
    )
    return [DefaultInfo(files = depset([out_c, out_h]))]

conformance_sources = rule(
    implementation = _conformance_sources_impl,
    doc = "`<name>/cases.c` and `<name>/cases.h`: the cases of a conformance_cases directory, for firmware.",
    # The same for every board: generated once per shard, compiled for each board.
    cfg = aot_transition,
    attrs = {
        "cases": attr.label(
            mandatory = True,
            allow_single_file = True,
            doc = "A conformance_cases target (built once, whichever board embeds it).",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
        "only": attr.string(doc = "Regular expression selecting cases (default: all)."),
        "shard": attr.string(doc = "`I/N`: every N-th selected case from the I-th (default: all)."),
        "_embed": attr.label(default = ":embed", executable = True, cfg = "exec"),
        "_requirements_tool": attr.label(
            default = "//runtime/tools:pte_requirements",
            executable = True,
            cfg = ilp32_host_transition,
        ),
    },
)
