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
"""

load("//rules:providers.bzl", "TinypteBoardInfo")

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
        linker_template = "//platforms/common:firmware.ld.tpl",
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
      instruction_model: Label of the entry point of a model of the board's chip that runs
        its real firmware (the RP2350's: //platforms/pico2w/emulator:run.py); model firmware
        for the board then gets `<board>_test` targets through `rp2350_test`.
      fvp: Name of an Arm FVP executable modelling the board, used by tests when on PATH.
      uf2_family_id: UF2 family ID (hex string) when the board is flashed by copying a
        UF2 file (RP2350 Arm Secure: "0xe48bff59"); enables `firmware_uf2`.
      linker_template: Linker script template; the default suits every board so far.
      package: Package declaring the board's targets. Only tests of the rules use
        another package than `//platforms/<name>`.

    Returns:
      A struct with the arguments as fields, plus the labels of the board's targets:
      `platform`, `info` (TinypteBoardInfo), `support` (start-up library) and
      `constraint` (its `//platforms/board` value).
    """
    package = package or "//platforms/" + name
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
        linker_template = linker_template,
        package = package,
        platform = "{}:{}".format(package, name),
        info = "{}:{}_info".format(package, name),
        support = "{}:{}_support".format(package, name),
        constraint = "{}:{}_id".format(package, name),
    )

# The facts tools read from <name>.board.json (and the rule below from its attribute).
_FACTS = ("name", "memory", "flash_region", "ram_region", "stack_size", "emulator", "fvp", "uf2_family_id")

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
            linker_script = script,
            description = description,
            emulator = struct(**emulator) if emulator else None,
            fvp = facts["fvp"],
            uf2_family_id = facts["uf2_family_id"],
        ),
    ]

tinypte_board_info = rule(
    implementation = _board_info_impl,
    doc = "A board's facts as `TinypteBoardInfo`, with its generated linker script (as CcInfo link flags) and JSON description.",
    provides = [TinypteBoardInfo, CcInfo],
    attrs = {
        "facts": attr.string(
            mandatory = True,
            doc = "The board's facts as JSON (what `tinypte_board` encodes from a `board()` struct): name, memory, flash_region, ram_region, stack_size, emulator, fvp, uf2_family_id. Also written, as is, to `<name>.board.json`.",
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
    * `:<name>_support` — the start-up/console `cc_library` every firmware for it links.

    Args:
      board: The board's `board(...)` struct (from its board.bzl).
      visibility: Visibility of the generated targets.
    """
    if "//" + native.package_name() != board.package:
        fail("board {} must be declared in {}/BUILD.bazel (its targets are {}:...), not in //{}".format(
            board.name,
            board.package[2:],
            board.package,
            native.package_name(),
        ))
    name = board.name
    native.constraint_value(
        name = name + "_id",
        constraint_setting = "//platforms/board",
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
    native.cc_library(
        name = name + "_support",
        srcs = board.startup,
        deps = [board.info, "//platforms/common:board_api"],
        local_defines = ['TP_BOARD_NAME=\\"{}\\"'.format(name)],
        alwayslink = True,
        target_compatible_with = [board.constraint],
        visibility = visibility,
    )
