"""opt_binary: a binary built with -c opt whatever the command line says, for benches.

The perf bench times tinypte's pte_run and ExecuTorch's runtime side by side; both must be
optimized builds even under `bazel run //tests/bench:perf` (fastbuild by default). This
rule builds `binary` through a transition that sets `--compilation_mode=opt` and exposes
it, with its runfiles, as its own executable.
"""

def _opt_transition_impl(settings, attr):
    return {"//command_line_option:compilation_mode": "opt"}

_opt_transition = transition(
    implementation = _opt_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:compilation_mode"],
)

def _opt_binary_impl(ctx):
    binary = ctx.attr.binary[0]
    executable = binary[DefaultInfo].files_to_run.executable
    out = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = out, target_file = executable, is_executable = True)
    runfiles = ctx.runfiles(files = [out]).merge(binary[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = out, files = depset([out]), runfiles = runfiles)]

opt_binary = rule(
    implementation = _opt_binary_impl,
    executable = True,
    doc = "`binary`, built with `--compilation_mode=opt`.",
    attrs = {
        "binary": attr.label(
            mandatory = True,
            executable = True,
            cfg = _opt_transition,
            doc = "A cc_binary to build optimized.",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)
