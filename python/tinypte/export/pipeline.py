"""ExecuTorch export with tinypte's memory planning: an eval-mode module becomes .pte bytes.

Pipeline: torch.export.export -> to_edge -> batch norm folded into the convolution before it
(ExecuTorch's FuseBatchNormWithConvPass: an eval-mode batch norm after a convolution is a scale
and shift of its weights and bias, so the program has no batch norm call and the convolution
can take the ReLU after it) -> constant_prop_pass (folds weight transposes into
constants) -> squeezes as views (views.py) -> to_executorch (memory planning; views elided)
-> nonzero's outs row-major (nonzero_layout.py) -> .pte bytes. Same module, same bytes.

Memory planning places every activation, inputs and outputs included, in one arena:
`best` (default: the smaller of the two plans below), `greedy` (ExecuTorch's: shares
buffers between tensors whose lifetimes do not overlap), `lowest_offset` (tinypte's,
offset_planning.py: each tensor at the lowest offset free for its lifetime) or `naive` (no
sharing: one slot per tensor, for debugging), with offsets and constants aligned to
`alignment` bytes (default 16). Either keeps a fusable producer's inputs apart from its
activation's out (fusion_planning.py), so the runtime can fuse them. The quantize stage
plans int8 programs with the same `backend_config`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from tinypte.errors import TinypteError
from tinypte.export import fusion_planning, nonzero_layout, offset_planning, views
from tinypte.model import loading

PLANNERS = ("best", "greedy", "lowest_offset", "naive")


Algorithm = Callable[..., Any]


def backend_config(alignment: int, planner: str, wrap: Callable[[Algorithm], Algorithm] | None = None) -> Any:
    """to_executorch's configuration: memory planning algorithm and alignments. `wrap` (the
    quantize stage's in-place planning, tinypte.quantize.in_place) wraps each algorithm, inside
    the fusion planning."""
    from executorch.exir import ExecutorchBackendConfig
    from executorch.exir.memory_planning import MemoryPlanningAlgorithmSuite, greedy, naive
    from executorch.exir.passes import MemoryPlanningPass

    if alignment < 1 or alignment & (alignment - 1):
        raise TinypteError(f"--alignment {alignment}: must be a power of two")
    # The suite runs each algorithm and keeps the plan with the smallest arena (the first on a tie).
    algorithms = {
        "best": [greedy, offset_planning.lowest_offset],
        "greedy": [greedy],
        "lowest_offset": [offset_planning.lowest_offset],
        "naive": [naive],
    }[planner]
    planning = MemoryPlanningPass(
        memory_planning_algo=MemoryPlanningAlgorithmSuite(
            algo_list=[fusion_planning.fusion_aware(wrap(a) if wrap else a) for a in algorithms]
        ),
        alloc_graph_input=True,
        alloc_graph_output=True,
        alignment=alignment,
    )
    return ExecutorchBackendConfig(memory_planning_pass=planning, constant_tensor_alignment=alignment)


def export_program(
    model: Any,
    example_inputs: tuple[Any, ...],
    constant_prop: bool,
    path: Path,
    alignment: int = 16,
    planner: str = "best",
) -> bytes:
    """ExecuTorch .pte bytes of an eval-mode module (`path`: its model file, for errors)."""
    import torch
    from executorch.backends.transforms.fuse_batch_norm_with_conv import FuseBatchNormWithConvPass
    from executorch.exir import to_edge
    from executorch.exir.passes.constant_prop_pass import constant_prop_pass

    config = backend_config(alignment, planner)
    try:
        exported = torch.export.export(model, example_inputs)
        edge = to_edge(exported)
        edge = edge.transform([FuseBatchNormWithConvPass(edge.exported_program())])
        if constant_prop:
            edge._edge_programs["forward"] = constant_prop_pass(edge.exported_program())
        views.squeezes_as_views(edge.exported_program())
        return nonzero_layout.serialize(edge.to_executorch(config), config)
    except Exception as error:  # export failures are the user's model
        where = loading.where(error, path)
        first_line = str(error).splitlines()[0] if str(error) else ""
        raise TinypteError(
            f"{where}: ExecuTorch export failed: {type(error).__name__}: {first_line}"
            " (an op may have no ExecuTorch out-variant, or forward() uses Python control flow on tensor values)"
        ) from error


def add_program_arguments(parser: argparse.ArgumentParser, pte: str) -> None:
    """The arguments of a stage that makes a program of a model file's trained weights (export,
    quantize): the model file and its weights, the .pte to write (`pte` says which), the seed
    and the memory planning."""
    parser.add_argument("--model", type=Path, required=True, help="model file (see tinypte/model/loading.py)")
    parser.add_argument("--weights", type=Path, required=True, help="its trained state_dict (tinypte train)")
    parser.add_argument("--pte", type=Path, required=True, help=pte)
    parser.add_argument("--seed", type=int, default=0, help="the seed torch is set to meanwhile")
    parser.add_argument("--alignment", type=int, default=16, help="planned and constant tensor alignment (bytes)")
    parser.add_argument("--memory-planning", choices=PLANNERS, default="best", help="arena planning algorithm")


def trained_model(args: argparse.Namespace) -> tuple[ModuleType, Any, tuple[Any, ...]]:
    """(the model file, its trained model, its example inputs) for those arguments, with torch
    seeded and deterministic."""
    module = loading.load(args.model)
    loading.deterministic(args.seed)
    model = loading.trained(args.model, module, args.weights)
    return module, model, tuple(loading.call(args.model, "example_inputs()", module.example_inputs))
