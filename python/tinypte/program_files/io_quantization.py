"""A program's quantized inputs and outputs, as its config methods describe them.

ExecuTorch's convention (its quantize-I/O passes, and tinypte's quantize stage): a program whose
input N is quantized has config methods `inputN_scale` (float), `inputN_zp`, `inputN_quant_min`,
`inputN_quant_max` and `inputN_dtype` (a ScalarType number), the same for `outputN_`, each a
method returning that constant; a method-name prefix (`forward_input0_scale`) is accepted too.
real = (q - zero_point) * scale.

Read from the program as flatc prints it (tinypte.program_files.pte: doubles to 12 significant
digits, exact for the float32 scales quantizers make) or as ExecuTorch's deserializer returns
it (exact doubles: what quantizing golden inputs uses).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tinypte.errors import TinypteError
from tinypte.headers import dtypes

KEYS = ("scale", "zp", "quant_min", "quant_max", "dtype")
_NAME = re.compile(r"(?:[A-Za-z0-9_]+_)?(input|output)(\d+)_(scale|zp|quant_min|quant_max|dtype)")


@dataclass(frozen=True)
class IoQuantization:
    """How one program input or output is quantized: real = (q - zero_point) * scale."""

    kind: str  # "input" | "output"
    index: int
    scale: float
    zero_point: int
    quant_min: int
    quant_max: int
    dtype: str  # "int8", ...

    def config_methods(self) -> dict[str, Any]:
        """ExecuTorch's config methods describing it (name -> value; the dtype a torch.dtype)."""
        values = (self.scale, self.zero_point, self.quant_min, self.quant_max, dtypes.by_name(self.dtype).torch)
        return {f"{self.kind}{self.index}_{key}": value for key, value in zip(KEYS, values, strict=True)}


def parse(constants: Mapping[str, float | int], what: str) -> list[IoQuantization]:
    """The quantized inputs and outputs named by config-method constants (other names ignored);
    inputs first, each kind by index. A partial description is an error naming what is missing."""
    found: dict[tuple[str, int], dict[str, float | int]] = {}
    for name, value in constants.items():
        match = _NAME.fullmatch(name)
        if match:
            found.setdefault((match[1], int(match[2])), {})[match[3]] = value
    result = []
    for (kind, index), values in sorted(found.items(), key=lambda item: (item[0][0] != "input", item[0][1])):
        missing = [key for key in KEYS if key not in values]
        if missing:
            raise TinypteError(f"{what}: {kind} {index}'s quantization lacks config methods {kind}{index}_"
                               + f", {kind}{index}_".join(missing))  # fmt: skip
        scale = float(values["scale"])
        if not scale > 0:
            raise TinypteError(f"{what}: {kind}{index}_scale is {scale}; a quantization scale must be positive")
        result.append(IoQuantization(kind, index, scale, int(values["zp"]), int(values["quant_min"]),
                                     int(values["quant_max"]), dtypes.by_scalar_type(int(values["dtype"])).name))  # fmt: skip
    return result


def from_program_json(program: Mapping[str, Any], what: str) -> list[IoQuantization]:
    """From a program as tinypte.program_files.pte reads it (flatc's JSON)."""
    constants: dict[str, float | int] = {}
    for plan in program.get("execution_plan", []):
        values = plan.get("values", [])
        if len(plan.get("outputs", [])) != 1 or plan.get("inputs"):
            continue
        value = values[plan["outputs"][0]]
        if value.get("val_type") == "Double":
            constants[plan["name"]] = float(value["val"]["double_val"])
        elif value.get("val_type") == "Int":
            constants[plan["name"]] = int(value["val"]["int_val"])
    return parse(constants, what)


def from_deserialized(program: Any, what: str) -> list[IoQuantization]:
    """From a program as ExecuTorch's deserializer returns it (exact doubles)."""
    constants: dict[str, float | int] = {}
    for plan in program.execution_plan:
        if len(plan.outputs) != 1 or plan.inputs:
            continue
        value = plan.values[plan.outputs[0]].val
        kind = type(value).__name__
        if kind == "Double":
            constants[plan.name] = float(value.double_val)
        elif kind == "Int":
            constants[plan.name] = int(value.int_val)
    return parse(constants, what)


def by_slot(quantized: list[IoQuantization], kind: str, count: int) -> list[IoQuantization | None]:
    """For each of `count` inputs (or outputs), its quantization or None."""
    table: list[IoQuantization | None] = [None] * count
    for io in quantized:
        if io.kind == kind and io.index < count:
            table[io.index] = io
    return table


def slot_pairs(quantized: list[IoQuantization], inputs: int, outputs: int) -> list[tuple[float, int] | None]:
    """(scale, zero point) of each of `inputs` inputs and then `outputs` outputs, None for those not
    quantized: the golden data's per-slot quantization."""
    slots = by_slot(quantized, "input", inputs) + by_slot(quantized, "output", outputs)
    return [(io.scale, io.zero_point) if io else None for io in slots]
