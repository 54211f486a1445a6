"""The Ethos-U55 path: quantize for the NPU, hand what it can run to Vela, keep the rest on the CPU.

ExecuTorch's Arm backend does the work: its Ethos-U quantizer (symmetric int8, calibrated like
the Cortex-M flow), its partitioner (the subgraphs the NPU takes become `EthosUBackend`
delegates, lowered to TOSA and compiled by Vela into a command stream), then the Cortex-M pass
manager turns what is left (the quantize/dequantize around each delegate, operators the NPU
cannot take) into `cortex_m::*` operators, which tinypte's kernels run.

Each Vela compilation is observed (`VelaRecorder`): the TOSA graph it compiled (the golden stage
runs it in `tosa_reference_model`, the oracle of the delegate), Vela's per-layer estimates and its
network summary (the summary and the perf bench print them, labelled as estimates), and the blob
it produced, by which a .pte's delegate is matched to its graph.

The quantize stage calibrates (tinypte.quantize.flow.export_delegated, with `quantizer`) and
imports this module only for a delegated program: its tool with the Ethos-U side is
//backends/ethos_u55/aot:quantize_tool, which the rules run only when `delegate` is set.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ethos_u55 import configs
from tinypte.errors import TinypteError

BACKEND_ID = "EthosUBackend"

# The Ethos-U55 configurations (MACs per cycle) Vela compiles for; `delegate = "<target>"`.
TARGETS = configs.TARGETS

# Corstone-300's NPU setting in Vela's own configuration file: 500 MHz NPU, SRAM for the
# tensor arena, weights read from flash (Arm's Corstone-300 examples use the same).
SYSTEM_CONFIG = "Ethos_U55_High_End_Embedded"
MEMORY_MODE = "Shared_Sram"


def check_target(target: str) -> None:
    if target not in TARGETS:
        raise TinypteError(f"delegate {target!r}: not an Ethos-U55 configuration; use one of {', '.join(TARGETS)}")


@dataclass
class VelaGraph:
    """One subgraph Vela compiled: its TOSA graph, its blob and Vela's estimates."""

    tosa: bytes
    blob: bytes
    layers: list[dict[str, Any]]  # Vela's per-layer table
    network: dict[str, Any]  # Vela's network summary (cycles, memory, MACs)

    def as_json(self) -> dict[str, Any]:
        return {"layers": self.layers, **self.network}


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


def _layers(path: Path) -> list[dict[str, Any]]:
    """Vela's per-layer CSV (`--verbose-performance`) as rows."""
    if not path.exists():
        return []
    rows = []
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            rows.append({
                "name": row.get("Name", "").strip(),
                "operator": row.get("Original Operator", "").strip(),
                "npu_operator": row.get("NNG Operator", "").strip(),
                "target": row.get("Target", "").strip(),
                "cycles": int(_number(row.get("Op Cycles", "0"))),
                "macs": int(_number(row.get("MAC Count", "0"))),
                "sram_bytes": int(_number(row.get("Staging Usage", "0"))),
                "mac_utilisation": round(_number(row.get("Util% (MAC)", "0")), 2),
            })  # fmt: skip
    return rows


def _network(output: Path) -> dict[str, Any]:
    """Vela's network summary CSV: cycles, memory used, MACs."""
    found = sorted(output.glob("*_summary_*.csv"))
    if not found:
        return {}
    with found[0].open(newline="") as f:
        row = next(csv.DictReader(f), None)
    if row is None:
        return {}
    clock = _number(row.get("core_clock", "0"))
    return {
        "npu_cycles": int(_number(row.get("cycles_total", "0"))),
        "npu_compute_cycles": int(_number(row.get("cycles_npu", "0"))),
        "npu_clock_hz": int(clock),
        "sram_bytes": round(_number(row.get("sram_memory_used", "0")) * 1024),
        "flash_bytes": round(_number(row.get("off_chip_flash_memory_used", "0")) * 1024),
        "macs": int(_number(row.get("nn_macs", "0"))),
        "accelerator": row.get("accelerator_configuration", ""),
        "system_config": row.get("system_config", ""),
        "memory_mode": row.get("memory_mode", ""),
    }


@dataclass
class VelaRecorder:
    """Wraps the Arm backend's call of Vela to keep each compilation's graph and estimates."""

    graphs: list[VelaGraph] = field(default_factory=list)

    @contextlib.contextmanager
    def recording(self) -> Iterator[None]:
        from executorch.backends.arm.ethosu import backend

        original = backend.vela_compile

        def compile_and_record(tosa_flatbuffer: bytes, args: list[str], **kwargs: Any) -> Any:
            with tempfile.TemporaryDirectory() as scratch:
                kwargs["intermediate_path"] = scratch
                kwargs["verbose"] = False
                with contextlib.redirect_stdout(_VELA_LOG):
                    result = original(tosa_flatbuffer, list(args), **kwargs)
                output = Path(scratch) / "output"
                self.graphs.append(VelaGraph(
                    bytes(tosa_flatbuffer), bytes(result.processed_bytes),
                    _layers(output / "out_per-layer.csv"), _network(output),
                ))  # fmt: skip
            return result

        backend.vela_compile = compile_and_record
        try:
            yield
        finally:
            backend.vela_compile = original

    def graph_of(self, blob: bytes) -> VelaGraph:
        for graph in self.graphs:
            if graph.blob == blob:
                return graph
        raise TinypteError("a delegate's blob is none of the ones Vela produced in this build")


class _Discard:
    """Where Vela's console report goes: tinypte prints its own summary of it."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


_VELA_LOG: Any = _Discard()


@contextlib.contextmanager
def _rejections(found: dict[str, str]) -> Iterator[None]:
    """Keep the partitioner's reason for each node it leaves on the CPU (what ExecuTorch's
    WhyNoPartitionReporter is told; the partitioner only logs them as a table at INFO level)."""
    from executorch.exir.backend.utils import WhyNoPartitionReporter

    original = WhyNoPartitionReporter.report_reject

    def report_and_keep(self: Any, node: Any, reason: str) -> None:
        found.setdefault(str(node.name), " ".join(str(reason).split()))
        original(self, node, reason)

    WhyNoPartitionReporter.report_reject = report_and_keep
    try:
        yield
    finally:
        WhyNoPartitionReporter.report_reject = original


def compile_spec(target: str) -> Any:
    from executorch.backends.arm.ethosu import EthosUCompileSpec

    check_target(target)
    return EthosUCompileSpec(target, system_config=SYSTEM_CONFIG, memory_mode=MEMORY_MODE,
                             extra_flags=["--verbose-performance"])  # fmt: skip


@dataclass(frozen=True)
class Lowered:
    """An int8 edge program with Ethos-U delegates, and what Vela and the partitioner said."""

    edge: Any
    quantized_module: Any  # the quantized PyTorch module it was lowered from (q/dq in float)
    recorder: VelaRecorder
    rejections: dict[str, str]  # node name -> the partitioner's reason for leaving it on the CPU


def quantizer(spec: Any) -> Any:
    """The Ethos-U quantizer for compile spec `spec` (symmetric int8); the quantize stage
    calibrates the captured model with it."""
    from executorch.backends.arm.quantizer import EthosUQuantizer, get_symmetric_quantization_config

    found = EthosUQuantizer(spec)
    found.set_global(get_symmetric_quantization_config())
    return found


def lower(converted: Any, example_inputs: tuple[Any, ...], spec: Any) -> Lowered:
    """Partition the calibrated, converted module for the NPU of `spec`, compile with Vela, and
    turn what stays on the CPU into cortex_m operators."""
    import torch
    from executorch.backends.arm.ethosu import EthosUPartitioner
    from executorch.backends.cortex_m.passes.cortex_m_pass_manager import CortexMPassManager
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower

    exported = torch.export.export(converted, example_inputs)
    recorder = VelaRecorder()
    rejected: dict[str, str] = {}
    with recorder.recording(), _rejections(rejected):
        edge = to_edge_transform_and_lower(
            exported, partitioner=[EthosUPartitioner(spec)], compile_config=EdgeCompileConfig(_check_ir_validity=False)
        )
    edge._edge_programs["forward"] = CortexMPassManager(edge.exported_program(), use_explicit_layout=True).transform()
    return Lowered(edge, converted, recorder, rejected)


# Operators outside a delegate that only hand tensors to and from it.
_PLUMBING = frozenset({"getitem", "alloc", "cortex_m::quantize_per_tensor", "cortex_m::dequantize_per_tensor"})


def cpu_operators(edge: Any, rejections: dict[str, str]) -> list[dict[str, str]]:
    """The compute operators the partitioner left on the CPU, each with the partitioner's reason
    (by node name; the edge passes keep most names)."""
    from tinypte.export.fusion_planning import operator_name

    left = []
    for node in edge.exported_program().graph_module.graph.nodes:
        if node.op != "call_function" or "executorch_call_delegate" in str(node.target):
            continue
        name = operator_name(node) or getattr(node.target, "__name__", str(node.target))
        if name in _PLUMBING:
            continue
        reason = rejections.get(node.name) or next((r for n, r in rejections.items() if n in node.name), "")
        left.append({"name": node.name, "operator": name,
                     "reason": reason or "not taken by the Ethos-U partitioner (no NPU lowering for it)"})  # fmt: skip
    return left


def delegate_report(pte: bytes, lowered: Lowered, target: str) -> dict[str, Any]:
    """The report's `delegate` section: each delegate of the .pte with Vela's estimates, the
    operators left on the CPU."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    program = deserialize_pte_binary(pte).program
    graphs = []
    for plan in program.execution_plan:
        for delegate in plan.delegates:
            if delegate.id != BACKEND_ID:
                continue
            graphs.append(lowered.recorder.graph_of(_blob(program, delegate)).as_json())
    return {
        "backend": BACKEND_ID,
        "target": target,
        "system_config": SYSTEM_CONFIG,
        "memory_mode": MEMORY_MODE,
        "graphs": graphs,
        "cpu_operators": cpu_operators(lowered.edge, lowered.rejections),
    }


def _blob(program: Any, delegate: Any) -> bytes:
    """A delegate's processed blob (ExecuTorch keeps them inline with tinypte's export config)."""
    if int(delegate.processed.location) != 0:
        raise TinypteError(f"delegate {delegate.id}: its blob is in a segment; tinypte's export keeps blobs inline")
    return bytes(program.backend_delegate_data[delegate.processed.index].data)


def tosa_graphs(pte: bytes, lowered: Lowered) -> dict[str, Any]:
    """The TOSA graph of each delegate of `pte`, in plan order (the golden stage's oracle)."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    program = deserialize_pte_binary(pte).program
    found = []
    for plan in program.execution_plan:
        for index, delegate in enumerate(plan.delegates):
            tosa = lowered.recorder.graph_of(_blob(program, delegate)).tosa
            found.append({"method": plan.name, "delegate": index, "id": delegate.id,
                          "tosa": base64.b64encode(tosa).decode("ascii")})  # fmt: skip
    return {"format": "tinypte delegate graphs 1", "graphs": found}


def summary_line(report: dict[str, Any]) -> str:
    """One line for the build log: what the NPU takes, Vela's estimate, what stays on the CPU."""
    graphs = report["graphs"]
    cycles = sum(g.get("npu_cycles", 0) for g in graphs)
    layers = sum(len(g.get("layers", [])) for g in graphs)
    sram = max((g.get("sram_bytes", 0) for g in graphs), default=0)
    flash = sum(g.get("flash_bytes", 0) for g in graphs)
    cpu = report["cpu_operators"]
    left = f"; on the CPU: {', '.join(sorted({c['operator'] for c in cpu}))}" if cpu else "; nothing left on the CPU"
    return (f"delegate: {report['target']}: {len(graphs)} NPU graph(s), {layers} layers, Vela estimate "
            f"{cycles:,} NPU cycles, {sram:,} B SRAM, {flash:,} B flash{left}")  # fmt: skip
