"""Private attributes several rules share, and the one way they run the AOT toolkit.

    attrs = with_common_attrs({...}, stages = ["export", "golden"], transitions = True)
    "board": info_attr(TinypteBoardInfo, "The board's `<board>_info` target."),
    ...
    attrs = firmware_run_attrs({"timeout_seconds": ...}, firmware = "...", expect_output = "...")
    toolkit_action(ctx, "golden", mnemonic = "PteGolden", arguments = [...], ...)

Each stage of the toolkit (python/tinypte/<stage>/) has its own binary, `:tool`, holding only
that stage's modules: a rule declares the stages its actions run and gets one private
attribute each, `_<stage>_tool` (built for the exec platform). Editing one stage then
reruns only the actions of the rules that run it. Rules with Starlark transitions on their
attributes (host_transition and friends) also get the allowlist Bazel requires of them.
"""

load("//rules:providers.bzl", "TinypteFirmwareInfo")

_ALLOWLIST = attr.label(default = "@bazel_tools//tools/allowlists/function_transition_allowlist")

# Training, export and quantization are single-threaded and seeded; keep them that way. And
# a tool imports only what its runfiles hold: Python would otherwise put the directory of the
# entry point, with symlinks resolved (the source tree), first on sys.path, and find every
# stage there, whatever the tool's dependencies say (PYTHONSAFEPATH, Python 3.11).
_ACTION_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0", "PYTHONSAFEPATH": "1"}

# Every toolkit action may run in a persistent worker (tinypte.worker): the tool imports torch and
# ExecuTorch once and forks a child per action, instead of a process (and seconds of imports) per
# action. The arguments then travel in a param file, which Bazel reads into the work request.
_WORKER = {"supports-workers": "1"}

def _tool_attr(stage):
    return attr.label(
        default = "//python/tinypte/{}:tool".format(stage),
        executable = True,
        cfg = "exec",
    )

def info_attr(provider, doc, *, mandatory = True, **kwargs):
    """A label attribute naming one target of tinypte's own (a board, a firmware, a program, trained weights).

    Args:
      provider: The provider (rules/providers.bzl) the target must carry.
      doc: The attribute's documentation.
      mandatory: Whether the attribute must be set (it must, unless said otherwise).
      **kwargs: Other attr.label parameters (cfg, ...).
    """
    return attr.label(mandatory = mandatory, providers = [provider], doc = doc, **kwargs)

def firmware_run_attrs(attrs, *, firmware, expect_output):
    """`attrs` plus the attributes of a test that runs a firmware and checks its output
    (qemu_test, instruction_model_test): `firmware` and `expect_output`, with these docs."""
    merged = dict(attrs)
    merged["firmware"] = info_attr(TinypteFirmwareInfo, firmware)
    merged["expect_output"] = attr.string_list(doc = expect_output)
    return merged

def with_common_attrs(attrs, *, stages = [], transitions = False):
    """`attrs` plus `_<stage>_tool` for each of `stages` and, with `transitions`, `_allowlist_function_transition`."""
    merged = dict(attrs)
    for stage in stages:
        merged["_{}_tool".format(stage)] = _tool_attr(stage)
    if transitions:
        merged["_allowlist_function_transition"] = _ALLOWLIST
    return merged

def toolkit_action(ctx, stage, *, mnemonic, arguments, inputs, outputs, progress_message, subcommand = None):
    """Run `tinypte <subcommand> <arguments>` with stage `stage`'s tool (declared in `with_common_attrs`).

    Args:
      ctx: The rule context.
      stage: The toolkit stage whose tool runs (`export`, `golden`, ...).
      mnemonic: The action's mnemonic (PteExport, ...).
      arguments: The subcommand's arguments (strings or files).
      inputs: Files the action reads.
      outputs: Files it writes.
      progress_message: What Bazel shows while it runs.
      subcommand: The subcommand (`tinypte --help` lists them), when it is not the stage's name.
    """
    flags = ctx.actions.args()
    flags.add(subcommand or stage)
    flags.add_all(arguments)
    flags.use_param_file("@%s", use_always = True)
    flags.set_param_file_format("multiline")
    ctx.actions.run(
        executable = getattr(ctx.executable, "_{}_tool".format(stage)),
        arguments = [flags],
        inputs = inputs,
        outputs = outputs,
        mnemonic = mnemonic,
        progress_message = progress_message,
        env = _ACTION_ENV,
        execution_requirements = _WORKER,
    )
