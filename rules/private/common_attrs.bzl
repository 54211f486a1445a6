"""Private attributes several rules share, written once.

    attrs = with_common_attrs({...}, transitions = True)

adds `_tool`, the AOT toolkit (//python:tinypte, built for the exec platform), and, for
rules with Starlark transitions on their attributes (host_transition and friends), the
allowlist Bazel requires of them.
"""

_TOOL = attr.label(default = "//python:tinypte", executable = True, cfg = "exec")
_ALLOWLIST = attr.label(default = "@bazel_tools//tools/allowlists/function_transition_allowlist")

def with_common_attrs(attrs, *, transitions = False):
    """`attrs` plus `_tool` and, with `transitions`, `_allowlist_function_transition`."""
    merged = dict(attrs, _tool = _TOOL)
    if transitions:
        merged["_allowlist_function_transition"] = _ALLOWLIST
    return merged
