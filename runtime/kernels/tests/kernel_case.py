"""The case model of the kernel unit test: one call of one ATen out-variant kernel.

A case names the overload ("add.out") and gives its arguments by schema name; arguments it
leaves out take the schema's default. gen_kernel_cases.py fills in the expected outs (OK cases)
and kernel_case_writer.py lays the arguments out as an ExecuTorch KernelCall holds them: every
schema argument in order (the outs are the last ones), then the returned values.

Statuses are the names of `TP_STATUS_LIST` (runtime/include/tinypte/status.h), checked against
it here; dtypes are torch dtypes, which tinypte.headers.dtypes maps to the runtime's `TP_DTYPE_LIST`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeGuard

import torch
from torch._ops import OpOverload

from tinypte import library_noise
from tinypte.headers.c_constants import read_statuses

# The int8 case families import ExecuTorch's Cortex-M backend (and with it torchao), whose
# known-harmless messages would otherwise print in every build of the cases.
library_noise.install()


def _status(name: str) -> str:
    """A status of the runtime's status.h, by its C name."""
    if name not in {s.name for s in read_statuses()}:
        raise ValueError(f"{name} is not in TP_STATUS_LIST (runtime/include/tinypte/status.h)")
    return name


OK = _status("TP_OK")
ARGS = _status("TP_ERR_KERNEL_ARGS")
DTYPE = _status("TP_ERR_KERNEL_DTYPE")

f16, f32, f64 = torch.float16, torch.float32, torch.float64
u8, i8, i32, i64, bool_ = torch.uint8, torch.int8, torch.int32, torch.int64, torch.bool

# A case's argument values, by schema argument name.
ArgValue: TypeAlias = (
    torch.Tensor | list[torch.Tensor] | list[int] | bool | int | float | str | torch.dtype | torch.memory_format | None
)
OutSpec: TypeAlias = tuple[tuple[int, ...], torch.dtype]  # (shape, dtype) of an out tensor


@dataclass
class Case:
    op: str  # an out-variant overload: "add.out", "squeeze_copy.dims_out", "cortex_m::softmax.out"
    label: str  # what the case is about, unique within the op
    args: dict[str, ArgValue]  # by schema name; the outs are not given
    status: str = OK  # the C name of the status the kernel must return
    outs: list[OutSpec] = field(default_factory=list)  # error cases: each out's shape and dtype
    out_dtypes: tuple[torch.dtype, ...] = ()  # OK cases: each out's dtype (default: the first input's)
    f64: bool = False  # compute the reference in float64 and round it to float32
    atol: float = 1e-7  # absolute tolerance of float32 outs (on top of a relative 1e-6)
    separate_returns: bool = False  # multi-out ops: return each out, not one TensorList of them
    expected: list[torch.Tensor] = field(default_factory=list)  # OK cases: the outs, from the reference

    @property
    def name(self) -> str:
        """The operator as the kernel registry names it: "aten::add"."""
        return overload(self.op)._schema.name

    @property
    def overload_name(self) -> str:
        """The overload, as the kernel registry names it: "out"."""
        return overload(self.op)._overloadname

    def tensor_arg(self, name: str) -> torch.Tensor:
        value = self.args[name]
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"{self.op} [{self.label}]: {name} is not a tensor")
        return value

    def first_tensor(self) -> torch.Tensor | None:
        """The first input tensor (also inside a tensor list)."""
        for value in self.args.values():
            if isinstance(value, torch.Tensor):
                return value
            if is_tensor_list(value):
                return value[0]
        return None


@dataclass(frozen=True)
class SchemaArg:
    name: str
    is_out: bool  # a written (out) tensor
    has_default: bool
    default: Any  # torch types schema defaults as Any


def overload(op: str) -> OpOverload[..., Any]:
    """The overload a case names: "add.out" (ATen) or "cortex_m::quantized_add.out"."""
    namespace, _, qualified = op.rpartition("::")
    if namespace == "cortex_m":
        # The passes package first: importing operators.py alone is a circular import.
        import executorch.backends.cortex_m.passes  # noqa: F401 - defines torch.ops.cortex_m
    name, overload_name = qualified.split(".")
    fn: OpOverload[..., Any] = getattr(getattr(getattr(torch.ops, namespace or "aten"), name), overload_name)
    return fn


def is_cortex_m(op: str) -> bool:
    """An operator of ExecuTorch's Cortex-M backend, whose reference is its functional variant."""
    return op.startswith("cortex_m::")


def schema_args(op: str) -> list[SchemaArg]:
    """The overload's schema arguments, in order."""
    return [
        SchemaArg(
            a.name,
            a.alias_info is not None and a.alias_info.is_write,
            a.has_default_value(),
            a.default_value if a.has_default_value() else None,
        )
        for a in overload(op)._schema.arguments
    ]


def is_tensor_list(value: object) -> TypeGuard[list[torch.Tensor]]:
    """A non-empty list of tensors (a Tensor[] argument)."""
    return isinstance(value, list) and bool(value) and all(isinstance(x, torch.Tensor) for x in value)


class CaseList:
    """Collects the cases of one family of kernels, with that family's defaults."""

    def __init__(self, *, f64_ops: Sequence[str] = (), atol: float = 1e-7) -> None:
        self.cases: list[Case] = []
        self.f64_ops = set(f64_ops)  # ops whose references are computed in float64
        self.atol = atol

    def ok(
        self,
        op: str,
        label: str,
        args: Mapping[str, ArgValue] | None = None,
        /,
        *,
        out_dtype: torch.dtype | tuple[torch.dtype, ...] | None = None,
        f64: bool | None = None,
        separate_returns: bool = False,
        **kwargs: ArgValue,
    ) -> None:
        """A case the kernel must compute, with `args` and/or keyword arguments; out_dtype: of
        each out, when not the first input's."""
        out_dtypes = (out_dtype,) if isinstance(out_dtype, torch.dtype) else (out_dtype or ())
        self.cases.append(
            Case(
                op,
                label,
                {**(args or {}), **kwargs},
                out_dtypes=out_dtypes,
                f64=op in self.f64_ops if f64 is None else f64,
                atol=self.atol,
                separate_returns=separate_returns,
            )
        )

    def err(
        self,
        op: str,
        label: str,
        status: str,
        outs: OutSpec | list[OutSpec],
        args: Mapping[str, ArgValue] | None = None,
        /,
        **kwargs: ArgValue,
    ) -> None:
        """A case the kernel must reject with `status`; outs: the out tensors' shapes and dtypes."""
        out_list = outs if isinstance(outs, list) else [outs]
        self.cases.append(Case(op, label, {**(args or {}), **kwargs}, status=status, outs=out_list, atol=self.atol))


class Rng:
    """Seeded random inputs: the same seed gives the same cases on every run."""

    def __init__(self, seed: int) -> None:
        self.gen = torch.Generator().manual_seed(seed)

    def randn(self, *shape: int, scale: float = 1.0) -> torch.Tensor:
        """Normal float32 values (drawn in float64)."""
        return (torch.randn(shape, generator=self.gen, dtype=f64) * scale).to(f32)

    def randint(self, *shape: int, lo: int = -9, hi: int = 10, dtype: torch.dtype = i32) -> torch.Tensor:
        """Integers in [lo, hi) as `dtype`."""
        return torch.randint(lo, hi, shape, generator=self.gen, dtype=i64).to(dtype)

    def randn_milli(self, *shape: int, scale: float = 1.0, offset: float = 0.0) -> torch.Tensor:
        """Normal float32 values rounded to 3 decimals (still not exact binary fractions, so
        products and sums round and the order of accumulation matters)."""
        return torch.round(torch.randn(shape, generator=self.gen) * scale + offset, decimals=3).to(f32)

    def rand_milli(self, *shape: int, lo: float = 0.0, hi: float = 1.0) -> torch.Tensor:
        """Uniform float32 values in [lo, hi), rounded to 3 decimals."""
        return torch.round(torch.rand(shape, generator=self.gen) * (hi - lo) + lo, decimals=3).to(f32)


def int8(rng: Rng, *shape: int) -> torch.Tensor:
    """Uniform int8 values over the whole range."""
    return rng.randint(*shape, lo=-128, hi=128, dtype=i8)


def collect(
    rng: Rng, *groups: Callable[[CaseList, Rng], None], f64_ops: Sequence[str] = (), atol: float = 1e-7
) -> list[Case]:
    """The cases of a family: each of `groups` in turn adds its own to one CaseList (with the
    family's `f64_ops` and `atol`), drawing their random inputs from `rng` in a fixed order."""
    cs = CaseList(f64_ops=f64_ops, atol=atol)
    for group in groups:
        group(cs, rng)
    return cs.cases


def arange(*shape: int, dtype: torch.dtype = f32) -> torch.Tensor:
    """0, 1, 2, ... in `shape`."""
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n, dtype=f64).reshape(shape).to(dtype)
