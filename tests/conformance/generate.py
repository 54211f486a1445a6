"""Export every conformance case to a .pte, run it in ExecuTorch, and write the expected outputs.

For each case in cases.py (or those whose name matches --only), in one process:
  DIR/<case>.pte            the program (tinypte.export.pipeline's pipeline: export -> to_edge ->
                            constant_prop_pass -> to_executorch; same bytes on every run)
  DIR/<case>.in<i>.bin      input i, raw little-endian, row-major
  DIR/<case>.expected<i>.bin  output i as ExecuTorch's host runtime computes it
and DIR/manifest.json: {"cases": [{"name", "pte", "operators", "inputs", "outputs",
"tolerance"}], "unsupported": [{"name", "reason"}]}, with the operators read from the
program's execution plan. ExecuTorch's outputs must agree with eager PyTorch within the
case's tolerance and the operators must be exactly those the case lists; any failure
(other than the expected failure of a case marked unsupported) names the case and makes
the generator exit non-zero without writing the manifest.

usage: python tests/conformance/generate.py --out DIR [--only REGEX]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import all_cases
import torch
from cases import Case

from tinypte import export_cache, lazy_codegen, library_noise
from tinypte.errors import TinypteError
from tinypte.headers import dtypes


class CaseError(Exception):
    """A case that cannot be generated: the message starts with the case name."""


@dataclass(frozen=True)
class Generated:
    """One case's program, operators and ExecuTorch outputs."""

    pte: bytes
    operators: list[str]
    outputs: list[torch.Tensor]


def export(case: Case) -> bytes:
    from tinypte.errors import TinypteError
    from tinypte.export.pipeline import export_program

    if case.raw or case.keep:
        return export_raw(case)
    try:
        return export_program(case.module, clone_all(case.inputs), True, Path(case.name))
    except TinypteError as error:
        raise CaseError(str(error)) from error


def export_raw(case: Case) -> bytes:
    """The case exported without view elision, and without dim-order operators (Case.raw) or with
    the operators it keeps whole (Case.keep)."""
    from executorch.exir import EdgeCompileConfig, to_edge

    from tinypte.export import nonzero_layout
    from tinypte.export.pipeline import backend_config

    exported = torch.export.export(case.module, clone_all(case.inputs))
    config = EdgeCompileConfig(
        _skip_dim_order=case.raw, preserve_ops=list(case.keep), _core_aten_ops_exception_list=list(case.keep)
    )
    edge = to_edge(exported, compile_config=config)
    backend = backend_config(16, "greedy")
    return nonzero_layout.serialize(edge.to_executorch(backend), backend)


def build_int8(case: Case) -> Generated:
    """An int8 case: the quantized program, and its outputs through the reference implementations."""
    from tinypte.quantize import cortex_m as quantize

    assert case.calibration is not None
    edge = quantize.quantize_program(case.module, clone_all(case.inputs), case.calibration)
    with torch.no_grad():
        result = edge.exported_program().module()(*clone_all(case.inputs))
    outputs = [t.clone() for t in (result if isinstance(result, tuple) else (result,))]
    pte = quantize.export_int8_program(edge)
    return Generated(pte, operators_of(pte), outputs)


def compare_int8(case: Case, got: list[torch.Tensor], want: list[torch.Tensor]) -> None:
    """The quantized program against the float module: close (a sanity check of the case)."""
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        if g.shape != w.shape or g.dtype != w.dtype:
            raise CaseError(f"{case.name}: output {index}: int8 program gives {g.dtype} {list(g.shape)}")
        error = float((g - w).abs().max())
        if error > 0.15 * float(w.abs().max()) + 0.05:
            raise CaseError(f"{case.name}: output {index}: the int8 program is {error:.3g} from float (a bad case)")


def operators_of(pte: bytes) -> list[str]:
    """Every operator of the program's execution plan as namespace::name.overload, in plan order."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    program = deserialize_pte_binary(pte).program
    return [f"{op.name}.{op.overload}" for plan in program.execution_plan for op in plan.operators]


def run_executorch(pte: bytes, inputs: tuple[torch.Tensor, ...]) -> list[torch.Tensor]:
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)  # keep referenced while its method runs
    method = program.load_method("forward")
    if method is None:
        raise RuntimeError("the program has no forward method")
    outputs = [output.clone() for output in method.execute(list(clone_all(inputs)))]
    del method, program
    return outputs


def run_eager(case: Case) -> list[torch.Tensor]:
    with torch.no_grad():
        result = case.module(*clone_all(case.inputs))
    return list(result) if isinstance(result, tuple) else [result]


def clone_all(tensors: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, ...]:
    return tuple(t.clone() for t in tensors)


def compare(case: Case, got: list[torch.Tensor], want: list[torch.Tensor]) -> None:
    """ExecuTorch (got) against eager PyTorch (want), within the case's tolerance."""
    if len(got) != len(want):
        raise CaseError(f"{case.name}: ExecuTorch returned {len(got)} outputs, PyTorch {len(want)}")
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        where = f"{case.name}: output {index}"
        if g.dtype != w.dtype or g.shape != w.shape:
            raise CaseError(f"{where}: ExecuTorch gives {g.dtype} {list(g.shape)}, PyTorch {w.dtype} {list(w.shape)}")
        if w.dtype.is_floating_point and not bool(torch.isfinite(w).all()):
            raise CaseError(f"{where}: PyTorch's output is not finite (a bad case)")
        error = (g.double() - w.double()).abs()
        allowed = case.tolerance.abs + case.tolerance.rel * w.double().abs()
        close = error <= allowed
        if case.tolerance.ulps and g.dtype == torch.float32:
            close |= ulp_distance(g, w) <= case.tolerance.ulps
        if not bool(close.all()):
            raise CaseError(
                f"{where}: max |ExecuTorch - PyTorch| = {float(error.max()):.3g} exceeds the tolerance "
                f"(rel {case.tolerance.rel}, abs {case.tolerance.abs}, ulps {case.tolerance.ulps})"
            )


def ulp_distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """How many float32 values lie between a and b, element-wise (0: equal; NaNs compare equal)."""

    def ordered(x: torch.Tensor) -> torch.Tensor:
        bits = x.contiguous().view(torch.int32).long()
        return torch.where(bits < 0, -(bits & 0x7FFFFFFF), bits)

    distance = (ordered(a) - ordered(b)).abs()
    return torch.where(torch.isnan(a) & torch.isnan(b), torch.zeros_like(distance), distance)


def check_operators(case: Case, operators: list[str]) -> None:
    if sorted(set(operators)) != sorted(set(case.operators)):
        raise CaseError(
            f"{case.name}: the program calls {sorted(set(operators))}, the case lists {sorted(set(case.operators))}"
        )


def build(case: Case) -> Generated:
    """Export, read operators, run in ExecuTorch; any exception becomes a CaseError naming the case."""
    try:
        if case.calibration is not None:
            return build_int8(case)
        pte = export(case)
        operators = operators_of(pte)
        outputs = run_executorch(pte, case.inputs)
    except CaseError:
        raise
    except Exception as error:  # ExecuTorch's failures, re-raised with the case name
        first = str(error).splitlines()[0] if str(error) else ""
        raise CaseError(f"{case.name}: {type(error).__name__}: {first}") from error
    return Generated(pte, operators, outputs)


def tensor_bytes(tensor: torch.Tensor) -> bytes:
    """The tensor's elements in its memory order: N, H, W, C for a channels-last one (strided
    that way and not also row-major), as the program's dim order lays it out; else row-major."""
    if tensor.dim() == 4 and not tensor.is_contiguous() and tensor.is_contiguous(memory_format=torch.channels_last):
        tensor = tensor.permute(0, 2, 3, 1)
    array = tensor.detach().contiguous().numpy()
    return array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()


def dtype_name(case: Case, tensor: torch.Tensor) -> str:
    try:
        return dtypes.by_torch(tensor.dtype).name
    except TinypteError as error:
        raise CaseError(f"{case.name}: {error}") from error


def write_tensors(case: Case, tensors: list[torch.Tensor], stem: str, out: Path) -> list[dict[str, Any]]:
    records = []
    for index, tensor in enumerate(tensors):
        name = f"{case.name}.{stem}{index}.bin"
        (out / name).write_bytes(tensor_bytes(tensor))
        records.append({"file": name, "dtype": dtype_name(case, tensor), "shape": list(tensor.shape)})
    return records


def write_case(case: Case, generated: Generated, out: Path) -> dict[str, Any]:
    """Write the case's files; its manifest entry."""
    (out / f"{case.name}.pte").write_bytes(generated.pte)
    return {
        "name": case.name,
        "pte": f"{case.name}.pte",
        "operators": generated.operators,
        "inputs": write_tensors(case, list(case.inputs), "in", out),
        "outputs": write_tensors(case, generated.outputs, "expected", out),
        "tolerance": {"rel": case.tolerance.rel, "abs": case.tolerance.abs, "ulps": case.tolerance.ulps},
    }


def generate(case: Case, out: Path) -> dict[str, Any] | None:
    """The case's manifest entry, or None for a case marked unsupported that fails as expected (no
    program, a program without the operators the case lists, or ExecuTorch's outputs wrong)."""
    if case.unsupported is not None:
        try:
            generated = build(case)
            check_operators(case, generated.operators)
            if case.calibration is None:
                compare(case, generated.outputs, run_eager(case))
        except CaseError as error:
            print(f"generate: unsupported {case.name}: {case.unsupported} ({error})", file=sys.stderr)
            return None
        raise CaseError(f"{case.name}: marked unsupported ({case.unsupported}) but now works: remove the mark")
    generated = build(case)
    check_operators(case, generated.operators)
    (compare_int8 if case.calibration is not None else compare)(case, generated.outputs, run_eager(case))
    return write_case(case, generated, out)


def select(pattern: str | None) -> list[Case]:
    chosen = [c for c in all_cases.ALL_CASES if pattern is None or re.search(pattern, c.name)]
    if not chosen:
        raise CaseError(f"--only {pattern!r} matches no case")
    return chosen


def quiet() -> None:
    warnings.filterwarnings("ignore", message=r".*isinstance\(treespec, LeafSpec\).*", category=FutureWarning)


def run(out: Path, pattern: str | None) -> int:
    torch.set_num_threads(1)
    torch.manual_seed(0)
    quiet()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    entries: list[dict[str, Any]] = []
    unsupported: list[dict[str, str]] = []
    failures: list[str] = []
    for case in select(pattern):
        try:
            entry = generate(case, out)
        except CaseError as error:
            failures.append(str(error))
            continue
        if entry is None:
            unsupported.append({"name": case.name, "reason": case.unsupported or ""})
        else:
            entries.append(entry)
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    if failures:
        print(f"generate: {len(failures)} case(s) failed; no manifest written", file=sys.stderr)
        return 1
    manifest = {"cases": entries, "unsupported": unsupported}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    pte_bytes = sum((out / e["pte"]).stat().st_size for e in entries)
    print(
        f"generate: {len(entries)} cases ({len(unsupported)} unsupported skipped), {pte_bytes} B of .pte, "
        f"{time.monotonic() - started:.1f} s"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the operator conformance cases.")
    parser.add_argument("--out", type=Path, required=True, help="directory for the .pte, .bin and manifest.json")
    parser.add_argument("--only", help="generate only the cases whose name matches this regular expression")
    args = parser.parse_args(argv)
    library_noise.install()
    export_cache.install()
    lazy_codegen.install()
    try:
        return run(args.out, args.only)
    except CaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
