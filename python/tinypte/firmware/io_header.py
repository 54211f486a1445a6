"""The program header's part about quantized inputs and outputs: constants and converters.

For each input or output the program's config methods describe as quantized
(tinypte.program_files.io_quantization), `<name>_program.h` gets, with NAME its upper-case prefix:

    #define NAME_INPUT0_SCALE 0.0246279109f        real = (q - ZERO_POINT) * SCALE
    #define NAME_INPUT0_ZERO_POINT (-128)
    #define NAME_INPUT0_MIN (-128)                  the quantized range
    #define NAME_INPUT0_MAX 127
    static inline int8_t name_input0_quantize(float x);      a real value as the program takes it
    static inline float name_output0_dequantize(int8_t q);   a quantized output as a real value

`_quantize` computes what the Cortex-M backend's quantize computed inside the program before
its input became int8: x times the float32 reciprocal of the scale, rounded to nearest with
ties to even, plus the zero point, clamped to the range (NaN gives the zero point). No libm.
"""

from __future__ import annotations

import numpy as np

from tinypte.program_files.io_quantization import IoQuantization

C_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t"}


def c_float(value: float) -> str:
    """A float32 C literal that reads back as exactly float32(value)."""
    text = f"{float(np.float32(value)):.9g}"
    return (text if any(c in text for c in ".e") else text + ".0") + "f"


def c_int(value: int) -> str:
    return f"({value})" if value < 0 else str(value)


def render(quantized: list[IoQuantization], name: str) -> str:
    """The header text for `quantized` (empty when nothing is)."""
    if not quantized:
        return ""
    parts = [
        "/* Quantized inputs and outputs (the program's config methods input<N>_scale, input<N>_zp, ...):\n"
        " * real = (q - ZERO_POINT) * SCALE. */\n"
    ]
    for io in quantized:
        if io.dtype not in C_TYPES:
            continue
        macro = f"{name.upper()}_{io.kind.upper()}{io.index}"
        c_type = C_TYPES[io.dtype]
        parts.append(
            f"#define {macro}_SCALE {c_float(io.scale)}\n"
            f"#define {macro}_ZERO_POINT {c_int(io.zero_point)}\n"
            f"#define {macro}_MIN {c_int(io.quant_min)}\n"
            f"#define {macro}_MAX {c_int(io.quant_max)}\n"
        )
        function = f"{name}_{io.kind}{io.index}"
        if io.kind == "input":
            reciprocal = c_float(float(np.float32(1.0 / io.scale)))
            parts.append(_quantize(function, c_type, macro, reciprocal))
        else:
            parts.append(
                f"/* Output {io.index} as a real value. */\n"
                f"static inline float {function}_dequantize({c_type} q) {{\n"
                f"  return (float)((int32_t)q - {macro}_ZERO_POINT) * {macro}_SCALE;\n}}\n"
            )
    return "".join(parts) + "\n"


def _quantize(function: str, c_type: str, macro: str, reciprocal: str) -> str:
    return (
        f"/* A real value as input {function.rsplit('input', 1)[1]} takes it. */\n"
        f"static inline {c_type} {function}_quantize(float x) {{\n"
        f"  float r = x * {reciprocal};\n"
        f"  const float low = (float)({macro}_MIN - {macro}_ZERO_POINT);\n"
        f"  const float high = (float)({macro}_MAX - {macro}_ZERO_POINT);\n"
        "  r = r != r ? 0.0f : r < low ? low : r > high ? high : r;\n"
        "  int32_t t = (int32_t)r; /* toward zero; then to nearest, ties to even */\n"
        "  float rest = r - (float)t;\n"
        "  if (rest > 0.5f || (rest == 0.5f && (t & 1))) {\n    t++;\n"
        "  } else if (rest < -0.5f || (rest == -0.5f && (t & 1))) {\n    t--;\n  }\n"
        f"  return ({c_type})(t + {macro}_ZERO_POINT);\n}}\n"
    )
