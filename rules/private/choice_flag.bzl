"""choice_flag: a command-line build setting that takes one of a fixed set of strings.

    choice_flag(name = "console", build_setting_default = "usb", values = ["usb", "uart"])

    bazel build //models/sine:pico2w_uf2 --//platforms/pico2w:console=uart

A value outside `values` fails the build naming the setting and the allowed values. Match a
value with `config_setting(flag_values = {":console": "uart"})`.
"""

def _choice_flag_impl(ctx):
    if ctx.build_setting_value not in ctx.attr.values:
        fail("{} = '{}': the choices are {}".format(ctx.label, ctx.build_setting_value, ", ".join(ctx.attr.values)))
    return []

choice_flag = rule(
    implementation = _choice_flag_impl,
    build_setting = config.string(flag = True),
    doc = "A string build setting restricted to `values` (set with --<label>=<value>).",
    attrs = {
        "values": attr.string_list(
            mandatory = True,
            doc = "The allowed values; `build_setting_default` must be one of them.",
        ),
    },
)
