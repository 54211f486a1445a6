"""Writes kernel test cases as the C header kernel_test.c includes (the types are defined there).

Four tables: data arrays (sizes, tensor contents, int lists; identical arrays are shared),
`kc_tensors` (dtype, shape, data), `kc_args` (each case's KernelCall arguments in order) and
`kc_cases` (operator, overload, label, where its arguments are, expected status). Statuses and
dtypes are written as the runtime's C identifiers (`TP_ERR_KERNEL_ARGS`, `TP_DTYPE_FLOAT32`):
their numbers come from the runtime's headers only.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

import torch
from kernel_case import OK, Case, OutSpec, is_tensor_list, schema_args

from tinypte.headers import dtypes

# ExecuTorch's MemoryFormat enum (a memory_format argument is passed as an Int).
MEMORY_FORMAT = {torch.contiguous_format: 0, torch.preserve_format: 1}


def wrap_initializer(body: str) -> str:
    """A comma-separated C initializer body, broken into lines of about 100 characters."""
    lines: list[str] = []
    line = ""
    for part in body.split(", "):
        if len(line) + len(part) > 100:
            lines.append(line.rstrip())
            line = ""
        line += part + ", "
    lines.append(line.rstrip(", "))
    return "\n  ".join(lines)


def c_float(x: float) -> str:
    """The shortest literal that reads back as the same float32."""
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    if x == 0:
        return "-0.0f" if math.copysign(1.0, x) < 0 else "0.0f"
    text = f"{x:.9g}"
    for digits in range(1, 10):
        text = f"{x:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == x:
            break
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def c_double(x: float) -> str:
    if math.isnan(x):
        return "NAN"
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    return repr(float(x))


def c_int(n: int) -> str:
    """An integer literal of any int64 value."""
    if n == -(2**63):
        return "INT64_MIN"
    if n == -(2**31):
        return "INT32_MIN"
    return str(n) if abs(n) < 2**31 else f"INT64_C({n:d})"


def c_string(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def c_element_type(dtype: torch.dtype) -> str | None:
    """The C type an array of `dtype` elements is written as; None: as raw little-endian bytes."""
    name = dtypes.by_torch(dtype).name
    if name == "float32":
        return "float"
    if name == "bool":
        return "uint8_t"
    if name.startswith(("int", "uint")):
        return name + "_t"
    return None  # float16, float64


class CWriter:
    """Collects the cases' tables; render() gives the header."""

    def __init__(self) -> None:
        self.arrays: list[str] = []
        self.array_names: dict[tuple[str, str], str] = {}
        self.tensors: list[str] = []
        self.arg_rows: list[str] = []  # each case's arguments, on one line
        self.arg_count = 0
        self.case_args: list[str] = []  # the current case's arguments
        self.cases: list[str] = []

    def array(self, ctype: str, values: Sequence[str]) -> str:
        """The name of a static array with these values (shared with identical arrays)."""
        body = ", ".join(values) if values else "0"
        key = (ctype, body)
        if key not in self.array_names:
            name = f"kc_a{len(self.array_names):d}"
            self.array_names[key] = name
            self.arrays.append(f"static const {ctype} {name}[] = {{{wrap_initializer(body)}}};")
        return self.array_names[key]

    def data(self, t: torch.Tensor) -> str:
        flat = t.contiguous().reshape(-1)
        ctype = c_element_type(t.dtype)
        if ctype == "float":
            return self.array(ctype, [c_float(x) for x in flat.tolist()])
        if ctype is not None:
            return self.array(ctype, [c_int(int(x)) for x in flat.tolist()])
        return self.array("uint8_t", [f"0x{b:02x}" for b in flat.view(torch.uint8).tolist()])

    def tensor(self, shape: Sequence[int], dtype: torch.dtype, data: torch.Tensor | None) -> int:
        """A kc_tensors row; data None: an out whose values are not checked (error cases)."""
        sizes = self.array("int32_t", [str(s) for s in shape]) if shape else "NULL"
        numel = math.prod(shape)
        ptr = "NULL" if data is None or numel == 0 else self.data(data)
        self.tensors.append(f"  {{{dtypes.by_torch(dtype).c_enum}, {len(shape):d}, {sizes}, {numel:d}, {ptr}}},")
        return len(self.tensors) - 1

    def arg(self, kind: str, **fields: str | int) -> None:
        """A kc_args entry: the kind and the fields it uses (designated initializers)."""
        assigned = "".join(f", .{name} = {value}" for name, value in fields.items())
        self.case_args.append(f"{{.kind = {kind}{assigned}}}")

    def int_list(self, values: Sequence[int]) -> str:
        return self.array("int64_t", [c_int(v) for v in values]) if values else "NULL"

    def value(self, v: object) -> None:
        """An input argument (a case's value, or a schema default, which torch types as Any)."""
        if v is None:
            self.arg("KC_NONE")
        elif isinstance(v, torch.Tensor):
            self.arg("KC_IN", tensor=self.tensor(v.shape, v.dtype, v))
        elif isinstance(v, bool):
            self.arg("KC_BOOL", i=int(v))
        elif isinstance(v, int):
            self.arg("KC_INT", i=c_int(v))
        elif isinstance(v, float):
            self.arg("KC_DOUBLE", d=c_double(v))
        elif isinstance(v, str):
            self.arg("KC_STRING", s=c_string(v))
        elif isinstance(v, torch.dtype):
            self.arg("KC_INT", i=dtypes.by_torch(v).c_enum)
        elif isinstance(v, torch.memory_format):
            self.arg("KC_INT", i=MEMORY_FORMAT[v])
        elif is_tensor_list(v):
            ids = [self.tensor(x.shape, x.dtype, x) for x in v]
            self.arg("KC_TENSOR_LIST", list=self.int_list(ids), n=len(ids))
        elif isinstance(v, list):
            self.arg("KC_INT_LIST", list=self.int_list(v), n=len(v))
        else:
            raise TypeError(f"no C form for argument {v!r}")

    def outs(self, c: Case) -> list[tuple[OutSpec, torch.Tensor | None]]:
        """Each out's shape and dtype, and its expected values (None for error cases)."""
        if c.status != OK:
            return [(spec, None) for spec in c.outs]
        return [((tuple(t.shape), t.dtype), t) for t in c.expected]

    def case(self, c: Case) -> None:
        """The case's arguments in KernelCall order (schema arguments, then the returns) and its row."""
        self.case_args = []
        outs = self.outs(c)
        out_positions: list[int] = []
        for a in schema_args(c.op):
            if a.is_out:
                if len(out_positions) == len(outs):
                    raise ValueError(f"{c.op} [{c.label}]: more outs in the schema than the case has")
                (shape, dtype), data = outs[len(out_positions)]
                out_positions.append(len(self.case_args))
                self.arg("KC_OUT", tensor=self.tensor(shape, dtype, data))
            elif a.name == "scratch" and isinstance(scratch := c.args.get(a.name), torch.Tensor):
                # a cortex_m::* kernel's working memory: it may write it
                self.arg("KC_SCRATCH", tensor=self.tensor(scratch.shape, scratch.dtype, scratch))
            elif a.name in c.args:
                self.value(c.args[a.name])
            elif a.has_default:
                self.value(a.default)
            else:
                raise ValueError(f"{c.op} [{c.label}]: no value for {a.name}")
        unknown = set(c.args) - {a.name for a in schema_args(c.op)}
        if unknown or len(out_positions) != len(outs) or not outs:
            raise ValueError(f"{c.op} [{c.label}]: unknown arguments {unknown} or {len(outs)} outs for the schema's")
        self.returns(out_positions, c.separate_returns)
        self.arg_rows.append(", ".join(self.case_args))
        self.cases.append(
            f"  {{{c_string(c.name)}, {c_string(c.overload_name)}, {c_string(c.label)}, {self.arg_count:d}, "
            f"{len(self.case_args):d}, {c.status}, {c_double(c.atol)}}},"
        )
        self.arg_count += len(self.case_args)

    def returns(self, out_positions: list[int], separate: bool) -> None:
        """The returned values: the out itself, or each out, or one TensorList of the outs."""
        if len(out_positions) == 1 or separate:
            for position in out_positions:
                self.arg("KC_RET", i=position)
        else:
            self.arg("KC_RET_LIST", list=self.int_list(out_positions), n=len(out_positions))

    def render(self, reference: str) -> str:
        return (
            f"/* Generated by gen_kernel_cases.py (expected values: {reference}); do not edit.\n"
            " * The cases of kernel_test.c, which defines the types. */\n"
            "/* clang-format off */\n\n" + "\n".join(self.arrays) + "\n\n"
            "static const kc_tensor kc_tensors[] = {\n" + "\n".join(self.tensors) + "\n};\n\n"
            "static const kc_arg kc_args[] = {\n" + "".join(f"  {row},\n" for row in self.arg_rows) + "};\n\n"
            "static const kc_case kc_cases[] = {\n" + "\n".join(self.cases) + "\n};\n"
        )
