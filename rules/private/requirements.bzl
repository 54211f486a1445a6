"""model_requirements: what a model's program needs on the boards, computed by the runtime.

The runtime's state pool holds each kernel call's prepared state, so its size depends on
the kernels a firmware links. `model_firmware` builds `pte_requirements` with its own
kernel library (`<name>_requirements_tool`), and this rule runs it, built for
//platforms/host:ilp32 (the boards' data layout), on the model's program:

    <name>.json   {"program_bytes", "pool_bytes", "buffer_bytes", ..., "layout": {C fact: value}}

which app_data turns into statically sized buffers and pool (python/tinypte/firmware/requirements.py).
"""

load("//rules:providers.bzl", "TinyptePteInfo")
load("//rules/private:common_attrs.bzl", "info_attr", "with_common_attrs")
load("//rules/private:host_transition.bzl", "aot_transition", "ilp32_host_transition")
load("//rules/private:kernels.bzl", "kernel_library")
load("//rules/private:labels.bzl", "tinypte_label")

def _model_requirements_impl(ctx):
    info = ctx.attr.model[TinyptePteInfo]
    out = ctx.actions.declare_file(ctx.label.name + ".json")
    ctx.actions.run(
        executable = ctx.executable.tool,
        arguments = [info.pte.path, "--out", out.path],
        inputs = [info.pte],
        outputs = [out],
        mnemonic = "PteRequirements",
        progress_message = "Sizing {}'s buffers and state pool for the boards".format(ctx.attr.model.label),
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

model_requirements = rule(
    implementation = _model_requirements_impl,
    doc = "`<name>.json`: the program's buffers and state pool on the boards, from `tool` (pte_requirements).",
    # Sized once for every board and the top level.
    cfg = aot_transition,
    attrs = with_common_attrs({
        "model": info_attr(TinyptePteInfo, "The executorch_model whose program is sized."),
        "tool": attr.label(
            mandatory = True,
            executable = True,
            cfg = ilp32_host_transition,
            doc = "pte_requirements linked with the firmware's kernel library (built for the boards' data layout).",
        ),
    }, transitions = True),
)

def kernels_and_requirements(*, name, model, srcs = [], tags = []):
    """A program's kernel library and what the program needs with it, as model_firmware and
    model_library both build them:

        :<name>_kernels             kernel_library of `model`'s operators (and `srcs`)
        :<name>_requirements_tool   pte_requirements linked with those kernels (host-only, manual)
        :<name>_requirements        model_requirements: its JSON for `model`

    Args:
      name: Prefix of the three targets.
      model: The executorch_model (or executorch_program) label.
      srcs: Kernels of your own (C files with TP_KERNEL definitions).
      tags: Tags of every target.

    Returns:
      The labels (":<name>_kernels", ":<name>_requirements").
    """
    kernels = ":" + name + "_kernels"
    kernel_library(name = name + "_kernels", models = [model], srcs = srcs, tags = tags)
    native.cc_binary(
        name = name + "_requirements_tool",
        deps = [tinypte_label("//runtime/tools:pte_requirements_main"), kernels, tinypte_label("//runtime")],
        # Built only for the host data layout model_requirements asks for, not again for `//...`.
        tags = tags + ["manual"],
    )
    model_requirements(
        name = name + "_requirements",
        model = model,
        tool = ":" + name + "_requirements_tool",
        tags = tags,
    )
    return kernels, ":" + name + "_requirements"
