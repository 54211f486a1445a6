"""executorch_cortex_m_cases: ExecuTorch's own Cortex-M test cases, lowered by its own flow.

Lowering the backend's few hundred cases takes minutes, so it is split in `parts` cached
actions (lower.py --part I/N, run side by side), merged into one directory in the format of
the operator conformance suite (tests/conformance/README.md), which its host test and its
firmware shards read.
"""

load("//rules/private:host_transition.bzl", "aot_transition")

def _executorch_cortex_m_cases_impl(ctx):
    parts = []
    for part in range(ctx.attr.parts):
        directory = ctx.actions.declare_directory("{}_part{}".format(ctx.label.name, part))
        ctx.actions.run(
            executable = ctx.executable._lower,
            arguments = ["--out", directory.path, "--part", "{}/{}".format(part, ctx.attr.parts)],
            outputs = [directory],
            mnemonic = "LowerCortexMCases",
            progress_message = "Lowering ExecuTorch's Cortex-M test cases, part {} of {}".format(part + 1, ctx.attr.parts),
            env = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
        )
        parts.append(directory)
    out = ctx.actions.declare_directory(ctx.label.name)
    ctx.actions.run(
        executable = ctx.executable._merge,
        arguments = ["--out", out.path] + [p.path for p in parts],
        inputs = parts,
        outputs = [out],
        mnemonic = "MergeCortexMCases",
        progress_message = "Merging the lowered Cortex-M test cases",
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

executorch_cortex_m_cases = rule(
    implementation = _executorch_cortex_m_cases_impl,
    doc = """A directory with `<case>.pte`, inputs, expected outputs and manifest.json.

Every McuTestCase of the installed backend's tests, lowered with the default and the
explicit-layout pipelines; built in one configuration (//platforms/host:aot) for the host
test and every board's firmware.""",
    cfg = aot_transition,
    attrs = {
        "parts": attr.int(default = 2, doc = "Lowering actions (every parts-th test case each, both its pipelines)."),
        "_lower": attr.label(default = ":lower", executable = True, cfg = "exec"),
        "_merge": attr.label(default = ":merge", executable = True, cfg = "exec"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
