"""Transitions to the host platforms, for dependencies built inside a board's subtree.

`host_transition`: firmware is built through a transition to the board's platform, and
everything below it inherits that platform. Models (training, export) do not depend on
the board, so rules that consume them (model_app_data, kernel_registry, the program
library) take them through this transition: every board then shares one build of each
model instead of training it once per board.

`ilp32_host_transition`: tools that compute what the runtime's structures take on a board
(//runtime/tools:pte_requirements) run on the host but are built for
//platforms/host:ilp32, the boards' data layout.

Rules using them need the `_allowlist_function_transition` attribute.
"""

def _host_transition_impl(settings, attr):
    return {"//command_line_option:platforms": "//platforms/host"}

host_transition = transition(
    implementation = _host_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)

def _ilp32_host_transition_impl(settings, attr):
    return {"//command_line_option:platforms": "//platforms/host:ilp32"}

ilp32_host_transition = transition(
    implementation = _ilp32_host_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)
