"""Transitions to the host platforms: where board-independent work is built, once.

`aot_transition`: training, export and everything else computed from a model (and the
conformance cases) does not depend on the board a firmware is for, so it must be built in
one configuration, whatever asked for it: `bazel build //models/sine:sine` at the top, or a
Pico 2 W firmware deep inside its board's configuration. Bazel 4.2.3 names a configuration
by the options Starlark transitions changed on the way to it, so "back to the top-level
platform" from a board is a different configuration from the top level itself (and trains
every model a second time). This transition goes to a platform of its own,
//platforms/host:aot (the host under another name), which is a change from every starting
point: the top level (//platforms/host) and every board alike. It also resets settings that
only firmware reads (the Pico 2 W's console, the two-core boards' `:cores`), so they cannot
split it either: `--//platforms/pico2w:cores=1` or a `firmware_with_cores` rebuilds
firmware, never a model. The rules of
that work take it as their incoming transition (`cfg = aot_transition` on the rule).

`ilp32_host_transition`: tools that compute what the runtime's structures take on a board
(//runtime/tools:pte_requirements) run on the host but are built for
//platforms/host:ilp32, the boards' data layout.

Rules using them need the `_allowlist_function_transition` attribute.

Every label here is tinypte's own, written `str(Label(...))`: "//platforms/host:aot" when
tinypte is the main repository, "@tinypte//platforms/host:aot" when it is another workspace's
dependency (a transition's setting keys and `--platforms` values are read in the main
repository, so a bare "//platforms/..." would name the user's package).
"""

AOT_PLATFORM = str(Label("//platforms/host:aot"))

# The `:cores` build setting of every board with `cores = 2` (tinypte_board checks that its
# board's is here): firmware_with_cores sets them, the AOT transition resets them.
CORES_FLAGS = [
    str(Label("//platforms/mps2_an521:cores")),
    str(Label("//platforms/pico2w:cores")),
]

# Build settings only board code reads, and their defaults: transitions into configurations
# shared by every board (this file's, cpu_libraries.bzl's) reset them.
FIRMWARE_SETTINGS = dict(
    {str(Label("//platforms/pico2w:console")): "usb"},
    **{flag: "2" for flag in CORES_FLAGS}
)

def _aot_transition_impl(settings, attr):
    return dict(FIRMWARE_SETTINGS, **{"//command_line_option:platforms": AOT_PLATFORM})

aot_transition = transition(
    implementation = _aot_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"] + FIRMWARE_SETTINGS.keys(),
)

_ILP32_PLATFORM = str(Label("//platforms/host:ilp32"))

def _ilp32_host_transition_impl(settings, attr):
    return {"//command_line_option:platforms": _ILP32_PLATFORM}

ilp32_host_transition = transition(
    implementation = _ilp32_host_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)
