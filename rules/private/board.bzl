"""Boards as data: `board()` describes one, `tinypte_board()` declares its targets.

A board's facts are written once, in `platforms/<name>/board.bzl`:

    BOARD = board(
        name = "myboard",
        cpu = "//platforms/cpu:cortex_m33",
        fpu = "//platforms/fpu:fpv5_sp_d16",
        memory = [memory_region("FLASH", 0x10000000, 1024 * 1024, "rx"), ...],
        ...
    )

`platforms/<name>/BUILD.bazel` declares the board's targets from them
(`tinypte_board(BOARD)`), and `platforms/boards.bzl` lists every board, so test suites
and `model_firmware` loop over the same structs. The `tinypte_board_info` rule turns
the facts into `TinypteBoardInfo`, the board's linker script (its MEMORY block spliced
into //platforms/common:firmware.ld.tpl) and `<name>.board.json` for Python tools, so
no address or size is written twice.

Two cores: a board whose chip has a second core tinypte can use says `cores = 2` and lists
its implementation of the two-core part's board interface (tinypte/two_cores_board.h,
`tp_board_two_cores_*`) in `two_cores_srcs`. `tinypte_board` then declares the build setting
`:cores` ("1" or "2", default "2") and the config_setting `:two_cores`; firmware built with
two cores links `two_cores_srcs` and is compiled with
`TP_BOARD_CORES=2` (with one core, and on every one-core board, `TP_BOARD_CORES=1`).
`tinypte_firmware(cores = ...)` and `firmware_with_cores` pick the count for one firmware.
"""

load("//rules:providers.bzl", "TinypteBoardInfo")
load("//rules/private:choice_flag.bzl", "choice_flag")
load("//platforms/cpu:cpu_platforms.bzl", "canonical_cpu_fpu", "cpu_platform_label")
load("//rules/private:host_transition.bzl", "CORES_FLAGS")
load("//rules/private:labels.bzl", "TINYPTE_REPOSITORY", "current_package", "label_string", "tinypte_label")

_ACCESS = ("r", "w", "x")

def memory_region(name, origin, size, access = "rwx", speed = 1, loadable = False):
    """One region of a board's memory map.

    Firmware builds place the model's planned buffers, the runtime's pool and its program
    in these regions by size and speed (python/tinypte/firmware/placement.py): the stack
    and the runtime's own data always in the board's `ram_region`, the rest in the fastest
    writable region that still holds it, and constants in `flash_region` or, when they do
    not fit there, in the fastest `loadable` region.

    Args:
      name: Region name as the linker script uses it (`FLASH`, `RAM`, `SRAM2`, ...).
      origin: Base address (int).
      size: Size in bytes (int).
      access: Linker attributes, any of `r`, `w`, `x` (`rx` for flash, `rwx` for RAM).
      speed: Speed class, 1 for the fastest memory (tightly coupled or zero-wait-state SRAM),
        larger for slower ones (bus SRAM, then external DRAM). Placement tries regions in
        this order, the `ram_region` first among equals.
      loadable: Whether the board's loader writes the firmware image's bytes into this region
        directly (an FPGA or FVP loading the ELF into DDR), so constants may live there
        without a copy from flash at boot. False for boards flashed as a flash image.

    Returns:
      `struct(name, origin, size, access, speed, loadable)`.
    """
    if type(origin) != "int" or type(size) != "int" or origin < 0 or size <= 0:
        fail("memory_region({}): origin and size must be non-negative ints, got origin={} size={}".format(name, origin, size))
    for c in access.elems():
        if c not in _ACCESS:
            fail("memory_region({}): access {} must be made of r, w and x".format(name, repr(access)))
    if type(speed) != "int" or speed < 1:
        fail("memory_region({}): speed must be an int >= 1 (1: the fastest memory), got {}".format(name, repr(speed)))
    if loadable and "w" not in access.elems():
        fail("memory_region({}): a loadable region holds data the program may place there, so it must be writable (access {})".format(name, repr(access)))
    return struct(name = name, origin = origin, size = size, access = access, speed = speed, loadable = loadable)

def qemu(*, system, machine, cpu, args = []):
    """How to run a board under QEMU: `qemu-system-<system> -M <machine> -cpu <cpu> <args>`."""
    return struct(system = system, machine = machine, cpu = cpu, args = args)

def board(
        *,
        name,
        cpu,
        fpu,
        memory,
        stack_size,
        startup,
        flash_region = "FLASH",
        ram_region = "RAM",
        emulator = None,
        instruction_model = "",
        fvp = "",
        uf2_family_id = "",
        cores = 1,
        two_cores_srcs = [],
        npu = "",
        linker_template = None,
        package = None):
    """The facts of one board, as a struct BUILD files and macros can read.

    Args:
      name: Board name: the folder `platforms/<name>` and the platform `//platforms/<name>`.
      cpu: A `//platforms/cpu` value; with `fpu` it selects the cross toolchain.
      fpu: A `//platforms/fpu` value.
      memory: List of `memory_region(...)`: the board's memory map.
      stack_size: Main stack size in bytes, placed in `ram_region` after .bss.
      startup: Labels of the board's start-up, console and exit code (linked whole).
      flash_region: Region for code and read-only data.
      ram_region: Region for data, bss and stack.
      emulator: `qemu(...)` when QEMU runs the board; None for a build-only board.
      instruction_model: Label of an executable model of the board's chip that runs its real
        firmware (a machines_py_binary; the RP2350's: //python/machines/rp2350:run); model firmware
        for the board then gets `<board>_test` targets through `instruction_model_test`.
      fvp: Name of an Arm FVP executable modelling the board, used by tests when on PATH.
      uf2_family_id: UF2 family ID (hex string) when the board is flashed by copying a
        UF2 file (RP2350 Arm Secure: "0xe48bff59"); enables `firmware_uf2`.
      cores: How many cores of the chip tinypte can use: 1, or 2 when the board implements
        the two-core board interface (`tp_board_two_cores_*`) in `two_cores_srcs`. With 2, the
        board's firmware is built for two cores by default (`TP_BOARD_CORES=2`; the runtime gets
        core 1 as its worker) and `--//platforms/<name>:cores=1` builds it for one.
      two_cores_srcs: Labels of the sources the support library adds when firmware is built for
        two cores: the board's implementation of tinypte/two_cores_board.h (e.g.
        `["//platforms/pico2w:two_cores.c"]`). Required with `cores = 2`, empty otherwise.
      npu: The board's Arm Ethos-U55 configuration ("ethos-u55-128": MACs per cycle), when it
        has one and its start-up defines `tp_board_ethos_u55_base` (tinypte/board.h).
        Programs lowered with executorch_model's `delegate` for that configuration build for
        the board (their EthosUBackend delegates run on its NPU); for a board without it, the
        firmware build fails naming the program, its delegate and the board.
      linker_template: Linker script template; the default (//platforms/common:firmware.ld.tpl)
        suits every board so far.
      package: Package declaring the board's targets (`tinypte_board(BOARD)` in its BUILD file).
        Default: tinypte's `//platforms/<name>`; a board of your own workspace (tinypte as
        @tinypte) names its own package, e.g. "//boards/my_board".

    Labels of tinypte's own (cpu, fpu, the start-up libraries) are written `Label("//...")` in
    tinypte's board.bzl files, or "@tinypte//..." in another workspace; a plain string is read in
    the package that uses it (the board's own package for `startup` and `two_cores_srcs`).

    Returns:
      A struct with the arguments as fields, plus the labels of the board's targets:
      `platform`, `cpu_platform` (the per-CPU platform `//platforms/cpu:<cpu>_<fpu>` that
      board-independent libraries are built for, shared with every board of the same CPU and
      FPU: cpu_libraries.bzl), `info` (TinypteBoardInfo), `support` (start-up library: with
      `cores = 2` an alias of `support_cores[1]` or `support_cores[2]`, by the `:cores`
      flag), `constraint` (its `//platforms/board` value) and, with `cores = 2`,
      `cores_flag` (`<package>:cores`), `two_cores` (the config_setting matching "2") and
      `support_cores` (cores -> the support library built for that many); these are None
      (`support_cores` {1: support}) on a one-core board. And `description_path`, the path of
      `info`'s `<name>.board.json` (below bazel-bin, and in the runfiles of what has `info` as
      data), for the command lines of tools and tests that read it.
    """
    package = package or tinypte_label("//platforms/{0}:{0}".format(name)).rsplit(":", 1)[0]
    cpu, fpu = canonical_cpu_fpu(name, label_string(cpu), label_string(fpu))
    startup = _label_strings(startup)
    two_cores_srcs = _label_strings(two_cores_srcs)
    instruction_model = label_string(instruction_model)
    linker_template = label_string(linker_template) if linker_template else tinypte_label("//platforms/common:firmware.ld.tpl")
    if cores not in (1, 2):
        fail("board({}): cores must be 1 or 2, got {}".format(name, repr(cores)))
    if cores == 2 and not two_cores_srcs:
        fail("board({}): cores = 2 needs two_cores_srcs, the sources of the board's tp_board_two_cores_* functions (tinypte/two_cores_board.h)".format(name))
    if cores == 1 and two_cores_srcs:
        fail("board({}): two_cores_srcs is only linked into two-core firmware; set cores = 2 or drop two_cores_srcs = {}".format(name, two_cores_srcs))
    support = "{}:{}_support".format(package, name)
    return struct(
        name = name,
        cpu = cpu,
        fpu = fpu,
        memory = memory,
        stack_size = stack_size,
        startup = startup,
        flash_region = flash_region,
        ram_region = ram_region,
        emulator = emulator,
        instruction_model = instruction_model,
        fvp = fvp,
        uf2_family_id = uf2_family_id,
        cores = cores,
        two_cores_srcs = two_cores_srcs,
        npu = npu,
        linker_template = linker_template,
        package = package,
        platform = "{}:{}".format(package, name),
        cpu_platform = cpu_platform_label(name, cpu, fpu),
        info = "{}:{}_info".format(package, name),
        description_path = _package_path(package) + "/{}.board.json".format(name),
        support = support,
        constraint = "{}:{}_id".format(package, name),
        cores_flag = package + ":cores" if cores == 2 else None,
        two_cores = package + ":two_cores" if cores == 2 else None,
        support_cores = {1: support + "_cores_1", 2: support + "_cores_2"} if cores == 2 else {1: support},
    )

def _label_strings(labels):
    """`label_string` of each of `labels` (a list, or a select's dict of lists)."""
    if type(labels) == "list":
        return [label_string(label) for label in labels]
    return labels

def _package_path(package):
    """The runfiles path (a File's short_path) of a package's directory: "pkg" in the main
    repository, "../repo/pkg" in another."""
    repository, _, path = package.partition("//")
    return "../{}/{}".format(repository[1:], path) if repository else path

# board()'s arguments, each also a field of the struct it returns (what board_variant copies).
_BOARD_ARGS = [
    "name",
    "cpu",
    "fpu",
    "memory",
    "stack_size",
    "startup",
    "flash_region",
    "ram_region",
    "emulator",
    "instruction_model",
    "fvp",
    "uf2_family_id",
    "cores",
    "two_cores_srcs",
    "npu",
    "linker_template",
    "package",
]

def board_variant(base, *, name, package, memory = None, stack_size = None):
    """A board of `base`'s chip under a name of its own: the same CPU, start-up, emulator or
    instruction model, with its own memory map and stack (a smaller part of the family, or the
    same part with memory kept for the application).

    Args:
      base: The board it varies (a `board()` struct, e.g. tinypte's mps2_an505 `BOARD`).
      name: The variant's name.
      package: Package declaring its targets (`tinypte_board(BOARD)`), e.g. "//boards/my_board".
      memory: Its memory map (`memory_region(...)`s; regions named as `base`'s flash and RAM
        regions); default: `base`'s.
      stack_size: Main stack size in bytes; default: `base`'s.

    Returns:
      A `board()` struct.
    """
    args = {arg: getattr(base, arg) for arg in _BOARD_ARGS}
    args.update(name = name, package = package)
    if memory != None:
        args["memory"] = memory
    if stack_size != None:
        args["stack_size"] = stack_size
    return board(**args)

def board_cores(board, cores = 0):
    """How many cores firmware for `board` is built with: `cores` when set (1 or 2), else the
    board's `:cores` flag (a select) on a two-core board, else 1. For `attr.int`s."""
    if cores:
        return cores
    if board.cores == 1:
        return 1
    return select({board.two_cores: 2, "//conditions:default": 1})

def _for_cores(board, cores, by_cores):
    """`by_cores[n]` for the n cores firmware for `board` built with `cores` runs on (0: the
    board's flag or its only core): a list, or a select on the flag."""
    if cores or board.cores == 1:
        return by_cores[min(cores or 1, board.cores)]
    return select({
        board.two_cores: by_cores[2],
        "//conditions:default": by_cores[1],
    })

def board_cores_defines(board, cores = 0):
    """The `TP_BOARD_CORES=<n>` define of firmware for `board` built with `cores` (0: the
    board's flag or its only core), as a list or a select, for `defines`/`local_defines`."""
    return _for_cores(board, cores, {n: ["TP_BOARD_CORES={}".format(n)] for n in (1, 2)})

# The inference app's library (//runtime/app) for firmware on one core and on two.
# The firmware apps (runtime/app), each compiled for one core and for two: app -> cores -> the
# cc_library in //runtime/app. "inference" replays the golden data; "stream" runs the model on
# windows read from the console.
APPS = {
    "inference": {1: "inference_one_core", 2: "inference_two_cores"},
    "stream": {1: "stream_one_core", 2: "stream_two_cores"},
}

def board_cores_app(board, cores = 0, app = "inference"):
    """The library of firmware app `app` (a key of APPS) for `board` built with `cores`: the one
    compiled with board_cores_defines(board, cores), as a list or a select, for `deps`."""
    return _for_cores(board, cores, {n: [tinypte_label("//runtime/app:" + name)] for n, name in APPS[app].items()})

def board_support(board, cores = 0):
    """The support library firmware for `board` built with `cores` links (0: by the flag)."""
    if cores and board.cores == 2:
        return board.support_cores[cores]
    return board.support

# The facts tools read from <name>.board.json (and the rule below from its attribute).
_FACTS = ("name", "memory", "flash_region", "ram_region", "stack_size", "cores", "emulator", "fvp", "uf2_family_id", "npu")

def _hex(value):
    digits = "0123456789abcdef"
    out = ""
    for _ in range(16):
        out = digits[value % 16] + out
        value //= 16
        if value == 0:
            break
    return "0x" + out

def _region(fields):
    return struct(
        name = fields["name"],
        access = fields["access"],
        origin = fields["origin"],
        size = fields["size"],
        speed = fields["speed"],
        loadable = fields["loadable"],
    )

def _placement_sections(regions, flash_region, ram_region):
    """Linker script lines giving each other writable region its output sections: the
    bytes placed there (`.tp_region.<R>.load*`, written by the board's loader) and the
    uninitialized buffers (`.tp_region.<R>.noload*`)."""
    lines = []
    for r in regions:
        if r.name in (flash_region, ram_region) or "w" not in r.access.elems():
            continue
        lines.append("  .tp_load_{name} : ALIGN(16) {{ KEEP(*(.tp_region.{name}.load .tp_region.{name}.load.*)) }} > {name}".format(name = r.name))
        lines.append("  .tp_noload_{name} (NOLOAD) : ALIGN(16) {{ *(.tp_region.{name}.noload .tp_region.{name}.noload.*) }} > {name}".format(name = r.name))
    return "\n".join(lines) if lines else "  /* (no other writable region) */"

def _board_info_impl(ctx):
    facts = json.decode(ctx.attr.facts)
    name = facts["name"]
    regions = [_region(r) for r in facts["memory"]]
    names = [r.name for r in regions]
    for role in ("flash_region", "ram_region"):
        if facts[role] not in names:
            fail("{}: {} = {} is not one of the declared regions {}".format(ctx.label, role, repr(facts[role]), names))
    ram = [r for r in regions if r.name == facts["ram_region"]][0]
    stack_size = facts["stack_size"]
    if stack_size <= 0 or stack_size >= ram.size:
        fail("{}: stack_size {} must be positive and smaller than the {} region ({} bytes)".format(
            ctx.label,
            stack_size,
            ram.name,
            ram.size,
        ))

    script = ctx.actions.declare_file(name + ".ld")
    ctx.actions.expand_template(
        template = ctx.file.linker_template,
        output = script,
        substitutions = {
            "%BOARD%": name,
            "%MEMORY%": "\n".join([
                "  {} ({}) : ORIGIN = {}, LENGTH = {}".format(r.name, r.access, _hex(r.origin), _hex(r.size))
                for r in regions
            ]),
            "%FLASH%": facts["flash_region"],
            "%RAM%": facts["ram_region"],
            "%STACK_SIZE%": _hex(stack_size),
            "%REGION_SECTIONS%": _placement_sections(regions, facts["flash_region"], facts["ram_region"]),
        },
    )
    description = ctx.actions.declare_file(name + ".board.json")
    ctx.actions.write(description, json.encode_indent(facts) + "\n")

    emulator = facts["emulator"]
    linker_input = cc_common.create_linker_input(
        owner = ctx.label,
        user_link_flags = depset(["-T", script.path]),
        additional_inputs = depset([script]),
    )
    return [
        DefaultInfo(
            files = depset([script, description]),
            runfiles = ctx.runfiles(files = [script, description]),
        ),
        CcInfo(linking_context = cc_common.create_linking_context(linker_inputs = depset([linker_input]))),
        TinypteBoardInfo(
            name = name,
            platform = ctx.attr.platform.label,
            memory = regions,
            flash_region = facts["flash_region"],
            ram_region = facts["ram_region"],
            stack_size = stack_size,
            cores = facts["cores"],
            linker_script = script,
            description = description,
            emulator = struct(**emulator) if emulator else None,
            fvp = facts["fvp"],
            uf2_family_id = facts["uf2_family_id"],
            npu = facts.get("npu", ""),
        ),
    ]

tinypte_board_info = rule(
    implementation = _board_info_impl,
    doc = "A board's facts as `TinypteBoardInfo`, with its generated linker script (as CcInfo link flags) and JSON description.",
    provides = [TinypteBoardInfo, CcInfo],
    attrs = {
        "facts": attr.string(
            mandatory = True,
            doc = "The board's facts as JSON (what `tinypte_board` encodes from a `board()` struct): name, memory, flash_region, ram_region, stack_size, cores, emulator, fvp, uf2_family_id. Also written, as is, to `<name>.board.json`.",
        ),
        "platform": attr.label(mandatory = True, doc = "The board's platform."),
        "linker_template": attr.label(
            allow_single_file = [".tpl"],
            mandatory = True,
            doc = "Linker script template with %MEMORY%, %FLASH%, %RAM%, %STACK_SIZE%, %REGION_SECTIONS%, %BOARD%.",
        ),
    },
)

def board_facts_json(board):
    """The JSON `tinypte_board_info(facts = ...)` takes, from a `board()` struct."""
    return json.encode(struct(**{field: getattr(board, field) for field in _FACTS}))

def tinypte_board(board, visibility = ["//visibility:public"]):
    """Declares a board's targets, in its package (`platforms/<name>/BUILD.bazel`).

    Creates:
    * `:<name>` — the `platform` (for `--platforms`; `tinypte_firmware` transitions to it);
    * `:<name>_id` — the board's value of `//platforms/board`;
    * `:<name>_info` — `TinypteBoardInfo`, the linker script and `<name>.board.json`;
    * `:<name>_support` — the start-up/console `cc_library` every firmware for it links,
      with `TP_BOARD_CORES` in its `defines` (so the firmware's own sources see it too).

    With `cores = 2` also:
    * `:cores` — the build setting choosing how many cores firmware uses, "2" (default) or
      "1": `bazel build ... --//platforms/<name>:cores=1`;
    * `:two_cores` — the config_setting matching `:cores` = "2";
    * `:<name>_support_cores_1`, `:<name>_support_cores_2` — the support library for one
      core, and for two (with the board's `two_cores_srcs`); `:<name>_support` is an alias
      of one of them by `:cores`, and firmware with an explicit `cores` links the other
      directly.

    Args:
      board: The board's `board(...)` struct (from its board.bzl).
      visibility: Visibility of the generated targets.
    """
    if current_package() != board.package:
        fail("board {} must be declared in {}/BUILD.bazel (its targets are {}:...), not in {}".format(
            board.name,
            board.package,
            board.package,
            current_package(),
        ))
    if board.cores == 2 and board.package.startswith(TINYPTE_REPOSITORY + "//platforms/") and board.cores_flag not in CORES_FLAGS:
        fail("board {} has two cores: add \"{}\" to CORES_FLAGS in rules/private/host_transition.bzl, so that building it with one core does not build every model again".format(
            board.name,
            board.cores_flag,
        ))
    name = board.name
    native.constraint_value(
        name = name + "_id",
        constraint_setting = tinypte_label("//platforms/board"),
        visibility = visibility,
    )
    native.platform(
        name = name,
        constraint_values = ["@platforms//os:none", board.cpu, board.fpu, board.constraint],
        visibility = visibility,
    )
    tinypte_board_info(
        name = name + "_info",
        facts = board_facts_json(board),
        platform = board.platform,
        linker_template = board.linker_template,
        visibility = visibility,
    )
    if board.cores == 1:
        _support_library(board, name + "_support", 1, visibility)
        return

    # How many cores firmware for this board uses (TP_BOARD_CORES): 2 unless set to 1.
    choice_flag(
        name = "cores",
        build_setting_default = "2",
        values = ["1", "2"],
        visibility = visibility,
    )
    native.config_setting(
        name = "two_cores",
        flag_values = {":cores": "2"},
        visibility = visibility,
    )
    for cores in (1, 2):
        _support_library(board, "{}_support_cores_{}".format(name, cores), cores, visibility)
    native.alias(
        name = name + "_support",
        actual = select({
            ":two_cores": ":{}_support_cores_2".format(name),
            "//conditions:default": ":{}_support_cores_1".format(name),
        }),
        visibility = visibility,
    )

def _support_library(board, name, cores, visibility):
    """The board's start-up/console library, built for `cores` cores."""
    native.cc_library(
        name = name,
        srcs = board.startup + (board.two_cores_srcs if cores == 2 else []),
        deps = [board.info, tinypte_label("//platforms/common:board_api")] + ([tinypte_label("//runtime/two_cores:board_api")] if cores == 2 else []),
        # TP_BOARD_CORES reaches the firmware's own sources too (tinypte_firmware's srcs).
        defines = ["TP_BOARD_CORES={}".format(cores)],
        local_defines = ['TP_BOARD_NAME=\\"{}\\"'.format(board.name)],
        alwayslink = True,
        target_compatible_with = [board.constraint],
        visibility = visibility,
    )
