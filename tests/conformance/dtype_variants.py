"""The conformance cases again in every other dtype: which dtypes ExecuTorch's portable kernels
accept for an overload, found by asking them, so the runtime can be held to all of them.

For each operator, the first supported case that calls it, is a function of its inputs
(cases.Fn) and takes float32 inputs gives one variant per dtype of the suite's set but float32
(int8, uint8, int16, int32, int64, bool): `<case>__<dtype>`, its float32 inputs cast (values
times 4 rounded, their magnitude for uint8, `> 0` for bool; other inputs unchanged). Each
variant is exported and run in ExecuTorch's host runtime. A variant is a dtype ExecuTorch
accepts when its program calls exactly the case's operators, ExecuTorch runs it and agrees
with eager PyTorch: those are written as generate.py writes cases, for the runtime to match.
Every variant's outcome goes into manifest.json's "probed" list: accepted, refused (ExecuTorch
cannot export or run it), lowered (its program calls other operators), unchecked (eager
PyTorch has no kernel for the dtype) or wrong (ExecuTorch disagrees with PyTorch).

usage: python tests/conformance/dtype_variants.py --out DIR --shard I --shards N
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import all_cases
import generate
import torch
from cases import Case, Fn

from tinypte import export_cache, lazy_codegen, library_noise

DTYPES = (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool)


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def cast(tensor: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """A float32 input as `dtype` (see the module docstring); other inputs unchanged."""
    if tensor.dtype != torch.float32:
        return tensor
    if dtype == torch.bool:
        return tensor > 0
    values = (tensor * 4).round()
    return (values.abs() if dtype == torch.uint8 else values).to(dtype)


def base_cases() -> list[Case]:
    """One case per operator: the first supported Fn case with float32 inputs that calls it."""
    chosen: dict[str, Case] = {}
    for case in all_cases.FLOAT_CASES:
        fits = case.unsupported is None and isinstance(case.module, Fn)
        if fits and any(t.dtype == torch.float32 for t in case.inputs):
            for operator in case.operators:
                chosen.setdefault(operator, case)
    unique = {case.name: case for case in chosen.values()}
    return [unique[name] for name in sorted(unique)]


def variants(case: Case) -> list[Case]:
    return [
        dataclasses.replace(case, name=f"{case.name}__{dtype_name(d)}", inputs=tuple(cast(t, d) for t in case.inputs))
        for d in DTYPES
    ]


def probe(variant: Case, out: Path) -> tuple[str, dict[str, Any] | None]:
    """(outcome, manifest entry of an accepted variant)."""
    try:
        generated = generate.build(variant)
    except generate.CaseError:
        return "refused", None
    if sorted(set(generated.operators)) != sorted(set(variant.operators)):
        return "lowered", None
    try:
        eager = generate.run_eager(variant)
    except Exception:  # noqa: BLE001 (PyTorch itself has no kernel for the dtype: nothing to check against)
        return "unchecked", None
    try:
        generate.compare(variant, generated.outputs, eager)
    except generate.CaseError:
        return "wrong", None
    return "accepted", generate.write_case(variant, generated, out)


def run(out: Path, shard: int, shards: int) -> int:
    torch.set_num_threads(1)
    generate.quiet()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    cases = base_cases()[shard::shards]
    entries: list[dict[str, Any]] = []
    probed: list[dict[str, Any]] = []
    for case in cases:
        for variant in variants(case):
            outcome, entry = probe(variant, out)
            probed.append({"name": variant.name, "operators": sorted(set(case.operators)), "outcome": outcome})
            if entry is not None:
                entries.append(entry)
    (out / "manifest.json").write_text(json.dumps({"cases": entries, "probed": probed}, indent=1) + "\n")
    print(
        f"dtype variants: shard {shard}/{shards}: {len(cases)} cases, {len(probed)} variants, {len(entries)} "
        f"accepted by ExecuTorch, {time.monotonic() - started:.1f} s"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--shard", type=int, required=True)
    parser.add_argument("--shards", type=int, required=True)
    args = parser.parse_args(argv)
    library_noise.install()
    export_cache.install()
    lazy_codegen.install()
    return run(args.out, args.shard, args.shards)


if __name__ == "__main__":
    sys.exit(main())
