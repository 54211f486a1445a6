"""host_transition: build a dependency for //platforms/host from inside a board's subtree.

Firmware is built through a transition to the board's platform, and everything below it
inherits that platform. Models (training, export) do not depend on the board, so rules
that consume them (model_app_data, kernel_registry) take them through this transition:
every board then shares one build of each model instead of training it once per board.
Rules using it need the `_allowlist_function_transition` attribute.
"""

def _host_transition_impl(settings, attr):
    return {"//command_line_option:platforms": "//platforms/host"}

host_transition = transition(
    implementation = _host_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)
