"""kernel_library: a cc_library with only the kernels some ExecuTorch programs call.

    kernel_library(
        name = "sine_kernels",
        models = ["//models/sine:sine"],     # executorch_model targets
        srcs = ["my_op.c"],                  # optional: kernels of your own
    )

expands to a `kernel_registry` (an action running `tinypte kernels`, which reads each
model's ops.json and scans the portable kernel sources and `srcs` for
`TP_KERNEL(ns, name, overload)` lines) and a `cc_library` holding the generated registry,
which defines `tp_selected_kernels`, and compiling `srcs`. The registry references only
the selected kernels, so the linker keeps only those from //runtime/kernels:portable and
`srcs` (each kernel is its own object file and section).

An operator with no kernel fails the build at the registry action with the operator,
the model, where portable kernels live and the `srcs` attribute for one of your own.
"""

load("//rules:providers.bzl", "TinyptePteInfo", "TinypteKernelRegistryInfo")
load("//rules/private:common_attrs.bzl", "toolkit_action", "with_common_attrs")
load("//rules/private:host_transition.bzl", "aot_transition")
load("//rules/private:labels.bzl", "tinypte_label")

def _kernel_registry_impl(ctx):
    registry_c = ctx.actions.declare_file(ctx.label.name + ".c")
    kernels_json = ctx.actions.declare_file(ctx.label.name + ".json")
    args = ["--sources"] + ctx.files._portable_sources
    args += ["--backend-sources"] + ctx.files._backend_sources
    if ctx.files.srcs:
        args += ["--user-sources"] + ctx.files.srcs
    ops = [m[TinyptePteInfo].ops_json for m in ctx.attr.models]
    if ctx.attr.all:
        if ops:
            fail("kernel_registry: set either `models` or `all = True`, not both")
        args.append("--all")
    else:
        if not ops:
            fail("kernel_registry: `models` is empty; list executorch_model targets or set `all = True`")
        args += ["--ops-json"] + ops
    args += ["--out-c", registry_c, "--out-json", kernels_json]
    toolkit_action(
        ctx,
        "kernels",
        mnemonic = "KernelRegistry",
        arguments = args,
        inputs = ctx.files._portable_sources + ctx.files._backend_sources + ctx.files.srcs + ops,
        outputs = [registry_c, kernels_json],
        progress_message = "Selecting kernels for %s" % ctx.label,
    )
    return [
        DefaultInfo(files = depset([registry_c])),
        OutputGroupInfo(kernels_json = depset([kernels_json])),
        TinypteKernelRegistryInfo(
            registry_c = registry_c,
            kernels_json = kernels_json,
            models = [m.label for m in ctx.attr.models],
        ),
    ]

kernel_registry = rule(
    implementation = _kernel_registry_impl,
    doc = "Generates `<name>.c` (the registry) and `<name>.json` (the selection) for `kernel_library`.",
    provides = [TinypteKernelRegistryInfo],
    # The registry does not depend on the board: generated once, compiled for each board.
    cfg = aot_transition,
    attrs = with_common_attrs({
        "models": attr.label_list(
            providers = [TinyptePteInfo],
            doc = "executorch_model targets whose operators the registry must serve.",
        ),
        "all": attr.bool(
            default = False,
            doc = "Register every kernel found (host tools such as pte_run) instead of a selection.",
        ),
        "srcs": attr.label_list(
            allow_files = [".c"],
            doc = "Kernels of your own (C files with `TP_KERNEL` definitions) for operators the portable set lacks, scanned with the portable ones.",
        ),
        "_portable_sources": attr.label(default = "//runtime/kernels:kernel_sources"),
        "_backend_sources": attr.label(default = "//runtime/backends:backend_sources"),
    }, stages = ["kernels"], transitions = True),
)

def kernel_library(name, models = [], all = False, srcs = [], visibility = None, tags = None):
    """A cc_library registering the kernels `models` use (or all kernels).

    Args:
      name: the cc_library's name; `<name>_registry` is the generating target.
      models: executorch_model targets to serve.
      all: register every kernel instead (for host tools and conformance runners).
      srcs: kernels of your own, for operators the portable kernels lack; compiled into
        the library (each is linked only when a program calls it).
      visibility: visibility of the cc_library.
      tags: tags for both targets (e.g. `manual` for deliberately failing examples).
    """
    kernel_registry(
        name = name + "_registry",
        models = models,
        all = all,
        srcs = srcs,
        visibility = visibility,
        tags = tags,
    )
    native.cc_library(
        name = name,
        srcs = [":" + name + "_registry"] + srcs,
        deps = [
            tinypte_label("//runtime"),
            tinypte_label("//runtime/backends"),
            tinypte_label("//runtime/kernels:portable"),
        ],
        visibility = visibility,
        tags = tags,
    )
