"""A method's decoded bookkeeping as const C data: the firmware's `tp_method_image` (tinypte/image.h).

pte_requirements (built for the boards' data layout) initializes the method on the host and
prints its values, tensors, argument lists and instructions as JSON (`image` in the requirements
JSON: runtime/tools/method_image_json.c), with every pointer as an offset into the program or a
planned buffer. This writes them as C initializers whose pointers are the firmware's own symbols
(the program array, the planned buffers), so the linker puts the whole table in flash and the
runtime's state pool keeps only the instructions and the kernels' state.
"""

from __future__ import annotations

import math
import struct
from typing import Any


def _double(bits: int) -> str:
    """An exact C double literal for IEEE-754 `bits` (hex float; inf and NaN by builtin)."""
    value = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if math.isnan(value):
        return '__builtin_nan("")'
    if math.isinf(value):
        return "__builtin_inf()" if value > 0 else "-__builtin_inf()"
    return str(value.hex())


def _int64(n: int) -> str:
    """A C int64_t literal (the most negative one has none: written as an expression)."""
    return "(-9223372036854775807LL - 1)" if n == -(2**63) else f"{n}LL"


class _Renderer:
    def __init__(self, image: dict[str, Any], program: str, buffers: dict[int, str]) -> None:
        self.image = image
        self.program = program
        self.buffers = buffers
        self.ints: list[str] = []
        self.doubles: list[str] = []
        self.tensor_items: list[str] = []

    def place(self, where: dict[str, int], cast: str) -> str:
        if "program" in where:
            return f"({cast})({self.program} + {where['program']})"
        return f"({cast})({self.buffers[where['buffer']]} + {where['offset']})"

    def tensor(self, t: dict[str, Any]) -> str:
        data = self.place(t["data"], "void *") if "data" in t else "0"
        return (
            f"{{.data = {data}, .sizes = {self.place(t['sizes'], 'const int32_t *')}, .numel = {t['numel']}, "
            f".nbytes = {t['nbytes']}, .dim = {t['dim']}, .dtype = {t['dtype']}, .constant = {t['constant']}, "
            f".channels_last = {t['channels_last']}}}"
        )

    def value(self, v: dict[str, Any]) -> str:
        tag = v["tag"]
        if "int" in v:
            body = f".as.i = {_int64(v['int'])}"
        elif "bool" in v:
            body = f".as.b = {v['bool']}"
        elif tag == 3:
            body = f".as.d = {_double(v['double_bits'])}"
        elif "tensor" in v:
            body = f".as.tensor = (tp_tensor *)&image_tensors[{v['tensor']}]"
        elif "chars" in v:
            body = f".as.string = {{{self.place(v['chars'], 'const char *')}, {v['len']}}}"
        elif "ints" in v:
            body = f".as.int_list = {{image_ints + {len(self.ints)}, {len(v['ints'])}}}"
            self.ints += [_int64(n) for n in v["ints"]]
        elif "double_bits" in v:
            body = f".as.double_list = {{image_doubles + {len(self.doubles)}, {len(v['double_bits'])}}}"
            self.doubles += [_double(bits) for bits in v["double_bits"]]
        elif "bools" in v:
            body = f".as.bool_list = {{{self.place(v['bools'], 'const uint8_t *')}, {v['len']}}}"
        elif "tensors" in v:
            body = f".as.tensor_list = {{image_tensor_items + {len(self.tensor_items)}, {len(v['tensors'])}}}"
            self.tensor_items += ["0" if k < 0 else f"(tp_tensor *)&image_tensors[{k}]" for k in v["tensors"]]
        else:
            return f"{{.tag = {tag}}}"
        return f"{{{body}, .tag = {tag}}}"

    def render(self, method: str, program_size: str) -> str:
        values = [self.value(v) for v in self.image["values"]]
        tensors = [self.tensor(t) for t in self.image["tensors"]]
        args: list[str] = []
        instructions = []
        for instruction in self.image["instructions"]:
            if instruction["kind"] == 1:
                instructions.append(
                    f"{{.kind = 1, .nargs = {len(instruction['args'])}, .op = {instruction['op']}, .first_arg = {len(args)}}}"
                )
                args += [f"(tp_value *)&image_values[{index}]" for index in instruction["args"]]
            else:
                instructions.append(f"{{.kind = {instruction['kind']}}}")

        def array(declaration: str, items: list[str]) -> str:
            """The array, or nothing when it is empty (nothing refers to it then)."""
            body = ",\n".join(f"    {item}" for item in items)
            return f"{declaration}[{len(items)}] = {{\n{body}\n}};\n" if items else ""

        return (
            "/* The method's values, tensors, lists and kernel call arguments, decoded at build time\n"
            " * (tinypte/image.h): const, so in flash. */\n"
            + array("static const int64_t image_ints", self.ints)
            + array("static const double image_doubles", self.doubles)
            + array("static const tp_tensor image_tensors", tensors)
            + array("static tp_tensor *const image_tensor_items", self.tensor_items)
            + array("static const tp_value image_values", values)
            + array("static tp_value *const image_call_args", args)
            + array("static const tp_image_instruction image_instructions", instructions)
            + "static const tp_method_image image = {\n"
            f"    .program_size = {program_size},\n"
            f'    .method = "{method}",\n'
            "    .values = image_values,\n"
            f"    .num_values = {len(values)},\n"
            f"    .call_args = {'image_call_args' if args else '0'},\n"
            f"    .num_call_args = {len(args)},\n"
            "    .instructions = image_instructions,\n"
            f"    .num_instructions = {len(instructions)},\n"
            "};\n\n"
            "tp_status tp_app_method_init(tp_method *method, const tp_program *program, const tp_method_memory *memory) {\n"
            "  return tp_method_init_image(method, program, &image, memory, &tp_selected_kernels);\n"
            "}\n"
        )


def render(image: dict[str, Any], program: str, buffers: dict[int, str], method: str, program_size: str) -> str:
    """C defining the image from the requirements JSON's `image`, and `tp_app_method_init` with it; `program` is the C array of
    the program's bytes, `buffers` the planned buffers' arrays by memory id."""
    return _Renderer(image, program, buffers).render(method, program_size)
