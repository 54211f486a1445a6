"""Lower ExecuTorch's own Cortex-M test cases with the backend's own flow, for tinypte to run.

The cases are the McuTestCase tables of the installed backend
(executorch.backends.cortex_m.test.ops and .models), imported, not copied. Each is lowered
twice, as ExecuTorch's tests and docs do it:

  default:   CortexMQuantizer() -> to_edge(cortex_m_edge_compile_config()) ->
             CortexMPassManager(...).transform() -> to_executorch()
  explicit:  the same with use_explicit_layout=True (the explicit-layout pass list)

with ExecuTorch's own memory planning and the scratch sizes the backend's passes chose. Where
both pipelines' quantizers give the same converted module (same code, tensors and example
inputs: most cases), the edge program (torch.export and to_edge) is made once and each pipeline
runs its passes on its own copy: the same bytes, a third less work. The
expected outputs are the lowered edge program run in PyTorch: `cortex_m::*` through the
backend's reference implementations (ops/operators.py), everything else through ATen.

Output: the conformance suite's format (tests/conformance/README.md): DIR/<case>.pte, inputs
and expected outputs as raw little-endian bytes *in the memory order of the program's tensor*
(a channels-last input is written NHWC), and DIR/manifest.json with "cases" and "unsupported"
(the cases ExecuTorch's own flow cannot lower, each with the reason).

usage: lower.py --out DIR [--part I/N] [--only REGEX]
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import importlib
import json
import pkgutil
import re
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import torch

from tinypte import export_cache, histogram_search, lazy_codegen, library_noise
from tinypte.errors import innermost
from tinypte.headers import dtypes
from tinypte.program_files import pte as pte_file
from tinypte.program_files.layout import in_memory_order

PIPELINES = ("default", "explicit")
PACKAGES = ("executorch.backends.cortex_m.test.ops", "executorch.backends.cortex_m.test.models")


@dataclass(frozen=True)
class Source:
    """One McuTestCase: where it is defined and the object itself."""

    module: str  # e.g. test_conv
    table: str  # the dict holding it, e.g. test_cases
    key: str
    case: Any


def identifier(text: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", text.lower())


def discover() -> tuple[list[Source], list[dict[str, str]]]:
    """Every McuTestCase of the backend's test packages, and the modules that cannot be imported."""
    from executorch.backends.cortex_m.test.tester import McuTestCase

    torch.manual_seed(0)  # modules draw their weights at import
    found: list[Source] = []
    skipped: list[dict[str, str]] = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            if not info.name.startswith("test_"):
                continue
            try:
                module = importlib.import_module(f"{package_name}.{info.name}")
            except (ImportError, pytest.skip.Exception) as error:  # importorskip raises Skipped
                reason = str(error).splitlines()[0] if str(error) else type(error).__name__
                skipped.append({"name": info.name, "reason": f"cannot import: {reason}"})
                continue
            for table, value in vars(module).items():
                if isinstance(value, dict) and value and all(isinstance(v, McuTestCase) for v in value.values()):
                    found.extend(Source(info.name, table, key, case) for key, case in value.items())
    return found, skipped


def case_name(pipeline: str, source: Source) -> str:
    table = "" if source.table == "test_cases" else identifier(source.table.removesuffix("_test_cases")) + "_"
    return f"{pipeline}_{identifier(source.module.removeprefix('test_'))}_{table}{identifier(source.key)}"


def seed_of(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "little")


def quantized(source: Source, explicit: bool, inputs: tuple[Any, ...]) -> Any:
    """The case's model through the backend's quantizer, calibrated on its inputs and converted
    (q/dq in float)."""
    from executorch.backends.cortex_m.quantizer.quantizer import CortexMQuantizer
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    model = source.case.model
    if isinstance(model, torch.nn.Module):
        model = model.eval()
    captured = torch.export.export(model, clone(inputs)).module(check_guards=False)
    prepared = prepare_pt2e(captured, CortexMQuantizer(use_explicit_layout=explicit))
    with torch.no_grad():
        prepared(*clone(inputs))
    return convert_pt2e(prepared)


def fingerprint(converted: Any, inputs: tuple[Any, ...]) -> str:
    """What exporting `converted` to an edge program depends on: its code, its tensors (parameters,
    buffers, constants) and the example inputs (shape, dtype, strides, values)."""
    digest = hashlib.sha256(converted.code.encode())
    tensors = {**dict(converted.named_parameters()), **dict(converted.named_buffers())}
    tensors.update((name, value) for name, value in vars(converted).items() if isinstance(value, torch.Tensor))
    for label, value in [*sorted(tensors.items()), *((f"input{i}", x) for i, x in enumerate(inputs))]:
        digest.update(label.encode())
        if isinstance(value, torch.Tensor):
            digest.update(f"{value.dtype}{tuple(value.shape)}{value.stride()}".encode())
            digest.update(value.detach().reshape(-1).clone().view(torch.uint8).numpy().tobytes())
        else:
            digest.update(repr(value).encode())
    return digest.hexdigest()


def edge_of(converted: Any, inputs: tuple[Any, ...]) -> Any:
    """The edge program manager of `converted` (torch.export, then to_edge with the backend's
    compile config)."""
    from executorch.backends.cortex_m.edge_compile_config import cortex_m_edge_compile_config
    from executorch.exir import to_edge

    return to_edge(torch.export.export(converted, clone(inputs)), compile_config=cortex_m_edge_compile_config())


def lowered(edge: Any, explicit: bool, inputs: tuple[Any, ...]) -> tuple[bytes, list[torch.Tensor]]:
    """The .pte of an edge program through the backend's passes, and the reference outputs."""
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager

    program = CortexMPassManager(edge.exported_program(), use_explicit_layout=explicit).transform()
    edge._edge_programs["forward"] = program
    with torch.no_grad():
        result = program.module()(*clone(inputs))
    outputs = [t.clone() for t in (result if isinstance(result, (tuple, list)) else (result,))]
    return bytes(edge.to_executorch().buffer), outputs


def reason(error: BaseException) -> str:
    """The innermost exception's type and first line (pass managers wrap the real reason)."""
    cause = innermost(error)
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0] if lines else ''}"[:400]


def clone(tensors: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(t.clone() if isinstance(t, torch.Tensor) else t for t in tensors)


def io_dim_orders(program: dict[str, Any]) -> tuple[list[list[int]], list[list[int]]]:
    plan = pte_file.forward_plan(program)
    values = plan["values"]

    def order(index: int) -> list[int]:
        value = values[index]
        if value["val_type"] != "Tensor":
            return []
        return [int(d) for d in value["val"].get("dim_order") or []]

    return [order(i) for i in plan["inputs"]], [order(i) for i in plan["outputs"]]


def write(name: str, pte: bytes, inputs: tuple[Any, ...], outputs: list[torch.Tensor], out: Path) -> dict[str, Any]:
    program = pte_file.program_of(pte, name)
    in_orders, out_orders = io_dim_orders(program)
    (out / f"{name}.pte").write_bytes(pte)

    def records(tensors: list[Any], orders: list[list[int]], stem: str) -> list[dict[str, Any]]:
        """Manifest records of inputs or outputs; a scalar input (torch.export bakes it into the
        program) is recorded by value and left to the program."""
        result: list[dict[str, Any]] = []
        for index, (tensor, order) in enumerate(zip(tensors, orders, strict=True)):
            if not isinstance(tensor, torch.Tensor):
                result.append({"scalar": tensor})
                continue
            file = f"{name}.{stem}{index}.bin"
            array = in_memory_order(tensor, order)
            (out / file).write_bytes(array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())
            result.append({"file": file, "dtype": dtypes.by_torch(tensor.dtype).name, "shape": list(tensor.shape),
                           "dim_order": order})  # fmt: skip
        return result

    operators = [f"{op['name']}.{op['overload']}" for op in pte_file.forward_plan(program).get("operators", [])]
    return {
        "name": name,
        "pte": f"{name}.pte",
        "operators": operators,
        "inputs": records(list(inputs), in_orders, "in"),
        "outputs": records(outputs, out_orders, "expected"),
        "tolerance": {"rel": 0.0, "abs": 0.0, "ulps": 0},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--part", default="0/1", help="I/N: every N-th test case from the I-th, both pipelines")
    parser.add_argument("--only", help="lower only cases whose name matches")
    args = parser.parse_args(argv)
    library_noise.install()
    export_cache.install()
    lazy_codegen.install()
    histogram_search.install()
    warnings.filterwarnings("ignore")
    torch.set_num_threads(1)
    part, parts = (int(x) for x in args.part.split("/"))
    args.out.mkdir(parents=True, exist_ok=True)
    sources, skipped = discover()
    entries: list[dict[str, Any]] = []
    unlowerable: list[dict[str, str]] = []
    shared = 0
    started = time.monotonic()
    for source in sources[part::parts]:  # both pipelines of a source in one part: they may share
        edges: dict[str, Any] = {}  # fingerprint of the converted module -> an unused edge program
        for pipeline in PIPELINES:
            name = case_name(pipeline, source)
            if args.only and not re.search(args.only, name):
                continue
            torch.manual_seed(seed_of(name))
            inputs = source.case.get_example_inputs()
            if pipeline == "explicit":  # its passes lay out NCHW model inputs themselves
                inputs = tuple(t.contiguous() if isinstance(t, torch.Tensor) else t for t in inputs)
            t0 = time.monotonic()
            try:
                converted = quantized(source, pipeline == "explicit", inputs)
                key = fingerprint(converted, inputs)
                if key in edges:
                    edge, shared = edges.pop(key), shared + 1
                else:
                    edge = edge_of(converted, inputs)
                    if pipeline != PIPELINES[-1]:
                        edges[key] = copy.deepcopy(edge)
                pte, outputs = lowered(edge, pipeline == "explicit", inputs)
            except Exception as error:  # noqa: BLE001 - whatever ExecuTorch raises is the reason listed
                unlowerable.append({"name": name, "reason": reason(error)})
                print(f"lower: {name}: ExecuTorch cannot lower it: {unlowerable[-1]['reason']}", file=sys.stderr)
                continue
            entries.append(write(name, pte, inputs, outputs, args.out))
            print(f"lower: {name} {time.monotonic() - t0:.1f}s", file=sys.stderr)
    manifest = {"cases": entries, "unsupported": unlowerable, "not_imported": skipped}
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"lower: {len(entries)} lowered ({shared} sharing the other pipeline's edge program), "
          f"{len(unlowerable)} not lowerable by ExecuTorch, {time.monotonic() - started:.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
