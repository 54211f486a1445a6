"""cpu_libraries: C libraries built once per CPU, shared by every board with that CPU.

A firmware is built for its board's platform (firmware.bzl), and a configuration is named by
the platform, so without this every board would compile the runtime, the kernels and a model's
program again, byte for byte what a board with the same CPU compiles: the four Cortex-M33
boards four times. `cpu_libraries` builds its `deps` for the board's per-CPU platform instead
(`//platforms/cpu:<cpu>_<fpu>`, platforms/cpu/cpu_platforms.bzl: the same cross toolchain and
flags, no board constraint) and passes their CcInfo on, so the firmware (built for the board)
links them as if it depended on them directly, in the same order.

Only board-independent libraries belong in `deps`: their compile flags may depend on the CPU
and FPU, never on the board. A library that needs the board (its constraint value in
`target_compatible_with` or a `select`, its start-up code, the two-core boards' `:cores` or the
Pico 2 W's `:console` flag) stays in the board's configuration: the transition resets those
flags to their defaults (host_transition.bzl's FIRMWARE_SETTINGS), so that firmware built with
other values (firmware_with_cores) shares the per-CPU libraries too, and a board constraint is
simply not there (such a library fails analysis as incompatible).
"""

load("//rules/private:common_attrs.bzl", "with_common_attrs")
load("//rules/private:host_transition.bzl", "FIRMWARE_SETTINGS")

def _cpu_transition_impl(settings, attr):
    return dict(FIRMWARE_SETTINGS, **{"//command_line_option:platforms": str(attr.platform)})

# To the board's per-CPU platform, with the settings only board code reads at their defaults.
_cpu_transition = transition(
    implementation = _cpu_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"] + FIRMWARE_SETTINGS.keys(),
)

def _cpu_libraries_impl(ctx):
    infos = [dep[CcInfo] for dep in ctx.attr.deps]
    return [
        DefaultInfo(files = depset(transitive = [dep[DefaultInfo].files for dep in ctx.attr.deps])),
        cc_common.merge_cc_infos(direct_cc_infos = infos),
    ]

cpu_libraries = rule(
    implementation = _cpu_libraries_impl,
    doc = """`deps` built for a per-CPU platform, as one CcInfo (see the file's docstring).

A firmware's `deps` (tinypte_firmware) and a model firmware's app libraries go through one;
depend on it where the libraries themselves would be listed:

    cpu_libraries(
        name = "app_cpu_libs",
        platform = board.cpu_platform,         # //platforms/cpu:cortex_m33_fpv5_sp_d16
        deps = ["//runtime", ":model_kernels"],
        target_compatible_with = [board.constraint],
    )""",
    provides = [CcInfo],
    attrs = with_common_attrs({
        "deps": attr.label_list(
            cfg = _cpu_transition,
            providers = [CcInfo],
            doc = "Board-independent cc_library targets (the runtime, kernels, a program library, headers), built for `platform`; their order is the link order, as in a cc_library's `deps`.",
        ),
        "platform": attr.label(
            mandatory = True,
            doc = "The per-CPU platform to build `deps` for: a board's `cpu_platform` (board.bzl), the one whose CPU and FPU are the board's.",
        ),
    }, transitions = True),
)
