"""The per-CPU platforms: one for each CPU/FPU pair a board uses (one cross toolchain each).

A board's platform is its CPU, its FPU and the board itself. Code whose compile flags depend on
the CPU and FPU only (the runtime, the kernels, a model's program and kernel registry) is built
for `//platforms/cpu:<cpu>_<fpu>` instead, by `cpu_libraries` (rules/private/cpu_libraries.bzl),
so every board with that pair shares one compile of it: the Pico 2 W, mps2-an505, mps2-an521
and corstone300_npu are all `cortex_m33_fpv5_sp_d16`.
"""

# (cpu, fpu) value names (//platforms/cpu, //platforms/fpu) that boards use, as the cross
# toolchains in //toolchains pair them. A board with a new pair adds it here too.
CPU_FPU_PAIRS = [
    ("cortex_m33", "fpv5_sp_d16"),
    ("cortex_m55", "mve_fp"),
    ("cortex_m7", "fpv5_d16"),
    ("rv32imac", "none"),
    ("rv32imac", "riscv_f"),
]

# tinypte's packages of CPU and FPU values, as canonical strings ("@tinypte//platforms/cpu:" when
# tinypte is another workspace's dependency, rules/private/labels.bzl).
_CPU_PACKAGE = str(Label("//platforms/cpu:x"))[:-1]
_FPU_PACKAGE = str(Label("//platforms/fpu:x"))[:-1]

# How tinypte's own board.bzl files write them (strings read in tinypte's packages).
_LOCAL_CPU_PACKAGE = "//platforms/cpu:"
_LOCAL_FPU_PACKAGE = "//platforms/fpu:"

def _value(label, package, local_package):
    """The value name of `label` in `package` (canonical) or `local_package`, or None."""
    for prefix in (package, local_package):
        if label.startswith(prefix):
            return label[len(prefix):]
    return None

def cpu_platform_label(board_name, cpu, fpu):
    """The per-CPU platform of a board with `cpu` and `fpu` (labels of their values).

    Args:
      board_name: The board's name, for the error message.
      cpu: A `//platforms/cpu` value, e.g. "//platforms/cpu:cortex_m33" (in tinypte's own
        board.bzl files) or "@tinypte//platforms/cpu:cortex_m33" (in another workspace).
      fpu: A `//platforms/fpu` value, e.g. "//platforms/fpu:fpv5_sp_d16".

    Returns:
      The canonical label string of `//platforms/cpu:<cpu>_<fpu>`.
    """
    pair = (_value(cpu, _CPU_PACKAGE, _LOCAL_CPU_PACKAGE), _value(fpu, _FPU_PACKAGE, _LOCAL_FPU_PACKAGE))
    if None in pair:
        fail("board({}): cpu and fpu must be values of tinypte's //platforms/cpu and //platforms/fpu written as full labels (\"{}cortex_m33\"), got cpu = {}, fpu = {}".format(board_name, _CPU_PACKAGE, repr(cpu), repr(fpu)))
    if pair not in CPU_FPU_PAIRS:
        fail("board({}): no per-CPU platform for cpu {} with fpu {}: add {} to CPU_FPU_PAIRS in platforms/cpu/cpu_platforms.bzl (and its toolchain to toolchains/BUILD.bazel); known pairs: {}".format(
            board_name,
            pair[0],
            pair[1],
            repr(pair),
            CPU_FPU_PAIRS,
        ))
    return _CPU_PACKAGE + "{}_{}".format(pair[0], pair[1])

def cpu_platforms():
    """Declares `:<cpu>_<fpu>` for each of CPU_FPU_PAIRS (in //platforms/cpu)."""
    for cpu, fpu in CPU_FPU_PAIRS:
        native.platform(
            name = "{}_{}".format(cpu, fpu),
            constraint_values = ["@platforms//os:none", ":" + cpu, _FPU_PACKAGE + fpu],
        )

def canonical_cpu_fpu(board_name, cpu, fpu):
    """`cpu` and `fpu` (as cpu_platform_label takes them) as canonical label strings of tinypte's
    values, which name them from any package of any workspace (a board's platform is declared in
    its own package, tinypte's or the user's)."""
    cpu_platform_label(board_name, cpu, fpu)
    return (
        _CPU_PACKAGE + _value(cpu, _CPU_PACKAGE, _LOCAL_CPU_PACKAGE),
        _FPU_PACKAGE + _value(fpu, _FPU_PACKAGE, _LOCAL_FPU_PACKAGE),
    )
