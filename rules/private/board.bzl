"""tinypte_board: one board = a platform, a memory map, a linker script and startup code.

The memory map is written once, in the board's BUILD file, as `memory_region(...)` values.
From it the `tinypte_board_info` rule generates the board's linker script (MEMORY block spliced
into //platforms/common:firmware.ld.tpl) and a JSON description that size and budget
tools read, so no address or size is written twice.
"""

load("//rules:providers.bzl", "TinypteBoardInfo")

_ACCESS = ("r", "w", "x")

def memory_region(name, origin, size, access = "rwx"):
    """One region of a board's memory map.

    Args:
      name: Region name as the linker script uses it (`FLASH`, `RAM`, `SRAM2`, ...).
      origin: Base address (int).
      size: Size in bytes (int).
      access: Linker attributes, any of `r`, `w`, `x` (`rx` for flash, `rwx` for RAM).

    Returns:
      The region encoded as a string for `tinypte_board(memory = [...])`.
    """
    if type(origin) != "int" or type(size) != "int" or origin < 0 or size <= 0:
        fail("memory_region({}): origin and size must be non-negative ints, got origin={} size={}".format(name, origin, size))
    for c in access.elems():
        if c not in _ACCESS:
            fail("memory_region({}): access {} must be made of r, w and x".format(name, repr(access)))
    return "{}:{}:{}:{}".format(name, access, origin, size)

def _parse_region(encoded):
    name, access, origin, size = encoded.split(":")
    return struct(name = name, access = access, origin = int(origin), size = int(size))

def _hex(value):
    digits = "0123456789abcdef"
    out = ""
    for _ in range(16):
        out = digits[value % 16] + out
        value //= 16
        if value == 0:
            break
    return "0x" + out

def _board_info_impl(ctx):
    regions = [_parse_region(r) for r in ctx.attr.memory]
    names = [r.name for r in regions]
    for role, region in [("flash_region", ctx.attr.flash_region), ("ram_region", ctx.attr.ram_region)]:
        if region not in names:
            fail("{}: {} = {} is not one of the declared regions {}".format(ctx.label, role, repr(region), names))
    ram = [r for r in regions if r.name == ctx.attr.ram_region][0]
    if ctx.attr.stack_size <= 0 or ctx.attr.stack_size >= ram.size:
        fail("{}: stack_size {} must be positive and smaller than the {} region ({} bytes)".format(
            ctx.label,
            ctx.attr.stack_size,
            ram.name,
            ram.size,
        ))

    memory_block = "\n".join([
        "  {} ({}) : ORIGIN = {}, LENGTH = {}".format(r.name, r.access, _hex(r.origin), _hex(r.size))
        for r in regions
    ])
    script = ctx.actions.declare_file(ctx.attr.board_name + ".ld")
    ctx.actions.expand_template(
        template = ctx.file.linker_template,
        output = script,
        substitutions = {
            "%BOARD%": ctx.attr.board_name,
            "%MEMORY%": memory_block,
            "%FLASH%": ctx.attr.flash_region,
            "%RAM%": ctx.attr.ram_region,
            "%STACK_SIZE%": _hex(ctx.attr.stack_size),
        },
    )

    emulator = None
    if ctx.attr.emulator_system:
        emulator = struct(
            system = ctx.attr.emulator_system,
            machine = ctx.attr.emulator_machine,
            cpu = ctx.attr.emulator_cpu,
            args = ctx.attr.emulator_args,
        )
    description = ctx.actions.declare_file(ctx.attr.board_name + ".board.json")
    ctx.actions.write(description, json.encode_indent(struct(
        name = ctx.attr.board_name,
        memory = regions,
        flash_region = ctx.attr.flash_region,
        ram_region = ctx.attr.ram_region,
        stack_size = ctx.attr.stack_size,
        emulator = emulator,
        fvp = ctx.attr.fvp,
        uf2_family_id = ctx.attr.uf2_family_id,
    )) + "\n")

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
            name = ctx.attr.board_name,
            platform = ctx.attr.platform.label,
            memory = regions,
            flash_region = ctx.attr.flash_region,
            ram_region = ctx.attr.ram_region,
            stack_size = ctx.attr.stack_size,
            linker_script = script,
            description = description,
            emulator = emulator,
            fvp = ctx.attr.fvp,
            uf2_family_id = ctx.attr.uf2_family_id,
        ),
    ]

tinypte_board_info = rule(
    implementation = _board_info_impl,
    doc = "Board facts as a provider, plus the generated linker script (as CcInfo link flags) and JSON description.",
    provides = [TinypteBoardInfo, CcInfo],
    attrs = {
        "board_name": attr.string(mandatory = True, doc = "Board name (the tinypte_board's name)."),
        "platform": attr.label(mandatory = True, doc = "The board's platform."),
        "memory": attr.string_list(mandatory = True, doc = "Regions made with memory_region()."),
        "flash_region": attr.string(default = "FLASH", doc = "Region for code and constants."),
        "ram_region": attr.string(default = "RAM", doc = "Region for data, bss and stack."),
        "stack_size": attr.int(mandatory = True, doc = "Main stack size in bytes."),
        "linker_template": attr.label(
            allow_single_file = [".tpl"],
            mandatory = True,
            doc = "Linker script template with %MEMORY%, %FLASH%, %RAM%, %STACK_SIZE%, %BOARD%.",
        ),
        "emulator_system": attr.string(doc = "QEMU system suffix (`arm`, `riscv32`), or empty for build-only boards."),
        "emulator_machine": attr.string(doc = "QEMU `-M` machine."),
        "emulator_cpu": attr.string(doc = "QEMU `-cpu` model."),
        "emulator_args": attr.string_list(doc = "Extra QEMU arguments (e.g. `-bios none`)."),
        "fvp": attr.string(doc = "Arm FVP executable modelling this board, used when found on PATH."),
        "uf2_family_id": attr.string(doc = "UF2 family ID (hex string) if the board flashes from UF2 files; empty if it does not."),
    },
)

def tinypte_board(
        *,
        name,
        cpu,
        fpu,
        memory,
        stack_size,
        startup,
        flash_region = "FLASH",
        ram_region = "RAM",
        linker_template = "//platforms/common:firmware.ld.tpl",
        emulator = None,
        fvp = "",
        uf2_family_id = "",
        visibility = ["//visibility:public"]):
    """Declares a board. Creates, in the calling package:

    * `:<name>` — the `platform` (use with `--platforms` or `tinypte_firmware(board=...)`);
    * `:<name>_id` — the board's value of `//platforms/board`;
    * `:<name>_info` — `TinypteBoardInfo`, the linker script and `<name>.board.json`;
    * `:<name>_support` — the startup/console `cc_library` every firmware for it links.

    Args:
      name: Board name; also the platform's name, so `//platforms/<name>` is the platform
        when the folder holds one board.
      cpu: A `//platforms/cpu` value; selects the cross toolchain with `fpu`.
      fpu: A `//platforms/fpu` value.
      memory: List of `memory_region(...)`; the single source of the memory map.
      stack_size: Main stack size in bytes, placed in `ram_region` after .bss.
      startup: Labels of the board's startup, console and exit code (linked whole).
      flash_region: Region name for code and read-only data.
      ram_region: Region name for data, bss and stack.
      linker_template: Linker script template; the default suits every board so far.
      emulator: `struct(system, machine, cpu, args)` to run it under QEMU, or None if the
        board is build-only (real hardware, no emulator here).
      fvp: Name of an Arm FVP executable for the board, used by tests when on PATH.
      uf2_family_id: UF2 family ID, as a hex string, when the board is flashed by copying
        a UF2 file (RP2350 Arm Secure: "0xe48bff59"); enables `firmware_uf2` for it.
      visibility: Visibility of the generated targets.
    """
    board_id = name + "_id"
    native.constraint_value(
        name = board_id,
        constraint_setting = "//platforms/board",
        visibility = visibility,
    )
    native.platform(
        name = name,
        constraint_values = ["@platforms//os:none", cpu, fpu, ":" + board_id],
        visibility = visibility,
    )
    tinypte_board_info(
        name = name + "_info",
        board_name = name,
        platform = ":" + name,
        memory = memory,
        flash_region = flash_region,
        ram_region = ram_region,
        stack_size = stack_size,
        linker_template = linker_template,
        emulator_system = emulator.system if emulator else "",
        emulator_machine = emulator.machine if emulator else "",
        emulator_cpu = emulator.cpu if emulator else "",
        emulator_args = emulator.args if emulator else [],
        fvp = fvp,
        uf2_family_id = uf2_family_id,
        visibility = visibility,
    )
    native.cc_library(
        name = name + "_support",
        srcs = startup,
        deps = [":" + name + "_info", "//platforms/common:board_api"],
        local_defines = ['TP_BOARD_NAME=\\"{}\\"'.format(name)],
        alwayslink = True,
        target_compatible_with = [":" + board_id],
        visibility = visibility,
    )

def qemu(*, system, machine, cpu, args = []):
    """How to run a board under QEMU: `qemu-system-<system> -M <machine> -cpu <cpu> <args>`."""
    return struct(system = system, machine = machine, cpu = cpu, args = args)
