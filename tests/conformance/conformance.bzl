"""Rules of the conformance suite: generate the cases (a directory) and embed them in C.

While writing kernels, `--define=conformance_only=REGEX` generates and embeds only the cases
whose name matches (the firmware then accepts fewer than MIN_CASES and says it ran a subset;
every shard runs the whole subset):
    bazel test --define=conformance_only='^leaky_relu' //tests/conformance:conformance_mps2_an505_test

conformance_cases runs generate.py once for every case (export with ExecuTorch, expected
outputs from ExecuTorch's host runtime) into a tree artifact; conformance_sources turns
that tree into cases.c/cases.h for firmware.
"""

load("//python:defs.bzl", "tinypte_py_test")
load("//rules:defs.bzl", "qemu_test", "tinypte_firmware")
load("//rules/private:common_attrs.bzl", "with_common_attrs")
load("//rules/private:host_transition.bzl", "aot_transition", "ilp32_host_transition")

# Supported cases the suite holds. Every runner (cases_test, the host test, the mutation test)
# fails when it checked fewer, and each firmware shard when it checked fewer than its share:
# cases cannot go missing unnoticed. Raise it when adding cases.
MIN_CASES = 516

# The dtype variants (dtype_variants.py) are generated in this many actions (every
# DTYPE_SHARDS-th case each), and //tests/conformance:dtype_coverage_test must check at least
# MIN_DTYPE_VARIANTS of them in tinypte's runtime.
DTYPE_SHARDS = 2
MIN_DTYPE_VARIANTS = 740

# The firmware runs the suite in this many shards (every SHARDS-th case each): all of it in one
# image would overflow the smallest board's flash (Corstone-300's 512 KiB).
SHARDS = 4

def _conformance_cases_impl(ctx):
    out = ctx.actions.declare_directory(ctx.label.name)
    args = ["--out", out.path] + ctx.attr.args
    only = ctx.attr.only or ctx.var.get("conformance_only", "")
    if only:
        args += ["--only", only]
    ctx.actions.run(
        executable = ctx.executable.generator,
        arguments = args,
        outputs = [out],
        mnemonic = "ConformanceCases",
        progress_message = "Exporting conformance cases (%s) and running them in ExecuTorch" % ctx.label.name,
        env = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

conformance_cases = rule(
    implementation = _conformance_cases_impl,
    doc = """A directory with `<case>.pte`, inputs, ExecuTorch's outputs and manifest.json.

Built in one configuration whoever asks (tests at the top level, every board's firmware
shards): generating the suite takes minutes, and it does not depend on the board.""",
    cfg = aot_transition,
    attrs = with_common_attrs({
        "only": attr.string(doc = "Regular expression selecting cases (default: all; generate.py only)."),
        "args": attr.string_list(doc = "More arguments of the generator (dtype_variants.py's shard)."),
        "generator": attr.label(
            default = ":generate",
            executable = True,
            cfg = "exec",
            doc = "The program writing the directory: generate.py, or dtype_variants.py for the dtype variants.",
        ),

    }, transitions = True),
)

def _conformance_sources_impl(ctx):
    cases = ctx.file.cases
    out_c = ctx.actions.declare_file(ctx.label.name + "/cases.c")
    out_h = ctx.actions.declare_file(ctx.label.name + "/cases.h")
    args = [
        "--manifest",
        cases.path + "/manifest.json",
        "--requirements-tool",
        ctx.executable._requirements_tool.path,
        "--out-c",
        out_c.path,
        "--out-h",
        out_h.path,
    ]
    if ctx.attr.only:
        args += ["--only", ctx.attr.only]
    if ctx.attr.shard and not ctx.var.get("conformance_only", ""):
        args += ["--shard", ctx.attr.shard]  # a --define'd subset is small: every shard runs all of it
    if ctx.var.get("conformance_only", ""):
        args.append("--subset")
    if ctx.attr.exclude:
        args += ["--exclude", ctx.attr.exclude]
    if ctx.attr.max_flash_bytes:
        args += ["--max-flash-bytes", str(ctx.attr.max_flash_bytes)]
    if ctx.attr.max_arena_bytes:
        args += ["--max-arena-bytes", str(ctx.attr.max_arena_bytes)]
    ctx.actions.run(
        executable = ctx.executable._embed,
        arguments = args,
        inputs = [cases],
        tools = [ctx.executable._requirements_tool],
        outputs = [out_c, out_h],
        mnemonic = "ConformanceEmbed",
        progress_message = "Embedding conformance cases in C",
    )
    return [DefaultInfo(files = depset([out_c, out_h]))]

conformance_sources = rule(
    implementation = _conformance_sources_impl,
    doc = "`<name>/cases.c` and `<name>/cases.h`: the cases of a conformance_cases directory, for firmware.",
    # The same for every board: generated once per shard, compiled for each board.
    cfg = aot_transition,
    attrs = with_common_attrs({
        "cases": attr.label(
            mandatory = True,
            allow_single_file = True,
            doc = "A conformance_cases target (built once, whichever board embeds it).",
        ),
        "only": attr.string(doc = "Regular expression selecting cases (default: all)."),
        "shard": attr.string(doc = "`I/N`: every N-th selected case from the I-th (default: all)."),
        "exclude": attr.string(doc = "Regular expression of cases to leave out (the large ones of conformance_firmware)."),
        "max_flash_bytes": attr.int(doc = "Fail when the cases' programs and data exceed this many bytes (0: no check)."),
        "max_arena_bytes": attr.int(doc = "Fail when the largest case's arena exceeds this many bytes (0: no check)."),
        "_embed": attr.label(default = ":embed", executable = True, cfg = "exec"),
        "_requirements_tool": attr.label(
            default = "//runtime/tools:pte_requirements",
            executable = True,
            cfg = ilp32_host_transition,
        ),
    }, transitions = True),
)

# What the conformance firmware itself takes besides the cases: code and constants of the
# runtime and every kernel (about 140 KB on the Cortex-M55), and RAM besides the arena and the
# stack. A large case runs on a board only when its bytes fit beside these.
_CODE_RESERVE = 200 * 1024
_RAM_RESERVE = 8 * 1024

def _region_size(board, region):
    for r in board.memory:
        if r.name == region:
            return r.size
    fail("board {} has no memory region {}".format(board.name, region))

def _fits(board, flash, ram):
    return (_region_size(board, board.flash_region) >= flash + _CODE_RESERVE and
            _region_size(board, board.ram_region) >= ram + board.stack_size + _RAM_RESERVE)

def _cases_image(name, board, cases_lib, min_cases, timeout_seconds):
    tinypte_firmware(
        name = name,
        board = board,
        srcs = ["//tests/conformance:conformance_app.c"],
        local_defines = ["TP_CONFORMANCE_MIN_CASES={}".format(min_cases)],
        deps = [
            cases_lib,
            "//platforms/common:board_api",
            "//runtime",
            "//runtime/app:format",
            "//runtime/kernels:all",
        ],
    )
    qemu_test(
        name = name + "_test",
        size = "medium",
        expect_output = ["^conformance: [1-9][0-9]* cases, [1-9][0-9]* outputs checked, 0 failed$"],
        firmware = ":" + name,
        timeout_seconds = timeout_seconds,
    )

def _cases_library(name, cases, **kwargs):
    conformance_sources(name = name + "_c", cases = cases, **kwargs)
    native.cc_library(
        name = name + "_lib",
        srcs = [":{}_c".format(name)],
        hdrs = [":{}_c".format(name)],
        # cases.c and the app include "cases.h" from the generated directory (generated once, in
        # the configuration of //platforms/host:aot: a virtual include directory finds it there).
        strip_include_prefix = name + "_c",
        # Board code (sized for the boards' data layout): built only through the firmware.
        target_compatible_with = ["@platforms//os:none"],
        deps = ["//runtime"],
    )

def conformance_firmware(
        name,
        cases,
        shards,
        min_cases,
        boards,
        large_cases = {},
        shard_flash = None,
        shard_ram = None,
        timeout_seconds = 240):
    """Run a conformance_cases-style directory on every board under QEMU, in `shards` images.

    For each shard i: `<name>_cases_<i>_c` (conformance_sources) and `<name>_cases_<i>_lib`,
    and per board `<name>_<board>_<i>` (firmware: conformance_app.c with every kernel) and
    `<name>_<board>_<i>_test`. Each large case gets an image of its own per board it fits
    (`<name>_<board>_<case>`), run by `<name>_<board>_<case>_test`. `<name>_<board>_test` is
    the test_suite of a board's images. Each shard must check at least its share of the cases.

    Args:
      name: prefix of every target.
      cases: a directory target holding manifest.json (conformance_cases, executorch_cortex_m_cases).
      shards: how many images the other cases are split into (every shards-th case each).
      min_cases: the suite's minimum; each shard checks at least (min_cases - large) // shards.
      boards: the boards (//platforms:boards.bzl structs) to run on.
      large_cases: {case name: (flash bytes, ram bytes)}: cases too big to share an image, with
        the bytes their program and data take in flash and the arena they need (checked when
        embedding); each runs on the boards where it fits beside the firmware's own code.
      shard_flash: the most bytes of programs and data a shard may hold (checked when
        embedding: a case that grows past it must move to large_cases); None: no check.
      shard_ram: the largest arena a shard's cases may need (checked likewise); None: no check.
      timeout_seconds: QEMU's limit per image.
    """
    exclude = "^({})$".format("|".join(sorted(large_cases))) if large_cases else ""
    per_shard = (min_cases - len(large_cases)) // shards
    for shard in range(shards):
        _cases_library(
            name = "{}_cases_{}".format(name, shard),
            cases = cases,
            shard = "{}/{}".format(shard, shards),
            exclude = exclude,
            max_flash_bytes = shard_flash or 0,
            max_arena_bytes = shard_ram or 0,
        )
        for board in boards:
            _cases_image(
                name = "{}_{}_{}".format(name, board.name, shard),
                board = board,
                cases_lib = ":{}_cases_{}_lib".format(name, shard),
                min_cases = per_shard,
                timeout_seconds = timeout_seconds,
            )
    for case, (flash, ram) in sorted(large_cases.items()):
        _cases_library(
            name = "{}_cases_{}".format(name, case),
            cases = cases,
            only = "^{}$".format(case),
            max_flash_bytes = flash,
            max_arena_bytes = ram,
        )
        for board in boards:
            if _fits(board, flash, ram):
                _cases_image(
                    name = "{}_{}_{}".format(name, board.name, case),
                    board = board,
                    cases_lib = ":{}_cases_{}_lib".format(name, case),
                    min_cases = 1,
                    timeout_seconds = timeout_seconds,
                )
    for board in boards:
        native.test_suite(
            name = "{}_{}_test".format(name, board.name),
            tests = [":{}_{}_{}_test".format(name, board.name, shard) for shard in range(shards)] + [
                ":{}_{}_{}_test".format(name, board.name, case)
                for case, (flash, ram) in sorted(large_cases.items())
                if _fits(board, flash, ram)
            ],
        )

def boards_too_small(boards, large_cases):
    """{case: [board names]} of the large cases and the boards they do not fit (for docs and logs)."""
    return {
        case: [board.name for board in boards if not _fits(board, flash, ram)]
        for case, (flash, ram) in sorted(large_cases.items())
    }

def host_cases_test(*, name, min_cases, deps = []):
    """`<name>.py` run on every case of the package's `:cases` directory through pte_run on the
    host (`pte_run CASES --min-cases=N`): a medium test failing below `min_cases` cases (its
    exit status from case_minimum.py, which it imports).

    Args:
      name: the test, and its source `<name>.py`.
      min_cases: the fewest cases it must check.
      deps: the toolkit stages it imports.
    """
    tinypte_py_test(
        name = name,
        size = "medium",
        args = [
            "$(rootpath //runtime/tools:pte_run)",
            "$(rootpath :cases)",
            "--min-cases={}".format(min_cases),
        ],
        data = [
            ":cases",
            "//runtime/tools:pte_run",
        ],
        deps = ["//tests/conformance:case_minimum"] + deps,
    )
