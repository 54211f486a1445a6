"""Providers shared by tinypte's rules."""

TinypteBoardInfo = provider(
    doc = "What a board is: its name, memory map, console and how to emulate it.",
    fields = {
        "name": "(string) Board name, e.g. `mps2_an505`.",
        "platform": "(Label) The `platform` that builds code for this board.",
        "memory": "(list[struct]) Memory regions, each `struct(name, access, origin, size)` (ints in bytes).",
        "flash_region": "(string) Name of the region holding code and constants.",
        "ram_region": "(string) Name of the region holding data, bss and the stack.",
        "stack_size": "(int) Bytes reserved for the main stack, counted in RAM use.",
        "linker_script": "(File) Full linker script generated from the memory map.",
        "description": "(File) JSON with the fields above, for tools (size and budget checks).",
        "emulator": "(struct|None) `struct(system, machine, cpu, args)` to run the board under QEMU, or None when the board is build-only.",
        "fvp": "(string) Name of an Arm FVP executable that models the board, or \"\".",
    },
)

TinypteFirmwareInfo = provider(
    doc = "A linked firmware image for one board.",
    fields = {
        "elf": "(File) The linked ELF.",
        "board": "(TinypteBoardInfo) The board it was built for.",
    },
)
