"""Providers shared by tinypte's rules."""

TinypteBoardInfo = provider(
    doc = "What a board is: its name, memory map, console and how to emulate it.",
    fields = {
        "name": "(string) Board name, e.g. `myboard`: its folder `platforms/<name>`.",
        "platform": "(Label) The `platform` that builds code for this board.",
        "memory": "(list[struct]) Memory regions, each `struct(name, access, origin, size)` (ints in bytes).",
        "flash_region": "(string) Name of the region holding code and constants.",
        "ram_region": "(string) Name of the region holding data, bss and the stack.",
        "stack_size": "(int) Bytes reserved for the main stack, counted in RAM use.",
        "cores": "(int) Cores of the chip tinypte can use: 1, or 2 when the board implements the two-core API of tinypte/board.h (its firmware is then built for two cores unless its `:cores` flag or the firmware says 1).",
        "linker_script": "(File) Full linker script generated from the memory map.",
        "description": "(File) JSON with the fields above, for tools (size and budget checks).",
        "emulator": "(struct|None) `struct(system, machine, cpu, args)` to run the board under QEMU, or None when the board is build-only.",
        "fvp": "(string) Name of an Arm FVP executable that models the board, or \"\".",
        "uf2_family_id": "(string) UF2 family ID (hex) for drag-and-drop flashing, or \"\" if the board takes no UF2.",
        "npu": "(string) The board's Ethos-U55 configuration (\"ethos-u55-128\"), or \"\" for a board without one.",
    },
)

TinypteFirmwareInfo = provider(
    doc = "A linked firmware image for one board.",
    fields = {
        "elf": "(File) The linked ELF.",
        "board": "(TinypteBoardInfo) The board it was built for.",
        "cores": "(int) The cores it was built for (its TP_BOARD_CORES): 1, or 2 on a two-core board built for both.",
        "size_json": "(File) Flash and RAM use against the board's regions and budgets (python/tinypte/size/command.py).",
        "size_text": "(File) The same as a table, with the biggest symbols.",
    },
)

TinypteWeightsInfo = provider(
    doc = "A model file's trained weights (model_weights): what every program of the model is built from.",
    fields = {
        "src": "(File) The model file.",
        "data": "(depset[File]) Files the model file reads; every action loading it needs them.",
        "seed": "(int) The training seed.",
        "weights": "(File) The trained state_dict (torch.save).",
        "metrics": "(File) JSON: the trained model's metrics (`evaluate()`), seed and weights' SHA-256.",
    },
)

TinyptePteInfo = provider(
    doc = "An ExecuTorch program built from a model file, with what later rules need to know about it.",
    fields = {
        "name": "(string) Model target name.",
        "quantize": "(string) `none` for a float program, `int8` for a quantized one.",
        "pte": "(File) The ExecuTorch program (.pte).",
        "ops_json": "(File) Operators the program calls, with overloads and dtypes (for selective kernel builds).",
        "plan_json": "(File) Memory plan: planned buffer sizes per memory id; per tensor shape, dtype, offset, size, lifetime.",
        "summary": "(File) Human-readable summary (parameters, constant bytes, arena bytes, op counts).",
        "golden": "(File) Golden inputs and PyTorch outputs, binary (see python/tinypte/golden/format.py).",
        "golden_json": "(File) The same golden data as JSON.",
        "weights": "(File) Trained state_dict (torch.save) the program was built from.",
        "src": "(File) The model file.",
        "quant_report": "(File|None) int8 programs: float vs int8 metrics and sizes (JSON); None for float ones.",
        "delegate": "(string) The Ethos-U55 configuration the program's delegates were compiled for (\"ethos-u55-128\"), or \"\" for a program without delegates.",
    },
)

TinypteKernelRegistryInfo = provider(
    doc = "A generated kernel registry: which kernels a set of programs needs.",
    fields = {
        "registry_c": "(File) C source defining `tp_selected_kernels` (see runtime/include/tinypte/kernel.h).",
        "kernels_json": "(File) The selected kernels: operator, symbol and source file of each.",
        "models": "(list[Label]) The executorch_model targets served (empty for an all-kernels registry).",
    },
)
