"""Generates kernel_cases.h: the inputs and expected outputs of kernel_test.c.

The cases (kernel_cases_pointwise.py, kernel_cases_tensor.py, kernel_cases_nn.py, and for the
int8 cortex_m::* operators kernel_cases_int8*.py; the model is kernel_case.py) name an
out-variant overload and its arguments. Expected outs come from PyTorch eager, calling that
same overload (for cortex_m::* operators: their functional variant, the Cortex-M backend's
reference implementation), which also checks each case's arguments against the
real schema. Ops listed as float64 ops are computed in float64 and rounded to float32, the
exact result, so the test's tolerance only absorbs the kernel's own float32 rounding. The C
tables are written by kernel_case_writer.py. Inputs are seeded: the output is the same on every
run.

Bazel runs it for //runtime/kernels/tests:kernel_test. By hand, from the repository root:

    PYTHONPATH=python $VENV/bin/python runtime/kernels/tests/gen_kernel_cases.py --out /tmp/cases.h

`--reference executorch` (in Bazel: --define=kernel_cases_reference=executorch) takes the
expected values from the ExecuTorch runtime instead (export -> edge -> its kernels) and prints
where they deviate from PyTorch; cases it cannot run keep PyTorch's values. Its pybindings run
ExecuTorch's optimized kernels for some operators (add, sub, mul, div, gelu, _log_softmax, sum,
mm, bmm, native_layer_norm), which need not agree with the portable ones.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import kernel_cases_int8
import kernel_cases_int8_conv
import kernel_cases_int8_elementwise
import kernel_cases_int8_matmul
import kernel_cases_int8_pool
import kernel_cases_nn
import kernel_cases_pointwise
import kernel_cases_tensor
import torch
from kernel_case import OK, ArgValue, Case, Rng, f32, f64, is_cortex_m, is_tensor_list, overload, schema_args
from kernel_case_writer import CWriter

# Each family draws its inputs from its own seeded generator, in a fixed order.
FAMILIES: list[tuple[int, list[Callable[[Rng], list[Case]]]]] = [
    (20241123, [kernel_cases_pointwise.cases, kernel_cases_tensor.cases]),
    (20240611, [kernel_cases_nn.cases]),
    (20261123, [kernel_cases_int8.cases]),
    (20261126, [kernel_cases_int8_conv.cases]),
    (20261127, [kernel_cases_int8_pool.cases]),
    (20261125, [kernel_cases_int8_matmul.cases]),
    (20261124, [kernel_cases_int8_elementwise.cases]),
]


def all_cases() -> list[Case]:
    cases: list[Case] = []
    for seed, families in FAMILIES:
        rng = Rng(seed)
        for family in families:
            cases += family(rng)
    seen: set[tuple[str, str]] = set()
    for c in cases:
        if (c.op, c.label) in seen:
            raise ValueError(f"{c.op}: two cases labelled {c.label!r}")
        seen.add((c.op, c.label))
    return cases


# --- PyTorch reference ------------------------------------------------------------------
def to_float64(v: ArgValue) -> ArgValue:
    """float32 tensors (also in lists) and a float32 dtype argument, as float64."""
    if isinstance(v, torch.Tensor):
        return v.to(f64) if v.dtype == f32 else v
    if v is f32:
        return f64
    if is_tensor_list(v):
        return [x.to(f64) if x.dtype == f32 else x for x in v]
    return v


def out_dtypes(c: Case, count: int) -> list[torch.dtype]:
    """Each out's dtype: the case's, or the first input's."""
    if c.out_dtypes:
        if len(c.out_dtypes) != count:
            raise ValueError(f"{c.op} [{c.label}]: {len(c.out_dtypes)} out dtypes for {count} outs")
        return list(c.out_dtypes)
    first = c.first_tensor()
    if first is None:
        raise ValueError(f"{c.op} [{c.label}]: no out_dtype and no input tensor")
    return [first.dtype] * count


def cortex_m_reference(c: Case) -> list[torch.Tensor]:
    """The out of a cortex_m::* case: its functional variant, the backend's reference
    implementation (executorch/backends/cortex_m/ops/operators.py)."""
    functional = overload(c.op.replace(".out", ".default"))
    result = functional(**c.args)
    return [result.to(out_dtypes(c, 1)[0])]


def torch_reference(c: Case) -> list[torch.Tensor]:
    """The outs of the case's out-variant overload in PyTorch eager."""
    if is_cortex_m(c.op):
        return cortex_m_reference(c)
    names = [a.name for a in schema_args(c.op) if a.is_out]
    want = out_dtypes(c, len(names))
    wide = c.f64 and f32 in want
    args = {k: to_float64(v) for k, v in c.args.items()} if wide else c.args
    outs = {name: torch.empty(0, dtype=f64 if wide and d == f32 else d) for name, d in zip(names, want, strict=True)}
    overload(c.op)(**args, **outs)
    results = [out.to(d) for out, d in zip(outs.values(), want, strict=True)]
    return kernel_conventions(c, results)


def kernel_conventions(c: Case, outs: list[torch.Tensor]) -> list[torch.Tensor]:
    """Where the portable kernels deliberately differ from ATen."""
    if c.op == "gelu.out":  # gelu(-inf) is 0 where ATen computes -inf * 0 = NaN
        minus_inf = c.tensor_arg("self") == float("-inf")
        return [torch.where(minus_inf, torch.zeros_like(outs[0]), outs[0])]
    return outs


# --- ExecuTorch reference ---------------------------------------------------------------
# The functional overload that exports to each out variant, where it is not "<name>.default".
FUNCTIONAL = {
    "add.out": "add.Tensor",
    "sub.out": "sub.Tensor",
    "mul.out": "mul.Tensor",
    "div.out": "div.Tensor",
    "add.Scalar_out": "add.Scalar",
    "sub.Scalar_out": "sub.Scalar",
    "mul.Scalar_out": "mul.Scalar",
    "div.Scalar_out": "div.Scalar",
    "mean.out": "mean.dim",
    "sum.IntList_out": "sum.dim_IntList",
    "squeeze_copy.dim_out": "squeeze_copy.dim",
    "squeeze_copy.dims_out": "squeeze_copy.dims",
}
_KEEP: list[tuple[object, object, list[torch.Tensor]]] = []  # the runtime may still point into these


def executorch_reference(c: Case) -> list[torch.Tensor]:
    """Run the case's functional op as a one-operator program through the ExecuTorch runtime."""
    from executorch.exir import to_edge
    from executorch.extension.pybindings.portable_lib import _load_for_executorch_from_buffer

    fn = overload(FUNCTIONAL.get(c.op, c.op.split(".")[0] + ".default"))
    inputs: list[torch.Tensor] = []
    slots: dict[str, int | list[int]] = {}  # tensors (also inside lists) become program inputs
    for k, v in c.args.items():
        if isinstance(v, torch.Tensor):
            slots[k] = len(inputs)
            inputs.append(v)
        elif is_tensor_list(v):
            slots[k] = list(range(len(inputs), len(inputs) + len(v)))
            inputs.extend(v)
    consts = {k: v for k, v in c.args.items() if k not in slots}
    if c.op in ("full.out", "full_like.out"):
        consts["dtype"] = c.expected[0].dtype

    class M(torch.nn.Module):
        def forward(self, *xs: torch.Tensor) -> Any:
            vals = {k: ([xs[j] for j in i] if isinstance(i, list) else xs[i]) for k, i in slots.items()}
            return fn(**consts, **vals)

    buffer = to_edge(torch.export.export(M(), tuple(inputs))).to_executorch().buffer
    module = _load_for_executorch_from_buffer(buffer)
    _KEEP.append((buffer, module, inputs))
    return [out.clone() for out in module.forward(tuple(inputs))]


def deviation(got: list[torch.Tensor], want: list[torch.Tensor]) -> float:
    """The largest relative difference (inf for a different shape, dtype or integer value)."""
    worst = 0.0
    for g, w in zip(got, want, strict=True):
        if g.shape != w.shape or g.dtype != w.dtype:
            return float("inf")
        if not w.is_floating_point():
            worst = max(worst, 0.0 if torch.equal(g, w) else float("inf"))
        elif w.numel():
            g64, w64 = g.double(), w.double()
            same = (g64 == w64) | (torch.isnan(g64) & torch.isnan(w64))
            rel = (g64 - w64).abs() / w64.abs().clamp_min(1e-30)
            worst = max(worst, torch.where(same, torch.zeros_like(rel), rel).max().item())
    return worst


def use_executorch_references(cases: list[Case]) -> None:
    """Replace PyTorch's expected outs by ExecuTorch's; report where they deviate."""
    worst: dict[str, tuple[float, str]] = {}
    for c in cases:
        inputs = [v for v in c.args.values() if isinstance(v, torch.Tensor)]
        if c.status != OK or is_cortex_m(c.op) or c.expected[0].numel() == 0 or any(t.numel() == 0 for t in inputs):
            continue  # the ExecuTorch runtime may crash on empty tensors: keep PyTorch's values
        try:
            got = executorch_reference(c)
        except Exception as e:  # noqa: BLE001 - reported; the case keeps PyTorch's values
            print(f"  {c.op:<24} {c.label:<42} ExecuTorch failed: {str(e).splitlines()[0][:70]}", file=sys.stderr)
            continue
        dev = deviation(got, c.expected)
        if dev > worst.get(c.op, (-1.0, ""))[0]:
            worst[c.op] = (dev, c.label)
        if dev > 1e-6:
            print(f"  {c.op:<24} {c.label:<42} deviates {dev:.3g} from PyTorch", file=sys.stderr)
        if dev != float("inf"):
            c.expected = got
    print("largest relative deviation of ExecuTorch from PyTorch, per op:", file=sys.stderr)
    for op, (dev, label) in sorted(worst.items()):
        print(f"  {op:<40} {dev:.3g}  ({label})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="the header to write")
    parser.add_argument("--reference", choices=["torch", "executorch"], default="torch")
    opts = parser.parse_args(argv)

    torch.set_num_threads(1)  # the same float64 sums on every machine
    cases = all_cases()
    for c in cases:
        if c.status == OK:
            c.expected = torch_reference(c)
    if opts.reference == "executorch":
        use_executorch_references(cases)
    writer = CWriter()
    for c in cases:
        writer.case(c)
    opts.out.write_text(writer.render({"torch": "PyTorch", "executorch": "ExecuTorch"}[opts.reference]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
